/**
 * The per-server keys of the other tool named mcpx (spec 002, "Config"), read
 * as their mcpx equivalents so a file written for that tool works unchanged:
 *
 * - `allowedTools` (globs): the include list, mcpx's `mcpx.tools`;
 * - `disabledTools` (globs): added to the exclude list, mcpx's
 *   `mcpx.excludeTools`, which beats every include ("the deny list wins");
 * - `lifecycle: { mode: "keep-alive", idleTimeoutMs }`: mcpx keeps every
 *   server in its daemon already, so this sets the server's idle timeout
 *   (`mcpx.idleTimeout`).
 *
 * Where an entry sets both a key of this dialect and its mcpx spelling to
 * different values, that is a problem naming both: silently preferring one
 * would leave the other edit doing nothing. Private to config/.
 *
 * Source: spec 002, "Config"; docs/decisions/0056-the-other-mcpx-dialect.md.
 *
 * @module
 */

import { parseDuration } from "./duration.ts";
import { describeValue } from "./_describe.ts";
import { formatPath, type JsonPath, type Problems } from "./_problems.ts";
import { isObject, type Obj, readPatterns } from "./_read.ts";
import type { ToolLists } from "./_tool_lists.ts";

/** The entry keys of spec 002 this module reads. */
export const SPEC_002_ENTRY_KEYS: readonly string[] = [
  "allowedTools",
  "disabledTools",
  "lifecycle",
];

/** The `lifecycle.mode` values accepted: mcpx's daemon keeps every server warm. */
const LIFECYCLE_MODES: readonly string[] = ["keep-alive"];

/**
 * Folds `allowedTools` and `disabledTools` into the tool lists of the
 * entry's `mcpx` block.
 *
 * @param entry The server entry.
 * @param at Its JSON path (`["mcpServers", name]`).
 * @param own The lists its `mcpx` block sets (config/_tool_lists.ts).
 * @param problems Where problems go: a list that is not an array of strings,
 *   or `allowedTools` beside a different `mcpx.tools`.
 * @returns The lists with `allowedTools` as `tools` and `disabledTools` added to `excludeTools`.
 * @example
 * ```ts
 * import { withSpec002ToolLists } from "./_spec002.ts";
 * import { Problems } from "./_problems.ts";
 * const lists = withSpec002ToolLists(
 *   { allowedTools: ["read_*"], disabledTools: ["read_secret"] },
 *   ["mcpServers", "fs"],
 *   {},
 *   new Problems(null),
 * );
 * if (lists.tools?.join() !== "read_*" || lists.excludeTools?.join() !== "read_secret") {
 *   throw new Error();
 * }
 * ```
 */
export function withSpec002ToolLists(
  entry: Obj,
  at: JsonPath,
  own: ToolLists,
  problems: Problems,
): ToolLists {
  const allowed = readPatterns(entry, "allowedTools", at, problems);
  const disabled = readPatterns(entry, "disabledTools", at, problems);
  const out: ToolLists = { ...own };
  if (allowed !== undefined) {
    if (own.tools !== undefined && !sameSet(own.tools, allowed)) {
      problems.add(
        [...at, "allowedTools"],
        `names ${describeValue(allowed)} but ${formatPath([...at, "mcpx", "tools"])} names ${
          describeValue(own.tools)
        }: both are the include list; keep one`,
      );
    }
    out.tools = own.tools ?? allowed;
  }
  if (disabled !== undefined) {
    out.excludeTools = [...new Set([...(own.excludeTools ?? []), ...disabled])];
  }
  return out;
}

/**
 * Reads `lifecycle: { mode: "keep-alive", idleTimeoutMs }` as the server's
 * idle timeout.
 *
 * @param entry The server entry.
 * @param at Its JSON path.
 * @param ownIdleMs `mcpx.idleTimeout` as parsed, if the `mcpx` block sets it.
 * @param problems Where problems go: a block that is not an object, an unknown key or
 *   mode, an `idleTimeoutMs` that is not a whole number of ms, or one that differs from
 *   `mcpx.idleTimeout`.
 * @returns The idle timeout in ms, or undefined when the entry sets none.
 * @example
 * ```ts
 * import { readLifecycle } from "./_spec002.ts";
 * import { Problems } from "./_problems.ts";
 * const ms = readLifecycle(
 *   { lifecycle: { mode: "keep-alive", idleTimeoutMs: 300000 } },
 *   ["mcpServers", "x"],
 *   undefined,
 *   new Problems(null),
 * );
 * if (ms !== 300000) throw new Error();
 * ```
 */
export function readLifecycle(
  entry: Obj,
  at: JsonPath,
  ownIdleMs: number | undefined,
  problems: Problems,
): number | undefined {
  if (entry.lifecycle === undefined) return undefined;
  const here: JsonPath = [...at, "lifecycle"];
  const block = entry.lifecycle;
  if (!isObject(block)) {
    problems.add(
      here,
      `must be an object, got ${describeValue(block)}; write ` +
        `{ "mode": "keep-alive", "idleTimeoutMs": 300000 }`,
    );
    return undefined;
  }
  for (const key of Object.keys(block)) {
    if (key === "mode" || key === "idleTimeoutMs") continue;
    problems.add(
      [...here, key],
      `unknown key, got ${describeValue(block[key])}; remove it (accepted: mode, idleTimeoutMs)`,
    );
  }
  if (block.mode !== undefined && !LIFECYCLE_MODES.includes(block.mode as string)) {
    problems.add(
      [...here, "mode"],
      `must be "keep-alive", got ${describeValue(block.mode)}; mcpx keeps every server in ` +
        `its daemon and stops it after "idleTimeoutMs" unused (mcpx.idleTimeout), so write ` +
        `"keep-alive" or remove the lifecycle block`,
    );
  }
  if (block.idleTimeoutMs === undefined) return undefined;
  const v = block.idleTimeoutMs;
  let ms: number;
  try {
    if (typeof v !== "number" || !Number.isSafeInteger(v)) throw new RangeError("not whole");
    ms = parseDuration(v);
  } catch {
    problems.add(
      [...here, "idleTimeoutMs"],
      `must be a whole number of milliseconds ≥ 0, got ${describeValue(v)}; write e.g. 300000 ` +
        `(five minutes)`,
    );
    return undefined;
  }
  if (ownIdleMs !== undefined && ownIdleMs !== ms) {
    problems.add(
      [...here, "idleTimeoutMs"],
      `is ${ms} ms but ${formatPath([...at, "mcpx", "idleTimeout"])} is ${ownIdleMs} ms: both ` +
        `set how long an unused server is kept; keep one`,
    );
  }
  return ms;
}

function sameSet(a: readonly string[], b: readonly string[]): boolean {
  const set = new Set(a);
  return set.size === new Set(b).size && b.every((x) => set.has(x));
}
