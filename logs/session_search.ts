/**
 * `mcpx session search <words>`: sessions found by name, servers used, tools
 * called, time and trace ids (issue 29; spec 000, "Named, pinned and
 * resumable sessions"), over what the log index already knows of each call
 * (`call.end` records: session or run, server, tool, time, span, instance,
 * `id.<key>` trace ids) and the named sessions' records.
 *
 * A session is a document: its name (the session key, or the run id), the
 * servers and tools of its calls, its first and last call, and whether it is
 * a named session. Each word scores against it (see {@link WEIGHTS}); a
 * session matches when every word scores, else, when no session matches
 * every word, when any does. Ranked by score, then by last use.
 *
 * @module
 */

import type { DatabaseSync } from "node:sqlite";

/** One session as search sees it. */
export interface SessionDoc {
  /** The session key (a named session's name) or the run id. */
  session: string;
  /** `named` (a record of `mcpx session new`), `session` (a key seen in calls), `run`. */
  kind: "named" | "session" | "run";
  /** Namespaces called under it, sorted. */
  servers: string[];
  /** `namespace.tool` called under it, sorted. */
  tools: string[];
  /** Calls recorded under it. */
  calls: number;
  /** ISO time of its first call (a named session's creation when earlier). */
  first?: string;
  /** ISO time of its last call (or last use). */
  last?: string;
  /** A named session's ttl, ms. */
  ttlMs?: number;
}

/** A session found, with why. */
export interface SessionHit extends SessionDoc {
  score: number;
  /** `word: field` for each word that scored, e.g. `"fs: server"`. */
  matched: string[];
}

/** What a word earns by where it is found: an exact name or trace id outranks a tool. */
export const WEIGHTS = {
  name: 10,
  nameSubstring: 5,
  traceId: 8,
  server: 4,
  tool: 3,
  time: 2,
} as const;

/** A named session's record as search reads it (engine/sessions.ts `NamedSession`). */
export interface NamedRecord {
  name: string;
  createdAt: string;
  lastUsedAt: string;
  ttlMs?: number;
}

/**
 * Every session the index has calls for (at or after `since`, epoch ms),
 * merged with the named records (a named session without calls is a
 * document too).
 */
export function sessionDocs(db: DatabaseSync, named: NamedRecord[], since = 0): SessionDoc[] {
  const rows = db.prepare(
    `SELECT coalesce(session, run) AS id, session IS NULL AS isRun, count(*) AS calls,
            min(ts) AS first, max(ts) AS last, group_concat(DISTINCT server) AS servers,
            group_concat(DISTINCT server || '.' || tool) AS tools
     FROM records WHERE event = 'call.end' AND ts >= ? AND coalesce(session, run) IS NOT NULL
     GROUP BY 1, 2`,
  ).all(since);
  const docs = new Map<string, SessionDoc>();
  for (const r of rows) {
    const list = (v: unknown) => String(v ?? "").split(",").filter(Boolean).sort();
    docs.set(String(r.id), {
      session: String(r.id),
      kind: r.isRun ? "run" : "session",
      servers: list(r.servers),
      tools: list(r.tools),
      calls: Number(r.calls),
      first: new Date(Number(r.first)).toISOString(),
      last: new Date(Number(r.last)).toISOString(),
    });
  }
  for (const n of named) {
    const doc = docs.get(n.name);
    const first = doc?.first && doc.first < n.createdAt ? doc.first : n.createdAt;
    const last = doc?.last && doc.last > n.lastUsedAt ? doc.last : n.lastUsedAt;
    docs.set(n.name, {
      session: n.name,
      kind: "named",
      servers: doc?.servers ?? [],
      tools: doc?.tools ?? [],
      calls: doc?.calls ?? 0,
      first,
      last,
      ...(n.ttlMs ? { ttlMs: n.ttlMs } : {}),
    });
  }
  return [...docs.values()];
}

/**
 * The sessions a trace id belongs to: a call's span (`cal-…`), its
 * instance's (`ins-…`), or a value of one of its `id.<key>` attributes
 * (`MCPX_TRACE_IDS`, logs/trace_ids.ts).
 */
export function sessionsOfTraceId(db: DatabaseSync, id: string): Set<string> {
  const rows = db.prepare(
    `SELECT DISTINCT coalesce(session, run) AS id FROM records
     WHERE event = 'call.end' AND coalesce(session, run) IS NOT NULL
       AND (span = ?1 OR attrs ->> 'instance' = ?1
            OR EXISTS (SELECT 1 FROM json_each(records.attrs) j
                       WHERE j.key LIKE 'id.%' AND j.value = ?1))`,
  ).all(id);
  return new Set(rows.map((r) => String(r.id)));
}

/**
 * The half-open time range `[start, end)` (epoch ms, UTC) a word names when it
 * is an ISO date or time prefix: `2026`, `2026-10`, `2026-10-01`,
 * `2026-10-01T14`, `2026-10-01T14:05`; undefined otherwise.
 *
 * @example
 * ```ts
 * import { timeRange } from "./session_search.ts";
 * const [a, b] = timeRange("2026-10-01")!;
 * if (b - a !== 86_400_000) throw new Error();
 * if (timeRange("browser") !== undefined) throw new Error();
 * ```
 */
export function timeRange(word: string): [number, number] | undefined {
  const m = /^(\d{4})(?:-(\d{2})(?:-(\d{2})(?:T(\d{2})(?::(\d{2}))?)?)?)?$/.exec(word);
  if (!m) return undefined;
  const [y, mo, d, h, mi] = m.slice(1).map((v) => v === undefined ? undefined : Number(v));
  const start = Date.UTC(y!, (mo ?? 1) - 1, d ?? 1, h ?? 0, mi ?? 0);
  if (Number.isNaN(start)) return undefined;
  const end = mi !== undefined
    ? start + 60_000
    : h !== undefined
    ? start + 3_600_000
    : d !== undefined
    ? start + 86_400_000
    : mo !== undefined
    ? Date.UTC(y!, mo, 1)
    : Date.UTC(y! + 1, 0, 1);
  return [start, end];
}

/**
 * Ranks `docs` against `words` (case-insensitive): every word must score,
 * unless no session scores on every word, then any may.
 *
 * @param traceHits The sessions each word names as a trace id ({@link sessionsOfTraceId}).
 * @returns Hits, best first (score, then last use); empty when no word scores anywhere.
 * @throws {TypeError} When `words` is empty.
 */
export function rankSessions(
  docs: SessionDoc[],
  words: string[],
  traceHits: Map<string, Set<string>> = new Map(),
): SessionHit[] {
  if (words.length === 0) throw new TypeError("rankSessions: no words");
  const scored = docs.map((doc) => {
    let score = 0;
    let words_ = 0;
    const matched: string[] = [];
    for (const word of words) {
      const w = word.toLowerCase();
      const found = scoreWord(doc, w, word, traceHits);
      if (found) {
        score += found.score;
        words_++;
        matched.push(`${word}: ${found.field}`);
      }
    }
    return { doc, score, words: words_, matched };
  }).filter((s) => s.score > 0);
  const all = scored.filter((s) => s.words === words.length);
  const kept = all.length > 0 ? all : scored;
  return kept
    .sort((a, b) => b.score - a.score || (b.doc.last ?? "").localeCompare(a.doc.last ?? ""))
    .map((s) => ({ ...s.doc, score: s.score, matched: s.matched }));
}

/** A tool name with `-` read as `_`, so the server's and mcpx's spellings compare equal. */
function foldToolName(name: string): string {
  return name.replaceAll("-", "_");
}

function scoreWord(
  doc: SessionDoc,
  w: string,
  word: string,
  traceHits: Map<string, Set<string>>,
): { score: number; field: string } | undefined {
  const name = doc.session.toLowerCase();
  if (name === w) return { score: WEIGHTS.name, field: "name" };
  if (traceHits.get(word)?.has(doc.session)) return { score: WEIGHTS.traceId, field: "trace id" };
  if (doc.servers.some((s) => s.toLowerCase() === w)) {
    return { score: WEIGHTS.server, field: "server" };
  }
  // A tool is recorded by its server's own name (`get-sum`) and shown by types and call as
  // mcpx spells it (`get_sum`): either spelling finds it.
  const spelt = foldToolName(w);
  const tool = doc.tools.find((t) => {
    const lower = foldToolName(t.toLowerCase());
    return lower === spelt || lower.endsWith(`.${spelt}`) || lower.includes(spelt);
  });
  if (tool) return { score: WEIGHTS.tool, field: `tool ${tool}` };
  if (name.includes(w)) return { score: WEIGHTS.nameSubstring, field: "name" };
  const range = timeRange(word);
  if (range && doc.first && doc.last) {
    const first = Date.parse(doc.first);
    const last = Date.parse(doc.last);
    if (first < range[1] && last >= range[0]) return { score: WEIGHTS.time, field: "time" };
  }
  return undefined;
}
