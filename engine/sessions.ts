/**
 * Named sessions: lease keys with a name, made by `mcpx session new`, that
 * outlive the process that made them (spec 000, "Named, pinned and resumable
 * sessions"). A named session is only a record; its key is the session key
 * itself, so `--session <name>` on any command rejoins it and instances are
 * keyed `session:<name>` (or `parent-session:<name>`) as for any session.
 *
 * Records live in `<stateDir>/sessions/<fingerprint>.json`, one file per
 * daemon, written only by that daemon (core/private_fs.ts: a temporary file,
 * fsync, rename), so they survive a daemon restart. A daemon whose file does
 * not exist yet (an edited configuration) takes the newest sibling file made
 * for the same configuration path.
 *
 * A damaged file never costs more than what is damaged (issue 9): a file cut
 * short keeps the sessions before the cut, an entry of the wrong shape is
 * skipped, and each problem is a warning naming the file (the daemon's log,
 * and the next command's stderr through engine/notices.ts). Before the daemon
 * writes a damaged file over, it keeps the original beside it as
 * `<file>.damaged-<time>` (core/damaged_json.ts, decision 0019).
 *
 * @module
 */

import { join } from "../core/posix_path.ts";
import { log } from "./log.ts";
import { postNotice } from "./notices.ts";
import { keepDamagedCopy, parseSalvaging } from "../core/damaged_json.ts";
import { ensurePrivateDir, writePrivateFile } from "../core/private_fs.ts";
import { McpxError, StorageError, storageErrorOf } from "../core/errors.ts";
import type { Attacher } from "./session_attach.ts";

/** One named session, as stored and as `sessionList` returns it. */
export interface NamedSession {
  name: string;
  /** ISO time the session was made. */
  createdAt: string;
  /** ISO time of the last call under this session (its creation until then). */
  lastUsedAt: string;
  /** End the session after this long without a call, in ms; absent: never. */
  ttlMs?: number;
  /**
   * Namespaces that had an instance for this session at some point: after a
   * daemon restart a new instance of one of these is a rebuild, and is logged
   * as one (`session.rebuild`).
   */
  namespaces: string[];
  /** Who made it, for `sessions.attach` `owner-only` (engine/session_attach.ts). */
  owner?: Attacher;
}

/** The file's shape. */
export interface SessionsFile {
  configPath: string | null;
  sessions: NamedSession[];
}

/** Names a session may take: what is safe in a shell word, a log attribute and a file. */
export const SESSION_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/** Why `name` is not a valid session name (see {@linkcode SESSION_NAME}). */
export function sessionNameProblem(name: string): string {
  return `session name ${
    JSON.stringify(name)
  } must be 1-64 letters, digits, '.', '_' or '-', starting with a letter or digit`;
}

/** `<stateDir>/sessions/<fingerprint>.json`. */
export function sessionsPath(stateDir: string, fingerprint: string): string {
  return join(stateDir, "sessions", `${fingerprint}.json`);
}

/** What {@link readSessionsFile} found in a file. */
export interface SessionsRead extends SessionsFile {
  /** One sentence per thing left out (an entry skipped, a damaged tail), each naming the file. */
  problems: string[];
  /** The file's bytes when it was damaged: kept beside it before it is written over. */
  damaged?: Uint8Array;
}

/**
 * Reads a sessions file; an absent or unreadable file is no sessions, and a
 * damaged one the sessions that can be read ({@link readSessionsFile}).
 *
 * @example
 * ```ts
 * import { readSessions } from "./sessions.ts";
 * if (readSessions("/nonexistent/x.json").length !== 0) throw new Error();
 * ```
 */
export function readSessions(path: string): NamedSession[] {
  return readSessionsFile(path)?.sessions ?? [];
}

/**
 * Reads a sessions file, keeping every session that can be read: a file cut
 * short keeps the entries before the cut (core/damaged_json.ts), and an entry
 * that is not a session ({@link sessionEntry}), or repeats a name, is skipped.
 *
 * @param path A file {@link sessionsPath} names.
 * @returns The sessions and what was left out, or undefined when the file is
 *   absent or cannot be read.
 */
export function readSessionsFile(path: string): SessionsRead | undefined {
  let bytes: Uint8Array;
  try {
    bytes = Deno.readFileSync(path);
  } catch {
    return undefined;
  }
  const { value, damaged } = parseSalvaging(new TextDecoder().decode(bytes));
  const problems: string[] = [];
  const where = `sessions file ${path}`;
  const file = value !== null && typeof value === "object" && !Array.isArray(value)
    ? value as Record<string, unknown>
    : {};
  const entries = Array.isArray(file.sessions) ? file.sessions : [];
  const sessions: NamedSession[] = [];
  const names = new Set<string>();
  entries.forEach((entry, i) => {
    const session = sessionEntry(entry);
    if (typeof session === "string") {
      problems.push(`${where}: skipped entry ${i + 1}: ${session}`);
    } else if (names.has(session.name)) {
      problems.push(`${where}: skipped entry ${i + 1}: session "${session.name}" is named twice`);
    } else {
      names.add(session.name);
      sessions.push(session);
    }
  });
  if (damaged) {
    problems.unshift(
      `${where} is damaged (${
        value === undefined ? "nothing in it is readable JSON" : "it is not whole JSON"
      }); kept the ${sessions.length} session${
        sessions.length === 1 ? "" : "s"
      } that could be read`,
    );
  } else if (!Array.isArray(file.sessions)) {
    problems.unshift(`${where} has no "sessions" list; read it as no sessions`);
  }
  return {
    configPath: typeof file.configPath === "string" ? file.configPath : null,
    sessions,
    problems,
    ...(problems.length ? { damaged: bytes } : {}),
  };
}

/**
 * One entry of a sessions file as a session, or why it is not one: an
 * object with a valid `name` ({@link SESSION_NAME}; a number is not a name),
 * `createdAt` and `lastUsedAt` as ISO times, `ttlMs` absent or a positive
 * number, `namespaces` absent or a list of strings.
 *
 * @returns The session (only the fields above), or a sentence saying what is wrong.
 * @example
 * ```ts
 * import { sessionEntry } from "./sessions.ts";
 * if (typeof sessionEntry(null) !== "string") throw new Error();
 * if (typeof sessionEntry({ name: 123, createdAt: "", lastUsedAt: "" }) !== "string") throw new Error();
 * ```
 */
export function sessionEntry(entry: unknown): NamedSession | string {
  if (entry === null || typeof entry !== "object" || Array.isArray(entry)) {
    return `${JSON.stringify(entry) ?? String(entry)} is not a session record`;
  }
  const e = entry as Record<string, unknown>;
  if (typeof e.name !== "string") {
    return `"name" must be a string, got ${JSON.stringify(e.name) ?? "nothing"}`;
  }
  if (!SESSION_NAME.test(e.name)) return sessionNameProblem(e.name);
  for (const key of ["createdAt", "lastUsedAt"] as const) {
    if (typeof e[key] !== "string" || Number.isNaN(Date.parse(e[key] as string))) {
      return `session "${e.name}": "${key}" must be an ISO time, got ${
        JSON.stringify(e[key]) ?? "nothing"
      }`;
    }
  }
  if (
    e.ttlMs !== undefined &&
    !(typeof e.ttlMs === "number" && Number.isFinite(e.ttlMs) && e.ttlMs > 0)
  ) {
    return `session "${e.name}": "ttlMs" must be a positive number of ms, got ${
      JSON.stringify(e.ttlMs)
    }`;
  }
  const namespaces = e.namespaces ?? [];
  if (!Array.isArray(namespaces) || namespaces.some((n) => typeof n !== "string")) {
    return `session "${e.name}": "namespaces" must be a list of names, got ${
      JSON.stringify(e.namespaces)
    }`;
  }
  return {
    name: e.name,
    createdAt: e.createdAt as string,
    lastUsedAt: e.lastUsedAt as string,
    ...(e.ttlMs !== undefined ? { ttlMs: e.ttlMs as number } : {}),
    namespaces: [...namespaces] as string[],
    ...(ownerEntry(e.owner) ? { owner: ownerEntry(e.owner) } : {}),
  };
}

/** A record's `owner`, kept only when it is an object of the known fields' types. */
function ownerEntry(value: unknown): Attacher | undefined {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return undefined;
  const o = value as Record<string, unknown>;
  const owner: Attacher = {
    ...(typeof o.pid === "number" ? { pid: o.pid } : {}),
    ...(typeof o.user === "string" ? { user: o.user } : {}),
    ...(typeof o.parentSession === "string" ? { parentSession: o.parentSession } : {}),
    ...(typeof o.run === "string" ? { run: o.run } : {}),
  };
  return Object.keys(owner).length ? owner : undefined;
}

/** A fresh short name: 8 lowercase base-32 characters (40 random bits). */
export function freshSessionName(): string {
  const alphabet = "abcdefghijklmnopqrstuvwxyz234567";
  const bytes = crypto.getRandomValues(new Uint8Array(8));
  return [...bytes].map((b) => alphabet[b & 31]).join("");
}

/**
 * The named sessions of one daemon, kept in memory and written through to
 * its file. Writes are serialized and atomic; `lastUsedAt` alone is written
 * at most every {@linkcode TOUCH_WRITE_MS} (a call under a session must not
 * cost a file write).
 */
export class SessionStore {
  readonly path: string;
  #configPath: string | null;
  #sessions = new Map<string, NamedSession>();
  #write: Promise<void> = Promise.resolve();
  #touchTimer?: ReturnType<typeof setTimeout>;
  #now: () => number;
  /** The damaged file's bytes, until a copy of them is kept beside it. */
  #damaged?: Uint8Array;
  /** What reading the file left out, one sentence each naming the file (empty: nothing). */
  readonly problems: readonly string[];

  /**
   * Reads the file (or adopts a sibling's records). Each problem found is
   * logged as `state.damaged` and queued for the next command (engine/notices.ts);
   * a damaged file is written again, clean, after a copy of it is kept.
   *
   * @param path This daemon's file ({@linkcode sessionsPath}).
   * @param configPath The configuration the daemon serves, to adopt a sibling's records.
   * @param now The clock (tests).
   */
  constructor(path: string, configPath: string | null, now: () => number = Date.now) {
    this.path = path;
    this.#configPath = configPath;
    this.#now = now;
    const own = readSessionsFile(path);
    for (const s of (own ?? this.#sibling())?.sessions ?? []) this.#sessions.set(s.name, s);
    const problems = [...own?.problems ?? []];
    if (own?.damaged) {
      // Kept before the file is written over; when that fails, the write waits for it.
      try {
        problems.push(
          `the damaged original is kept as ${keepDamagedCopy(path, own.damaged, now())}`,
        );
      } catch (error) {
        this.#damaged = own.damaged;
        problems.push(
          `${path} is left as it is until a copy of it can be kept (${
            error instanceof Error ? error.message : String(error)
          })`,
        );
      }
    }
    this.problems = problems;
    for (const problem of problems) {
      log("warn", "state.damaged", "{problem}", { problem, path });
      postNotice({ code: "state-damaged", message: problem });
    }
    if ((!own && this.#sessions.size) || own?.damaged) this.#persistLogged();
  }

  /** Every named session, oldest first. */
  list(): NamedSession[] {
    return [...this.#sessions.values()];
  }

  /** The session called `name`, if there is one. */
  get(name: string): NamedSession | undefined {
    return this.#sessions.get(name);
  }

  /**
   * Records a new named session and waits until its file holds it; when the
   * file cannot be written the session is not made.
   *
   * @throws {RangeError} when `name` is taken or not a valid name.
   * @throws {StorageError} naming the file and the fix when the disk is full
   *   (or the file system refuses otherwise); {UnsafeDirectoryError} when its
   *   directory is not the user's alone; {McpxError} `state-write` for any
   *   other write failure. No temporary file is left behind either way.
   */
  async create(name: string, ttlMs?: number, owner?: Attacher): Promise<NamedSession> {
    if (!SESSION_NAME.test(name)) throw new RangeError(sessionNameProblem(name));
    if (this.#sessions.has(name)) {
      throw new RangeError(
        `session "${name}" already exists; rejoin it with --session ${name}, or end it first with \`mcpx session end ${name}\``,
      );
    }
    const at = new Date(this.#now()).toISOString();
    const session: NamedSession = {
      name,
      createdAt: at,
      lastUsedAt: at,
      ...(ttlMs ? { ttlMs } : {}),
      namespaces: [],
      ...(owner ? { owner } : {}),
    };
    this.#sessions.set(name, session);
    try {
      await this.#persist();
    } catch (error) {
      if (this.#sessions.get(name) === session) this.#sessions.delete(name);
      const doing = `the named session "${name}" was not made`;
      const storage = storageErrorOf(error, this.path);
      if (storage) throw new StorageError(storage.path, storage.problem, { cause: error, doing });
      // Already said as the user's to fix (`unsafe-directory`, core/private_fs.ts).
      if (error instanceof McpxError) throw error;
      throw new McpxError(
        "state-write",
        `cannot write ${this.path} (${doing}): ${
          error instanceof Error ? error.message : String(error)
        }; check that directory, then run the command again`,
        { cause: error },
      );
    }
    return session;
  }

  /** Deletes a record. @returns Whether there was one. */
  delete(name: string): boolean {
    const had = this.#sessions.delete(name);
    if (had) this.#persistLogged();
    return had;
  }

  /** Marks a session used now (a call under its key). */
  touch(name: string): void {
    const session = this.#sessions.get(name);
    if (!session) return;
    session.lastUsedAt = new Date(this.#now()).toISOString();
    this.#touchTimer ??= setTimeout(() => {
      this.#touchTimer = undefined;
      this.#persistLogged();
    }, TOUCH_WRITE_MS);
    Deno.unrefTimer(this.#touchTimer);
  }

  /**
   * Notes that `namespace` got an instance for session `name`.
   * @returns True when the session had one there before (so this is a rebuild).
   */
  served(name: string, namespace: string): boolean {
    const session = this.#sessions.get(name);
    if (!session) return false;
    if (session.namespaces.includes(namespace)) return true;
    session.namespaces.push(namespace);
    this.#persistLogged();
    return false;
  }

  /** Sessions unused for longer than their ttl at `now` (epoch ms). */
  expired(now = this.#now()): NamedSession[] {
    return this.list().filter((s) =>
      s.ttlMs !== undefined && now - Date.parse(s.lastUsedAt) > s.ttlMs
    );
  }

  /** Waits for pending writes (and writes a pending `lastUsedAt`). */
  async flush(): Promise<void> {
    if (this.#touchTimer !== undefined) {
      clearTimeout(this.#touchTimer);
      this.#touchTimer = undefined;
      this.#persistLogged();
    }
    await this.#write;
  }

  /**
   * Queues a write of every record (writes run one at a time, in order).
   * @returns The write, which rejects when the file could not be written.
   */
  #persist(): Promise<void> {
    const file: SessionsFile = {
      configPath: this.#configPath,
      sessions: structuredClone(this.list()),
    };
    const text = JSON.stringify(file, null, 1);
    const write = this.#write.then(() => this.#writeFile(text));
    this.#write = write.catch(() => {});
    return write;
  }

  /** {@link #persist} for changes nobody waits on: a failure is logged, and the next change writes everything again. */
  #persistLogged(): void {
    this.#persist().catch((error) => {
      log("error", "daemon.error", "writing named sessions to {path} failed: {error}", {
        path: this.path,
        error: error instanceof Error ? error.message : String(error),
      });
    });
  }

  async #writeFile(text: string): Promise<void> {
    ensurePrivateDir(this.path.slice(0, this.path.lastIndexOf("/")), "mcpx's named sessions");
    if (this.#damaged) {
      // Never write over a damaged file before its bytes are kept (decision 0019).
      const copy = keepDamagedCopy(this.path, this.#damaged, this.#now());
      this.#damaged = undefined;
      log("warn", "state.damaged", "the damaged original of {path} is kept as {copy}", {
        path: this.path,
        copy,
      });
    }
    await writePrivateFile(this.path, text);
  }

  /** The newest other daemon's file for the same configuration path. */
  #sibling(): SessionsFile | undefined {
    if (!this.#configPath) return undefined;
    const dir = this.path.slice(0, this.path.lastIndexOf("/"));
    let best: { file: SessionsFile; mtime: number } | undefined;
    try {
      for (const entry of Deno.readDirSync(dir)) {
        const path = join(dir, entry.name);
        if (!entry.name.endsWith(".json") || path === this.path) continue;
        const file = readSessionsFile(path);
        if (file?.configPath !== this.#configPath) continue;
        const mtime = Deno.statSync(path).mtime?.getTime() ?? 0;
        if (!best || mtime > best.mtime) best = { file, mtime };
      }
    } catch { /* no directory yet */ }
    return best?.file;
  }
}

/** How long a `lastUsedAt` change may wait before it is written, in ms. */
export const TOUCH_WRITE_MS = 5_000;
