/**
 * The scope key as data and as text: {@link ScopeKey}, its format and parse,
 * and the questions asked of it. Pure (no git, no log), so the CLI can read a
 * key an answer carries without loading the daemon's key resolution
 * (engine/scope_key.ts).
 *
 * @module
 */

/**
 * What an instance is keyed by, as data (spec 000, "Sharing and scope"): one
 * live instance per distinct key. `call` keys are minted per call (the scope
 * `call`, or one that could not be resolved); `pid` keys stop when the
 * process exits. {@linkcode formatScopeKey} gives the text status rows, log
 * records, lease waits and errors show; {@linkcode parseScopeKey} reads it back.
 */
export type ScopeKey =
  | { readonly kind: "global" }
  | {
    readonly kind: "session" | "parent-session" | "cwd" | "repo" | "worktree";
    /** The session name, or an absolute path (`repo`: the common git dir). */
    readonly value: string;
  }
  | {
    readonly kind: "pid" | "call";
    /** The caller's pid, or the daemon's call counter. */
    readonly value: number;
  };

/**
 * The text of a key: `global`, else `<kind>:<value>` (`session:abc`,
 * `cwd:/work/x`, `pid:123`, `call:7`). Two keys are the same key exactly when
 * their texts are equal.
 *
 * @example
 * ```ts
 * import { formatScopeKey } from "./scope_key_format.ts";
 * formatScopeKey({ kind: "session", value: "abc" }); // "session:abc"
 * ```
 */
export function formatScopeKey(key: ScopeKey): string {
  return key.kind === "global" ? "global" : `${key.kind}:${key.value}`;
}

/**
 * Reads the text {@linkcode formatScopeKey} wrote (a status row's or a log
 * record's `key`). The kind ends at the first `:`, so a value may hold colons.
 *
 * @throws {SyntaxError} naming the text when its kind is unknown, its value is
 *   empty, or a `pid`/`call` value is not a positive integer.
 * @example
 * ```ts
 * import { parseScopeKey } from "./scope_key_format.ts";
 * parseScopeKey("cwd:/work/x"); // { kind: "cwd", value: "/work/x" }
 * ```
 */
export function parseScopeKey(text: string): ScopeKey {
  if (text === "global") return { kind: "global" };
  const colon = text.indexOf(":");
  const kind = colon < 0 ? text : text.slice(0, colon);
  const value = colon < 0 ? "" : text.slice(colon + 1);
  const problem = (why: string) =>
    new SyntaxError(`scope key ${JSON.stringify(text)}: ${why}; expected global or <kind>:<value>`);
  switch (kind) {
    case "session":
    case "parent-session":
    case "cwd":
    case "repo":
    case "worktree":
      if (!value) throw problem("no value");
      return { kind, value };
    case "pid":
    case "call": {
      const n = Number(value);
      if (!/^[1-9][0-9]*$/.test(value) || !Number.isSafeInteger(n)) {
        throw problem(`${kind} must be a positive integer`);
      }
      return { kind, value: n };
    }
    default:
      throw problem(`unknown kind ${JSON.stringify(kind)}`);
  }
}

/** The session a `session` or `parent-session` key belongs to, else undefined. */
export function sessionOf(key: ScopeKey): string | undefined {
  return key.kind === "session" || key.kind === "parent-session" ? key.value : undefined;
}

/** The keys of session `name`'s instances: `session:<name>` and `parent-session:<name>`. */
export function sessionKeys(name: string): ScopeKey[] {
  return [{ kind: "session", value: name }, { kind: "parent-session", value: name }];
}

/** Whether `key` is one of `keys` (by text: {@linkcode formatScopeKey}). */
export function scopeKeyIn(key: ScopeKey, keys: readonly ScopeKey[]): boolean {
  const text = formatScopeKey(key);
  return keys.some((k) => formatScopeKey(k) === text);
}
