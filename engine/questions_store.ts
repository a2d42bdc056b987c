/**
 * `questions.db`: the SQLite store of the questions servers ask (spec 000,
 * "When a server asks a question": "a question is state, not a blocked
 * call"). It sits beside the log index in the logs directory, and unlike the
 * index it is not rebuilt from anything: its rows are the record of every
 * elicitation and sampling request, who was asked to answer it and why, and
 * how it ended (decision 0040).
 *
 * Each row names the callers it belongs to (`owners`, decision 0059): the
 * session of the call that raised it, or, when the wire cannot say which call
 * that was, the sessions with calls in flight on the asking instance.
 *
 * A row is `open` until it is answered, declined or cancelled. A row read
 * after its deadline is marked `expired` by that read ({@link QuestionStore.get},
 * {@link QuestionStore.list}): there is no sweeper, so nothing reports a
 * question pending that is not.
 *
 * @module
 */

import type { DatabaseSync } from "node:sqlite";
import { isDamagedDatabase, openPrivateDatabaseOrSetAside } from "../core/private_sqlite.ts";
import type { MovedAside } from "../core/damaged_json.ts";
import { join } from "../core/posix_path.ts";

/** What a question asks for: elicitation (MCP `elicitation/create`) or sampling (`sampling/createMessage`). */
export type QuestionKind = "elicitation" | "sampling";

/** Where a question is in its life. `expired`: its deadline passed before an answer (the server heard `cancel`). */
export type QuestionState = "open" | "answered" | "declined" | "cancelled" | "expired";

/** Who is asked to answer (decision 0040): the agent that made the call, or a person at a terminal. */
export type QuestionRoute = "agent" | "person";

/** One stored question. Times are ms since the epoch. */
export interface QuestionRow {
  /** `elc-` and 8 hex digits. */
  id: string;
  kind: QuestionKind;
  /** The configuration's fingerprint of the daemon that holds the server's request. */
  daemon: string;
  server: string;
  namespace: string;
  /** The tool call that was running when the server asked, `namespace.tool`, when known. */
  call?: string;
  /**
   * Whose question it is (decision 0059): the caller keys (engine/question_owner.ts `ownerKey`)
   * that see and answer it without naming another session. One key when it is
   * tied to its call; the keys of every call in flight on the instance when
   * the wire could not say which call asked; none when no call waited for it.
   */
  owners: string[];
  /** `form` or `url` for elicitation; absent for sampling. */
  mode?: "form" | "url";
  /** The text the server showed: elicitation's `message`, sampling's last text message. */
  message: string;
  /** The request's params as the server sent them (`requestedSchema`, `url`, `messages`, …). */
  request: Record<string, unknown>;
  route: QuestionRoute;
  /** Why that route: a sentence, logged with it. */
  reason: string;
  created: number;
  deadline: number;
  state: QuestionState;
  /** What was sent to the server: the elicitation content, or the sampling result. */
  answer?: Record<string, unknown>;
  /** When it left `open`. */
  settled?: number;
}

const DDL = [
  `CREATE TABLE IF NOT EXISTS questions (
  id TEXT PRIMARY KEY,
  kind TEXT NOT NULL,
  daemon TEXT NOT NULL,
  server TEXT NOT NULL,
  namespace TEXT NOT NULL,
  call TEXT,
  mode TEXT,
  message TEXT NOT NULL,
  request TEXT NOT NULL,
  route TEXT NOT NULL,
  reason TEXT NOT NULL,
  created INTEGER NOT NULL,
  deadline INTEGER NOT NULL,
  state TEXT NOT NULL,
  answer TEXT,
  settled INTEGER,
  owners TEXT NOT NULL DEFAULT '[]'
)`,
];

/** Created once the table is known to be the store's (its columns checked). */
const INDEX = "CREATE INDEX IF NOT EXISTS questions_open ON questions (daemon, state)";

/** Every column the store reads and writes: a `questions` table lacking one is not the store's. */
export const QUESTION_COLUMNS = [
  "id",
  "kind",
  "daemon",
  "server",
  "namespace",
  "call",
  "mode",
  "message",
  "request",
  "route",
  "reason",
  "created",
  "deadline",
  "state",
  "answer",
  "settled",
  "owners",
];

/** A store written before decision 0059 has no `owners`: its rows belong to nobody. */
const OWNERS_COLUMN = "ALTER TABLE questions ADD COLUMN owners TEXT NOT NULL DEFAULT '[]'";

/** The store's file in a logs directory. */
export function questionsPath(logsDir: string): string {
  return join(logsDir, "questions.db");
}

/** A new question id: `elc-` and 8 lower-case hex digits. */
export function newQuestionId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(4));
  return `elc-${Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("")}`;
}

/**
 * Opens (creating) the store's file, moving a damaged one aside (the one rule:
 * core/private_sqlite.ts `openPrivateDatabaseOrSetAside`, decision 0019).
 */
function openStore(path: string): { db: DatabaseSync; movedAside?: MovedAside } {
  const opened = openPrivateDatabaseOrSetAside(
    path,
    5_000,
    (db) => {
      for (const sql of DDL) db.prepare(sql).run();
      const columns = db.prepare("PRAGMA table_info(questions)").all() as { name: string }[];
      if (!columns.some((c) => c.name === "owners")) db.prepare(OWNERS_COLUMN).run();
    },
    {
      what: "the questions store",
      lost: "the questions it held are lost; a call waiting on one of them asks again " +
        "when it is made again",
    },
    { check: true, columns: { questions: QUESTION_COLUMNS } },
  );
  opened.db.prepare(INDEX).run();
  return opened;
}

/** The store. Every method is synchronous (node:sqlite); close it with `close()` or `using`. */
export class QuestionStore implements Disposable {
  #db: DatabaseSync;
  readonly #path: string;
  /** Set when the file was damaged: moved aside and started again empty (decision 0019). */
  readonly movedAside?: MovedAside;

  /**
   * Opens (creating) the store at `path`. A file SQLite finds damaged, or
   * whose `questions` table lacks the store's columns (another program's
   * file), is moved aside as `questions.db.damaged-<time>` with a warning, and
   * a new empty store takes its place (core/private_sqlite.ts
   * `openPrivateDatabaseOrSetAside`).
   * @throws What node:sqlite throws for a file it cannot open for another reason.
   */
  constructor(path: string) {
    this.#path = path;
    const { db, movedAside } = openStore(path);
    this.#db = db;
    if (movedAside) this.movedAside = movedAside;
  }

  /**
   * Runs `statement` on the store; when SQLite finds the file damaged while it
   * is open (overwritten under the daemon), the file is moved aside as at
   * open (a warning says so), a new empty store takes its place, and the
   * statement runs once on it. Only the store's own statement runs again:
   * nothing of a server's.
   */
  #sql<T>(statement: (db: DatabaseSync) => T): T {
    try {
      return statement(this.#db);
    } catch (error) {
      if (!isDamagedDatabase(error)) throw error;
      try {
        this.#db.close();
      } catch { /* already unusable */ }
      this.#db = openStore(this.#path).db;
      return statement(this.#db);
    }
  }

  /** Stores a new question. */
  add(row: QuestionRow): void {
    this.#sql((db) =>
      db.prepare(
        `INSERT INTO questions (id, kind, daemon, server, namespace, call, mode, message, request,
        route, reason, created, deadline, state, answer, settled, owners)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ).run(
        row.id,
        row.kind,
        row.daemon,
        row.server,
        row.namespace,
        row.call ?? null,
        row.mode ?? null,
        row.message,
        JSON.stringify(row.request),
        row.route,
        row.reason,
        row.created,
        row.deadline,
        row.state,
        row.answer ? JSON.stringify(row.answer) : null,
        row.settled ?? null,
        JSON.stringify(row.owners),
      )
    );
  }

  /**
   * The question `id`, marked `expired` first when it is open and past its
   * deadline at `now` (ms).
   */
  get(id: string, now = Date.now()): QuestionRow | undefined {
    this.#expire(now, id);
    const row = this.#sql((db) => db.prepare("SELECT * FROM questions WHERE id = ?").get(id));
    return row ? rowOf(row as Record<string, unknown>) : undefined;
  }

  /**
   * The questions of `daemon` (undefined: of every daemon), newest first: the open ones, and with `all`
   * the settled ones too (at most `limit`). Open questions past their
   * deadline are marked `expired` first.
   *
   * @param options.owner Only the questions of this caller key (engine/question_owner.ts `ownerKey`); absent:
   *   every caller's (what `--any-session` asks for).
   */
  list(
    daemon: string | undefined,
    options: { all?: boolean; limit?: number; now?: number; owner?: string } = {},
  ): QuestionRow[] {
    this.#expire(options.now ?? Date.now());
    const owner = options.owner ?? null;
    const rows = this.#sql((db) =>
      db.prepare(
        `SELECT * FROM questions WHERE (daemon = ? OR ? IS NULL)
       AND (? IS NULL OR EXISTS (SELECT 1 FROM json_each(questions.owners) WHERE value = ?))
       ${options.all ? "" : "AND state = 'open'"} ORDER BY created DESC LIMIT ?`,
      ).all(daemon ?? null, daemon ?? null, owner, owner, options.limit ?? 100)
    );
    return rows.map((r) => rowOf(r as Record<string, unknown>));
  }

  /**
   * Moves an open question to `state` with what the server was sent.
   * @returns False when it was not open (already settled, or unknown).
   */
  settle(
    id: string,
    state: Exclude<QuestionState, "open">,
    answer?: Record<string, unknown>,
    now = Date.now(),
  ): boolean {
    const changed = this.#sql((db) =>
      db.prepare(
        "UPDATE questions SET state = ?, answer = ?, settled = ? WHERE id = ? AND state = 'open'",
      ).run(state, answer ? JSON.stringify(answer) : null, now, id)
    );
    return Number(changed.changes) > 0;
  }

  /**
   * Names the call open question `id` was asked in, when that is learnt after
   * it was stored (engine/questions.ts; decision 0075).
   */
  attribute(id: string, call: string): void {
    this.#sql((db) =>
      db.prepare("UPDATE questions SET call = ? WHERE id = ? AND state = 'open'").run(call, id)
    );
  }

  /** Marks open questions past their deadline `expired` (one, or all). */
  #expire(now: number, id?: string): void {
    this.#sql((db) =>
      db.prepare(
        `UPDATE questions SET state = 'expired', settled = deadline
       WHERE state = 'open' AND deadline <= ? ${id !== undefined ? "AND id = ?" : ""}`,
      ).run(...(id !== undefined ? [now, id] : [now]))
    );
  }

  close(): void {
    if (this.#db.isOpen) this.#db.close();
  }

  [Symbol.dispose](): void {
    this.close();
  }
}

function rowOf(r: Record<string, unknown>): QuestionRow {
  return {
    id: String(r.id),
    kind: r.kind as QuestionKind,
    daemon: String(r.daemon),
    server: String(r.server),
    namespace: String(r.namespace),
    ...(r.call != null ? { call: String(r.call) } : {}),
    owners: ownersOf(r.owners),
    ...(r.mode != null ? { mode: r.mode as "form" | "url" } : {}),
    message: String(r.message),
    request: JSON.parse(String(r.request)),
    route: r.route as QuestionRoute,
    reason: String(r.reason),
    created: Number(r.created),
    deadline: Number(r.deadline),
    state: r.state as QuestionState,
    ...(r.answer != null ? { answer: JSON.parse(String(r.answer)) } : {}),
    ...(r.settled != null ? { settled: Number(r.settled) } : {}),
  };
}

function ownersOf(text: unknown): string[] {
  try {
    const value = JSON.parse(String(text ?? "[]"));
    return Array.isArray(value) ? value.filter((v) => typeof v === "string") : [];
  } catch {
    return [];
  }
}
