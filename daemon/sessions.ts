/**
 * Named sessions: lease keys with a name, made by `mcpx session new`, that
 * outlive the process that made them (spec 000, "Named, pinned and resumable
 * sessions"). A named session is only a record; its key is the session key
 * itself, so `--session <name>` on any command rejoins it and instances are
 * keyed `session:<name>` (or `parent-session:<name>`) as for any session.
 *
 * Records live in `<stateDir>/sessions/<fingerprint>.json`, one file per
 * daemon, written only by that daemon (a temporary file, then rename), so they
 * survive a daemon restart. A daemon whose file does not exist yet (an edited
 * configuration) takes the newest sibling file made for the same
 * configuration path.
 *
 * @module
 */

import { join } from "../config/posix_path.ts";
import { log } from "./log.ts";
import { ensurePrivateDir } from "../core/private_fs.ts";

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
}

/** The file's shape. */
interface SessionsFile {
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

/**
 * Reads a sessions file; an absent or unreadable file is no sessions.
 *
 * @example
 * ```ts
 * import { readSessions } from "./sessions.ts";
 * if (readSessions("/nonexistent/x.json").length !== 0) throw new Error();
 * ```
 */
export function readSessions(path: string): NamedSession[] {
  return readFile(path)?.sessions ?? [];
}

function readFile(path: string): SessionsFile | undefined {
  try {
    const file = JSON.parse(Deno.readTextFileSync(path)) as SessionsFile;
    return Array.isArray(file?.sessions) ? file : undefined;
  } catch {
    return undefined;
  }
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

  /**
   * @param path This daemon's file ({@linkcode sessionsPath}).
   * @param configPath The configuration the daemon serves, to adopt a sibling's records.
   * @param now The clock (tests).
   */
  constructor(path: string, configPath: string | null, now: () => number = Date.now) {
    this.path = path;
    this.#configPath = configPath;
    this.#now = now;
    const own = readFile(path) ?? this.#sibling();
    for (const s of own?.sessions ?? []) this.#sessions.set(s.name, s);
    if (!readFile(path) && this.#sessions.size) this.#persist();
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
   * Records a new named session.
   * @throws {RangeError} when `name` is taken or not a valid name.
   */
  create(name: string, ttlMs?: number): NamedSession {
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
    };
    this.#sessions.set(name, session);
    this.#persist();
    return session;
  }

  /** Deletes a record. @returns Whether there was one. */
  delete(name: string): boolean {
    const had = this.#sessions.delete(name);
    if (had) this.#persist();
    return had;
  }

  /** Marks a session used now (a call under its key). */
  touch(name: string): void {
    const session = this.#sessions.get(name);
    if (!session) return;
    session.lastUsedAt = new Date(this.#now()).toISOString();
    this.#touchTimer ??= setTimeout(() => {
      this.#touchTimer = undefined;
      this.#persist();
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
    this.#persist();
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
      this.#persist();
    }
    await this.#write;
  }

  #persist(): void {
    const file: SessionsFile = {
      configPath: this.#configPath,
      sessions: structuredClone(this.list()),
    };
    this.#write = this.#write.then(() => writeAtomically(this.path, JSON.stringify(file, null, 1)));
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
        const file = readFile(path);
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

async function writeAtomically(path: string, text: string): Promise<void> {
  const dir = path.slice(0, path.lastIndexOf("/"));
  try {
    ensurePrivateDir(dir, "mcpx's named sessions");
    const tmp = `${path}.${Deno.pid}.${crypto.randomUUID().slice(0, 8)}.tmp`;
    await Deno.writeTextFile(tmp, text, { mode: 0o600 });
    await Deno.rename(tmp, path);
  } catch (error) {
    // The records stay in memory and the next change writes them all again.
    log("error", "daemon.error", "writing named sessions to {path} failed: {error}", {
      path,
      error: error instanceof Error ? error.message : String(error),
    });
  }
}
