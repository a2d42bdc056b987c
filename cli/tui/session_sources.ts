/**
 * The sessions view's seam (spec 000, "Six views": sessions is what mcpx saw
 * merged with what opencode recorded). Each source answers the sessions it
 * knows, keyed by the session's id; the view merges them into one row per
 * session, so a second source (opencode's, which a later issue adds) adds
 * columns to the rows mcpx already shows, and a machine without it still
 * gets mcpx's half rather than an error: a source that fails costs only its
 * own columns and a note.
 *
 * @module
 */

import type { Row } from "./grid.ts";

/** One session as one source knows it: `session` is the key rows are merged on. */
export interface SessionEntry extends Row {
  session: string;
}

/** Something that knows sessions: mcpx's daemon and log today; opencode's records later. */
export interface SessionSource {
  /** Its name, in the `sources` column and in the note when it fails (`mcpx`, `opencode`). */
  name: string;
  /** The sessions it knows, newest first where it can tell. */
  sessions(signal: AbortSignal): Promise<SessionEntry[]>;
}

/** The merged rows, and what failed. */
export interface MergedSessions {
  rows: Row[];
  /** One sentence per source that failed: `opencode: <why>`. */
  problems: string[];
}

/**
 * Asks every source, then merges their entries by session id: the first
 * source's fields first, a later source's added beside them (a field both
 * have keeps the first's value), and a `sources` column naming who knew it.
 * Rows keep the order the first source to know each session gave.
 *
 * @example
 * ```ts
 * import { mergeSessions } from "./session_sources.ts";
 * const merged = await mergeSessions([
 *   { name: "mcpx", sessions: () => Promise.resolve([{ session: "s1", calls: 3 }]) },
 *   { name: "opencode", sessions: () => Promise.resolve([{ session: "s1", cost: 0.2 }]) },
 * ], new AbortController().signal);
 * if (merged.rows[0].cost !== 0.2 || merged.rows[0].sources !== "mcpx,opencode") throw new Error();
 * ```
 */
export async function mergeSessions(
  sources: readonly SessionSource[],
  signal: AbortSignal,
): Promise<MergedSessions> {
  const answers = await Promise.allSettled(sources.map((s) => s.sessions(signal)));
  const rows = new Map<string, Row>();
  const problems: string[] = [];
  answers.forEach((answer, i) => {
    const name = sources[i].name;
    if (answer.status === "rejected") {
      problems.push(`${name}: ${(answer.reason as Error)?.message ?? String(answer.reason)}`);
      return;
    }
    for (const entry of answer.value) {
      const row = rows.get(entry.session);
      if (!row) {
        rows.set(entry.session, { ...entry, sources: name });
        continue;
      }
      for (const [key, value] of Object.entries(entry)) {
        if (!(key in row)) row[key] = value;
      }
      row.sources = `${row.sources},${name}`;
    }
  });
  return { rows: [...rows.values()], problems };
}
