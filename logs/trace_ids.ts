/**
 * Caller ids for the log: `MCPX_TRACE_IDS`, which a harness sets to say what
 * the agent cannot (this session, its parent, the worktree), as JSON pairs:
 * `[["session_id","abc"],["worktree","/p"]]`. An entry longer than a pair
 * names several ids for one key. Unknown keys are kept: the list exists to
 * grow. Every record a caller causes (in the daemon, and in a script run)
 * carries each pair as the attribute `id.<key>`.
 *
 * The ids mcpx itself establishes for a record ({@link establishedIds}: the
 * session a call was leased under, its parent session, the script run) win
 * over a pair of the same key, and so does every other attribute mcpx wrote:
 * a caller may add context, never rewrite which session a call was served in.
 *
 * Source: spec 000, "The harness knows what the agent does not"; spec 004
 * (`MCPX_TRACE_IDS`).
 *
 * @module
 */

/** The variable a harness sets. */
export const TRACE_IDS_VARIABLE = "MCPX_TRACE_IDS";

/** Ids by key; a key named with several values holds them all, in order. */
export type TraceIds = Record<string, string | string[]>;

/** A key is a word of letters, digits, `_`, `-` and `.`. */
const KEY = /^[A-Za-z0-9_.-]+$/;

/**
 * Reads `MCPX_TRACE_IDS`. Empty text is no ids. A key given twice collects
 * every value.
 *
 * @param text The variable's value.
 * @returns Ids by key.
 * @throws {SyntaxError} When the text is not JSON.
 * @throws {TypeError} When it is not a list of lists of strings, or an entry
 *   has no value or a key that is not a word; the message quotes the entry
 *   and gives the expected form.
 * @example
 * ```ts
 * import { parseTraceIds } from "./trace_ids.ts";
 * const ids = parseTraceIds('[["session_id","abc"],["ancestry","p1","p2"]]');
 * if (ids.session_id !== "abc" || ids.ancestry.length !== 2) throw new Error();
 * ```
 */
export function parseTraceIds(text: string): TraceIds {
  if (text.trim() === "") return {};
  const form =
    `a JSON list of [key, value, …] lists, e.g. [["session_id","abc"],["worktree","/p"]]`;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new SyntaxError(`is not JSON (${(error as Error).message}); write ${form}`);
  }
  if (!Array.isArray(value)) {
    throw new TypeError(`must be ${form}, got ${JSON.stringify(value).slice(0, 80)}`);
  }
  const ids: TraceIds = {};
  for (const entry of value) {
    const shown = JSON.stringify(entry)?.slice(0, 80);
    if (!Array.isArray(entry) || entry.length < 2 || entry.some((e) => typeof e !== "string")) {
      throw new TypeError(
        `entry ${shown} must be a list of a key and one or more strings; write ${form}`,
      );
    }
    const [key, ...values] = entry as string[];
    if (!KEY.test(key)) {
      throw new TypeError(
        `entry ${shown} has the key ${JSON.stringify(key)}; a key is a word of letters, digits, ` +
          `"_", "-" and "."`,
      );
    }
    const before = ids[key];
    const all = [...(before === undefined ? [] : [before].flat()), ...values];
    ids[key] = all.length === 1 ? all[0] : all;
  }
  return ids;
}

/**
 * The ids mcpx establishes for what a caller asked: the session the call is
 * leased under, its parent session, and the script run it belongs to.
 *
 * @param facts What the request or the run says.
 * @returns Ids by key (only those present).
 */
export function establishedIds(
  facts: { session?: string; parentSession?: string; run?: string },
): TraceIds {
  return {
    ...(facts.session ? { session: facts.session } : {}),
    ...(facts.parentSession ? { parent_session: facts.parentSession } : {}),
    ...(facts.run ? { run: facts.run } : {}),
  };
}

/**
 * The attributes ids add to a record: `id.<key>` for each, the established
 * ones winning over the caller's of the same key.
 *
 * @param caller The caller's ids (`MCPX_TRACE_IDS`).
 * @param established The ids mcpx set ({@link establishedIds}).
 * @returns e.g. `{ "id.session_id": "abc", "id.session": "s-1" }`.
 * @example
 * ```ts
 * import { idAttributes } from "./trace_ids.ts";
 * const a = idAttributes({ session: "forged", worktree: "/p" }, { session: "real" });
 * if (a["id.session"] !== "real" || a["id.worktree"] !== "/p") throw new Error();
 * ```
 */
export function idAttributes(
  caller: TraceIds,
  established: TraceIds = {},
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries({ ...caller, ...established })) {
    out[`id.${key}`] = value;
  }
  return out;
}

/**
 * A record's attributes with ids added under them: every attribute mcpx
 * wrote wins over an id attribute of the same name.
 *
 * @param attrs The record's own attributes.
 * @param ids From {@link idAttributes}.
 * @returns A new object: the ids first, then `attrs`.
 */
export function withIds(
  attrs: Record<string, unknown>,
  ids: Record<string, unknown> | undefined,
): Record<string, unknown> {
  return ids && Object.keys(ids).length ? { ...ids, ...attrs } : attrs;
}
