/**
 * Resolving `aliasOf` in `mcpServers`: which parsed server an alias exposes
 * again, or the problem that keeps it from doing so. Private to config/.
 *
 * Linear in the number of entries however many aliases there are: the list
 * of servers (entries that are not aliases) is made once per file, the server
 * at the end of each alias chain is found once per entry (remembered), a
 * message lists at most {@link LISTED_SERVERS} names, and "did you mean" is
 * looked for over all server names only for the first
 * {@link SUGGESTED_TARGETS} aliases that name no server.
 *
 * Source: spec 000, "Profiles and aliases".
 *
 * @module
 */

import type { ServerSpec } from "./types.ts";
import { describeValue } from "./_describe.ts";
import type { Problems } from "./_problems.ts";
import { didYouMean } from "./_suggest.ts";

/** The most server names a message lists. */
export const LISTED_SERVERS = 20;
/** Aliases naming no server that get a "did you mean" (each compares against every server). */
export const SUGGESTED_TARGETS = 20;

/** The server an entry is an alias of: its `aliasOf` value when it has one, else undefined. */
export function aliasTargetOf(entry: unknown): unknown {
  return entry !== null && typeof entry === "object" && !Array.isArray(entry)
    ? (entry as Record<string, unknown>).aliasOf
    : undefined;
}

/** Where an alias chain ends: a server entry's name, or nowhere (a cycle, a missing name, a non-string). */
type ChainEnd = string | null;

/** The aliases of one `mcpServers` object, resolved against its parsed servers. */
export class AliasResolver {
  readonly #entries: Record<string, unknown>;
  readonly #parsed: Map<string, ServerSpec | undefined>;
  readonly #problems: Problems;
  #servers?: string[];
  #firstTwo?: string[];
  /** Per entry name: where following `aliasOf` from it ends. */
  readonly #ends = new Map<string, ChainEnd>();
  #suggestionsLeft = SUGGESTED_TARGETS;
  /**
   * Work done so far, for tests that hold resolution linear: entries stepped through
   * along alias chains, plus names read to list the servers or to suggest one.
   */
  work = 0;

  /**
   * @param entries The `mcpServers` object.
   * @param parsed The parsed non-alias servers by name (undefined: it had problems).
   * @param problems Where problems go.
   */
  constructor(
    entries: Record<string, unknown>,
    parsed: Map<string, ServerSpec | undefined>,
    problems: Problems,
  ) {
    this.#entries = entries;
    this.#parsed = parsed;
    this.#problems = problems;
  }

  /**
   * The parsed server an alias names, or undefined with a problem recorded: the
   * name must be a string naming another entry, and that entry must not be an
   * alias itself (the error names the server its chain ends at). A target that
   * had problems of its own records nothing more here.
   *
   * @param name The alias's key under `mcpServers`.
   * @param wanted Its `aliasOf` value.
   */
  resolve(name: string, wanted: unknown): ServerSpec | undefined {
    const at = ["mcpServers", name, "aliasOf"];
    if (typeof wanted !== "string" || wanted === "") {
      this.#problems.add(
        at,
        `must be the name of another server under "mcpServers", got ${describeValue(wanted)}; ` +
          `write e.g. ${JSON.stringify(this.#anotherName(name) ?? "chrome-devtools")}`,
      );
      return undefined;
    }
    if (wanted === name) {
      this.#problems.add(
        at,
        `names this entry itself, got ${JSON.stringify(wanted)}; name another server`,
      );
      return undefined;
    }
    if (!Object.hasOwn(this.#entries, wanted)) {
      this.#problems.add(at, `names no server, got ${JSON.stringify(wanted)}${this.#hint(wanted)}`);
      return undefined;
    }
    const further = aliasTargetOf(this.#entries[wanted]);
    if (further !== undefined) {
      const original = this.#end(name);
      const fix = original !== null
        ? `write "aliasOf": ${JSON.stringify(original)}, the server it is an alias of`
        : `point it at a server that has "command" or "url"`;
      this.#problems.add(
        at,
        `names ${JSON.stringify(wanted)}, which is itself an alias (of ${
          describeValue(further)
        }), and an alias of an alias is not allowed; ${fix}`,
      );
      return undefined;
    }
    return this.#parsed.get(wanted);
  }

  /** The first entry name other than `name`. */
  #anotherName(name: string): string | undefined {
    this.#firstTwo ??= Object.keys(this.#entries).slice(0, 2);
    return this.#firstTwo.find((other) => other !== name);
  }

  /** "; did you mean …?" or the list of servers (at most {@link LISTED_SERVERS}). */
  #hint(wanted: string): string {
    if (!this.#servers) {
      const names = Object.keys(this.#entries);
      this.work += names.length;
      this.#servers = names.filter((n) => aliasTargetOf(this.#entries[n]) === undefined);
    }
    const servers = this.#servers;
    if (this.#suggestionsLeft > 0) {
      this.#suggestionsLeft--;
      this.work += servers.length;
      const suggestion = didYouMean(wanted, servers);
      if (suggestion) return suggestion;
    }
    if (servers.length === 0) return `; no entry has "command" or "url" yet: add a server first`;
    this.work += Math.min(servers.length, LISTED_SERVERS);
    const listed = servers.slice(0, LISTED_SERVERS).map((s) => `"${s}"`).join(", ");
    const more = servers.length > LISTED_SERVERS
      ? ` and ${servers.length - LISTED_SERVERS} more`
      : "";
    return `; the servers are ${listed}${more}`;
  }

  /**
   * Where following `aliasOf` from entry `start` ends: the name of an entry
   * that is not an alias, or null for a cycle, a name no entry has, or a value
   * that is not a name. Each entry's end is found once and remembered.
   */
  #end(start: string): ChainEnd {
    const path: string[] = [];
    const onPath = new Set<string>();
    let at: unknown = start;
    let end: ChainEnd;
    while (true) {
      this.work++;
      if (typeof at !== "string" || !Object.hasOwn(this.#entries, at) || onPath.has(at)) {
        end = null;
        break;
      }
      const known = this.#ends.get(at);
      if (known !== undefined) {
        end = known;
        break;
      }
      const next = aliasTargetOf(this.#entries[at]);
      if (next === undefined) {
        end = at;
        break;
      }
      path.push(at);
      onPath.add(at);
      at = next;
    }
    for (const name of path) this.#ends.set(name, end);
    return end;
  }
}
