/**
 * The three tool lists (`tools`, `extraIncludeTools`, `excludeTools`) of a
 * server's `mcpx` block and of the top-level `pool` block, and how the two
 * levels combine into one {@link ToolFilter}. Private to config/.
 *
 * - `tools` is the include list: a server's own replaces the pool block's.
 * - `extraIncludeTools` adds to whichever include list applies, so a server can
 *   widen an inherited list without restating it; the pool block's and the
 *   server's both add.
 * - `excludeTools` from both levels all apply, and beat every include: hiding a
 *   tool is a safety measure, and one the pool block sets must not vanish
 *   because a server hides one more tool (docs/decisions/0011-config-hardening.md).
 *
 * Source: spec 000, "Configuration" (the three lists take exact names, globs
 * or /regexps/; a top-level pool block applies any of them to every server).
 *
 * @module
 */

import type { ToolFilter } from "./types.ts";
import type { JsonPath, Problems } from "./_problems.ts";
import { type Obj, readPatterns } from "./_read.ts";

/** The tool-list keys, in documentation order. */
export const TOOL_LIST_KEYS: readonly string[] = ["tools", "extraIncludeTools", "excludeTools"];

/** The tool lists one block sets; an absent key is undefined. */
export interface ToolLists {
  tools?: string[];
  extraIncludeTools?: string[];
  excludeTools?: string[];
}

/**
 * Reads the tool lists present in a block, recording a problem for a list that
 * is not an array of strings, an empty pattern or a `/regex/` that does not compile.
 *
 * @param block An `mcpx` or `pool` object.
 * @param at Its JSON path.
 * @param problems Where problems go.
 * @returns The valid lists that were present.
 */
export function readToolLists(block: Obj, at: JsonPath, problems: Problems): ToolLists {
  const out: ToolLists = {};
  for (const key of TOOL_LIST_KEYS as (keyof ToolLists)[]) {
    const list = readPatterns(block, key, at, problems);
    if (list !== undefined) out[key] = list;
  }
  return out;
}

/**
 * One server's filter from the pool block's lists and its own.
 *
 * @param pool The top-level `pool` block's lists (absent: none).
 * @param own The server's `mcpx` block's lists.
 * @returns The filter, and `unused: true` when `extraIncludeTools` is set but
 *   no include list applies (every tool is shown already, so it does nothing).
 * @example
 * ```ts
 * import { combineToolLists } from "./_tool_lists.ts";
 * const { filter } = combineToolLists(
 *   { tools: ["read_*"], excludeTools: ["read_secret"] },
 *   { extraIncludeTools: ["list_*"] },
 * );
 * if (filter.include?.join() !== "read_*,list_*") throw new Error();
 * ```
 */
export function combineToolLists(
  pool: ToolLists | undefined,
  own: ToolLists,
): { filter: ToolFilter; unused: boolean } {
  const extra = unique([...(pool?.extraIncludeTools ?? []), ...(own.extraIncludeTools ?? [])]);
  const exclude = unique([...(pool?.excludeTools ?? []), ...(own.excludeTools ?? [])]);
  const base = own.tools ?? pool?.tools;
  const ownPatterns = new Set(Object.values(own).flat());
  const pooled = unique([
    ...(own.tools === undefined ? pool?.tools ?? [] : []),
    ...(pool?.extraIncludeTools ?? []),
    ...(pool?.excludeTools ?? []),
  ]).filter((p) => !ownPatterns.has(p));
  const marked = pooled.length ? { pooled } : {};
  if (base === undefined) return { filter: { exclude, ...marked }, unused: extra.length > 0 };
  return { filter: { include: unique([...base, ...extra]), exclude, ...marked }, unused: false };
}

function unique(list: string[]): string[] {
  return [...new Set(list)];
}
