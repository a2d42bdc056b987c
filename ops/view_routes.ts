/**
 * The daemon's view route (ops/routes.ts spreads it into its table): the
 * caller's namespaces with their tools' schemas, as the daemon's own cache
 * has them. A command that reads schemas (`types`, `catalog`, `schema`)
 * asks it instead of this machine's schema cache when `daemon.endpoint`
 * names a daemon elsewhere: that daemon's servers are the ones its calls
 * reach (decision 0051). The handler is ops/daemon_view.ts `viewInDaemon`.
 *
 * @module
 */

import * as z from "zod";
import { defineOp } from "./op.ts";
import { CALLER_SHAPE } from "./caller_schema.ts";
import { ListingWait, Starting } from "./output_shapes.ts";

/**
 * A tool as discovery/types.ts `ToolEntry` has it: the fields every entry has
 * are declared; the optional ones (`outputSchema`, `declaration`, `title`,
 * `annotations`, `taskSupport`) are carried as they are.
 */
const ToolRow = z.looseObject({
  namespace: z.string(),
  server: z.string(),
  tool: z.string().describe("the tool's real name"),
  fn: z.string().describe("its identifier"),
  description: z.string(),
  tags: z.array(z.string()),
  inputSchema: z.record(z.string(), z.unknown()).describe("{} in a summary namespace"),
});

/** A namespace as discovery/types.ts `NamespaceEntry` has it (its optional fields carried). */
const NamespaceRow = z.looseObject({
  namespace: z.string(),
  server: z.string(),
  description: z.string(),
  tools: z.array(ToolRow),
  summary: z.boolean().optional().describe("its tools came without schemas"),
});

/** `POST /v1/namespaces`. */
export const namespaces = defineOp({
  name: "namespaces",
  description: "The namespaces of the caller's profile selection with their tools, servers the " +
    "cache lacks listed first: whole schemas and declarations for the namespaces named (every " +
    "one when none is), names and descriptions for the rest.",
  where: "daemon",
  hints: { readOnly: false, destructive: false, idempotent: true },
  input: z.object({
    schemas: z.array(z.string()).optional().describe(
      "namespaces or server names whose tools come whole (default: every one)",
    ),
    listMissing: z.boolean().optional().describe("false: list nothing, answer the cache as it is"),
    wait: ListingWait.optional().describe("how long to wait for listings (default: to the end)"),
    ...CALLER_SHAPE,
  }),
  output: z.object({
    namespaces: z.array(NamespaceRow),
    problems: z.array(z.string()),
    unusable: z.array(z.object({ server: z.string(), tool: z.string(), problem: z.string() })),
    disabled: z.array(z.object({
      namespace: z.string(),
      server: z.string(),
      unselected: z.string().optional(),
    })),
    starting: z.array(Starting.extend({ server: z.string(), namespace: z.string() })).optional(),
  }),
});

/** The view routes by name. */
export const VIEW_ROUTES = { namespaces } as const;
