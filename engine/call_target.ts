/**
 * Which tool a call reaches, decided by the daemon for every caller: the CLI,
 * a script's generated client, a raw request on the socket (and later `mcpx
 * serve`). A namespace outside the caller's profile selection, or a tool the
 * configuration hides (`tools`, `extraIncludeTools`, `excludeTools`, an
 * alias's subset), is refused here with the error discovery gives
 * (discovery/view.ts `findNamespace`/`findTool`), so the refusal is the same
 * whichever path the call took and its suggestions name visible names only.
 *
 * Source of the rules: spec 000, "Configuration" (the tool lists hide a tool
 * "from listings and calls alike"), "Profiles and aliases" (a script written
 * under one profile cannot reach a namespace outside it); issue 9, "Nobody
 * else gets in"; decision 0015.
 *
 * @module
 */

import type { ServerSpec, ToolFilter } from "../config/types.ts";
import { checkSelection, DEFAULT_SELECTION, type ProfileSelection } from "../config/profiles.ts";
import { findNamespace, findTool, hiddenToolError, type NamespaceView } from "../discovery/view.ts";
import { compileToolFilter } from "../config/tool_filter.ts";
import type { TaskSupport } from "../discovery/types.ts";

/** Where a call goes: the server, its namespace and the tool's real name. */
export interface CallTarget {
  spec: ServerSpec;
  /** The namespace identifier (a caller may have named the server instead). */
  namespace: string;
  /** The tool's real name (`get-sum`, whichever spelling the caller used). */
  tool: string;
  /** How the tool runs as a task, when its listing said (absent: `forbidden`, or not listed). */
  taskSupport?: TaskSupport;
  /** Its listed input schema (absent: not listed); the SDK reads it for `Mcp-Param-*` headers. */
  inputSchema?: Record<string, unknown>;
}

/** What {@link callTarget} needs of the daemon. */
export interface TargetSource {
  /** The configured servers, in file order (disabled ones included). */
  readonly servers: ServerSpec[];
  /** The namespaces `selection` shows, from the schema cache (discovery/view.ts). */
  view(selection: ProfileSelection): NamespaceView;
  /** True when the server has no usable listing under its current settings. */
  needsListing(spec: ServerSpec): boolean;
  /** Lists the server now (it records a failure rather than throwing). */
  list(spec: ServerSpec): Promise<unknown>;
}

/**
 * Resolves `namespace.tool` for a caller with `selection`, refusing what the
 * caller may not reach.
 *
 * The server's tool lists refuse a tool they hide by its name as asked
 * first, whatever the listing says or whether there is one; a tool named by
 * its identifier is checked again by the real name the listing resolves.
 * A server never listed (or whose failed listing is due again) is listed
 * first, as `mcpx call` does (the call would start it anyway), so a hidden
 * tool cannot slip through an empty cache; one with tool lists is listed
 * again after any failure. When it still has no listing, a server with no
 * tool lists gets the call as named (nothing is hidden, and the call reports
 * why the server does not start); one with tool lists is refused, since what
 * they hide cannot be told.
 * A server the configuration keeps from starting is returned as is: the
 * daemon refuses it (`server-unavailable`).
 *
 * @param source The daemon's configuration, cache and listing.
 * @param namespace A namespace identifier or a server name.
 * @param tool The tool's real name or its identifier.
 * @param selection The caller's profiles; absent: {@link DEFAULT_SELECTION}.
 * @returns The target.
 * @throws {UsageError} For a selection naming a profile no server has.
 * @throws {NotFoundError} For an unknown, disabled or unselected namespace, or
 *   a hidden, unusable or unknown tool: the message and suggestions of
 *   discovery/view.ts, suggestions among visible names only.
 */
export async function callTarget(
  source: TargetSource,
  namespace: string,
  tool: string,
  selection: ProfileSelection = DEFAULT_SELECTION,
): Promise<CallTarget> {
  checkSelection(source.servers, selection);
  let view = source.view(selection);
  let ns = findNamespace(view.namespaces, namespace, view.disabled);
  const spec = source.servers.find((s) => s.name === ns.server)!;
  // The filter itself refuses what it hides by the name as asked, before any listing is
  // consulted: a failed or missing listing must not be what keeps a hidden tool uncalled.
  const visible = visibility(spec.toolFilter);
  if (!visible(tool)) throw hiddenToolError(ns, tool);
  if (spec.unavailable) return { spec, namespace: ns.namespace, tool };
  const open = hidesNothing(spec.toolFilter);
  // A failed listing is tried again for a call only when names must be checked:
  // an open server's call starts it anyway, and says why it does not start.
  if (ns.tools.length === 0 && (source.needsListing(spec) || (ns.error !== undefined && !open))) {
    await source.list(spec);
    view = source.view(selection);
    ns = findNamespace(view.namespaces, namespace, view.disabled);
  }
  if (ns.tools.length === 0 && ns.error !== undefined && open) {
    return { spec, namespace: ns.namespace, tool };
  }
  const found = findTool(view.namespaces, `${ns.namespace}.${tool}`, view.disabled);
  // And by the real name the view resolved (`get_sum` may be `get-sum`).
  if (!visible(found.tool)) throw hiddenToolError(ns, tool);
  return {
    spec,
    namespace: found.namespace,
    tool: found.tool,
    ...(found.taskSupport ? { taskSupport: found.taskSupport } : {}),
    inputSchema: found.inputSchema,
  };
}

/** The filter's predicate over a tool's name; one that does not compile shows nothing. */
function visibility(filter: ToolFilter): (name: string) => boolean {
  try {
    return compileToolFilter(filter);
  } catch {
    return () => false;
  }
}

/** True when a filter shows every tool: no include list and no exclude pattern. */
function hidesNothing(filter: ToolFilter): boolean {
  return filter.include === undefined && (filter.exclude ?? []).length === 0;
}
