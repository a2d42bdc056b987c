/**
 * The discovery operations: what is configured and what its tools look like
 * (spec 000, "Zero-context discovery", "Search", "Types, in whichever form a
 * consumer reads"). They run in the CLI's process from the schema cache and
 * start no server that is already listed.
 *
 * @module
 */

import { EXPLAIN, TAG } from "./shared_fields.ts";
import * as z from "zod";
import { defineOp } from "./op.ts";
import { withCaller } from "./caller_schema.ts";
import { fromSetting } from "./field_meta.ts";
import { DIRECT_FIELDS, DIRECT_FLAGS } from "./direct_flags.ts";
import { WAIT_FLAGS, WAIT_TO_THE_END } from "./wait_flag.ts";
import {
  CatalogOutput,
  ClientOutput,
  ConfigOutput,
  LsOutput,
  SchemaOutput,
  ScriptsOutput,
  SearchOutput,
  TypesOutput,
} from "./discovery_outputs.ts";

/** The input field `--wait` fills (ops/wait_flag.ts `WAIT_FLAGS`), spread into each discovery op's input. */
const WAIT_FIELDS = {
  wait: z.string().optional().describe(
    `wait for servers still starting: a duration, or ${WAIT_TO_THE_END} for as long as their ` +
      "start may take; default: answer at once, showing them as starting",
  ),
};

const READ = { readOnly: true, destructive: false, idempotent: true } as const;

/** `mcpx ls`. */
export const ls = defineOp({
  name: "ls",
  description:
    "List the configured namespaces: tool count, sharing, scope, live instances, state and description, from the schema cache.",
  where: "cli",
  hints: READ,
  serve: { fields: [] },
  input: z.object({
    ...DIRECT_FIELDS,
    ...WAIT_FIELDS,
  }),
  output: LsOutput,
  cli: {
    command: "ls",
    module: "./discovery/ls.ts",
    warm: true,
    usage: "mcpx ls [<url>] [--wait[=duration]]",
    summary:
      "list namespaces: tools, sharing, scope, live instances, state (from the schema cache)",
    flags: { ...DIRECT_FLAGS, ...WAIT_FLAGS },
  },
});

/** `mcpx search`. */
export const search = defineOp({
  name: "search",
  description:
    "Find tools by name, tag and description, ranked; ends with the `mcpx types` command for exactly the hits.",
  // A running daemon answers from its cache in memory (decision 0030); with none, the command
  // runs the same handler (ops/search.ts) on the cache's files.
  where: "daemon",
  hints: READ,
  serve: {
    fields: ["words", "tag"],
    description:
      "Find tools of every configured MCP server by name, tag and description, ranked (words: what " +
      "the tool should do). Then get the signatures of the hits with mcpx_types and call one with " +
      "mcpx_call, or several from one mcpx_exec script.",
  },
  input: withCaller({
    words: z.array(z.string()).default([]).describe("what the tool should do"),
    tag: TAG.optional(),
    explain: EXPLAIN.optional(),
    ...WAIT_FIELDS,
    // Any number: the handler refuses one that is not a whole number ≥ 1 in the words of -n.
    limit: fromSetting(z.number(), "search.limit").optional().describe("the most hits"),
    graceMs: fromSetting(z.number().int().min(0), "discovery.wait").optional().describe(
      "without wait: how long a listing the search starts is waited for, ms",
    ),
  }),
  output: SearchOutput,
  cli: {
    command: "search",
    module: "./discovery/search.ts",
    warm: true,
    usage: "mcpx search <words…> [--tag T] [--explain] [-n N] [--wait[=duration]]",
    summary: "find tools by name, tag and description, ranked",
    args: [{ field: "words", name: "words", variadic: true, optional: true }],
    flags: {
      tag: { field: "tag", type: "string" },
      explain: {
        field: "explain",
        type: "boolean",
      },
      limit: {
        type: "string",
        short: "n",
        setting: "search.limit",
      },
      ...WAIT_FLAGS,
    },
  },
});

/** `mcpx types`. */
export const types = defineOp({
  name: "types",
  description:
    "TypeScript signatures of whole namespaces, or of just the tools named (`ns.tool`), as the generated client types them.",
  where: "cli",
  hints: READ,
  serve: {
    fields: ["targets"],
    description:
      "TypeScript signatures of the tools named (targets: `namespace.tool`, as mcpx_search found " +
      "them), or of whole namespaces (`namespace`: costs thousands of tokens; name tools instead). " +
      "The signatures are what mcpx_call takes as arguments and what mcpx_exec scripts call.",
  },
  input: z.object({
    targets: z.array(z.string()).default([]).describe("namespaces or namespace.tool names"),
    ...DIRECT_FIELDS,
    ...WAIT_FIELDS,
  }),
  output: TypesOutput,
  cli: {
    command: "types",
    module: "./discovery/types.ts",
    warm: true,
    usage: "mcpx types <namespace>[.<tool>] … | <url> [<tool>…] [--wait[=duration]]",
    summary: "TypeScript signatures of whole namespaces, or of just the tools named",
    flags: { ...DIRECT_FLAGS, ...WAIT_FLAGS },
    args: [{
      field: "targets",
      name: "namespace[.tool]",
      variadic: true,
      optional: true,
      complete: "namespace-or-tool",
    }],
  },
});

/** The forms `mcpx schema` prints the catalog in (spec 000, "Types, in whichever form a consumer reads"). */
export const SCHEMA_FORMATS = ["typescript", "json-schema", "openapi", "mcp"] as const;

/** `mcpx schema`. */
export const schema = defineOp({
  name: "schema",
  description: "The upstream tools of the namespaces named (every one when none is) in the form " +
    "a consumer reads: TypeScript for a script, a JSON Schema document (tools under $defs) for a " +
    "validator, OpenAPI 3.1 for a client generator, an MCP tools/list result for an MCP host.",
  where: "cli",
  hints: READ,
  input: z.object({
    targets: z.array(z.string()).default([]).describe(
      "namespaces or namespace.tool names (default: every namespace)",
    ),
    format: z.enum(SCHEMA_FORMATS).default("typescript").describe(
      "the form to print: typescript (the default), json-schema, openapi or mcp",
    ),
  }),
  output: SchemaOutput,
  cli: {
    command: "schema",
    module: "./discovery/schema.ts",
    usage: "mcpx schema [<namespace>[.<tool>]…] [--format typescript|json-schema|openapi|mcp]",
    summary: "the upstream tool catalog as TypeScript, JSON Schema, OpenAPI or an MCP tools/list",
    args: [{
      field: "targets",
      name: "namespace[.tool]",
      variadic: true,
      optional: true,
      complete: "namespace-or-tool",
    }],
    flags: {
      format: {
        field: "format",
        type: "string",
        complete: SCHEMA_FORMATS,
      },
    },
  },
});

/** `mcpx catalog`. */
export const catalog = defineOp({
  name: "catalog",
  description:
    "Every namespace plus as many tool signatures as fit a token budget, for a system prompt.",
  where: "cli",
  hints: READ,
  serve: { fields: [] },
  input: z.object({ ...WAIT_FIELDS }),
  output: CatalogOutput,
  cli: {
    command: "catalog",
    module: "./discovery/catalog.ts",
    warm: true,
    usage: "mcpx catalog [--budget TOKENS] [--bias words] [--wait[=duration]]",
    summary: "every namespace plus as many signatures as fit a token budget",
    flags: {
      budget: {
        type: "string",
        setting: "catalog.budget",
      },
      bias: { type: "string", setting: "catalog.bias" },
      ...WAIT_FLAGS,
    },
  },
});

/** `mcpx scripts`. */
export const scripts = defineOp({
  name: "scripts",
  description:
    "Named scripts reachable from the current directory: name, description, path; shadowed ones marked.",
  where: "cli",
  hints: READ,
  input: z.object({}),
  output: ScriptsOutput,
  cli: {
    command: "scripts",
    module: "./discovery/scripts.ts",
    warm: true,
    usage: "mcpx scripts",
    summary: "named scripts reachable from here: name, description, path (shadowed ones marked)",
  },
});

/** `mcpx client`. */
export const client = defineOp({
  name: "client",
  description: "Write the generated typed client (mcpx-client.ts) for a checked-in script.",
  where: "cli",
  hints: { readOnly: false, destructive: false, idempotent: true },
  input: z.object({
    output: z.string().optional().describe("file to write (a directory gets mcpx-client.ts)"),
  }),
  output: ClientOutput,
  cli: {
    command: "client",
    module: "./discovery/client.ts",
    usage: "mcpx client -o <path>",
    summary: "write the generated typed client (mcpx-client.ts) for a checked-in script",
    flags: {
      output: {
        field: "output",
        type: "string",
        short: "o",
        complete: "file",
      },
    },
  },
});

/** `mcpx config`. */
export const config = defineOp({
  name: "config",
  description:
    "Every resolved setting and where its value came from; with `schema`, every setting's declaration.",
  where: "cli",
  hints: READ,
  input: z.object({
    schema: z.boolean().optional().describe("print every setting's declaration"),
    plumbing: z.boolean().optional().describe("include internal switches"),
  }),
  output: ConfigOutput,
  cli: {
    command: "config",
    module: "./config/config_cmd.ts",
    usage: "mcpx config [--schema] [--plumbing]",
    summary: "every resolved setting and where it came from; --schema prints the declarations",
    flags: {
      schema: { field: "schema", type: "boolean" },
      plumbing: { field: "plumbing", type: "boolean" },
    },
  },
});
