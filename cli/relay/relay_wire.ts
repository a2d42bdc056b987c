/**
 * What the thin client and the front say to each other (decisions 0067,
 * 0068, 0069): one connection per command line on the front's unix socket.
 * The client sends the request as one line of JSON and keeps its side open
 * while the command runs: its closing (the caller interrupted, or died) is
 * how the front learns to abort the command. Then both sides speak in frames
 * ({@link Frame}): the front streams what the command writes, in the order it
 * writes it, and ends with the answer; for `run` and `exec` it asks the
 * client to start the script's runtime, whose stderr (and, under `--json`,
 * stdout) the client streams back with its exit status. No HTTP: the client
 * loads only this module, the socket's name and the directory check, so
 * relaying costs little more than starting Deno.
 *
 * @module
 */

import { judgePrivateDir, stickySocketIsOurs } from "../../core/private_dir_rule.ts";
import { pathFacts } from "../../core/path_facts.ts";
import type { ScriptSpawnOptions } from "../../runner/host.ts";

/** Most bytes of one relayed request: argv, the directory and the whole environment. */
export const MAX_REQUEST_BYTES = 512 * 1024;

/** Most bytes of one frame's payload: a larger length is not mcpx talking. */
export const MAX_FRAME_BYTES = 64 * 1024 * 1024;

/** What the thin client sends. */
export interface RelayedCommand {
  /** The client's mcpx version: a front of another version refuses. */
  version: string;
  argv: string[];
  cwd: string;
  env: Record<string, string>;
  /** The thin client's parent: the process the caller's `pid`-scoped servers belong to. */
  callerPid: number;
  /** The thin client's own pid: the parent of a script runtime it starts (`MCPX_PID`). */
  clientPid?: number;
  /**
   * Runs nothing: the front ends once the commands it is running are done
   * (`mcpx stop --all`), answering `{ code: 0 }`.
   */
  stop?: true;
}

/**
 * The front's last frame ({@link FRAME}.answer): the command's exit code, or
 * why it ran nothing; on a refusal the client runs the command itself.
 * `local` marks a command line that runs in the caller's process (the front
 * is current and stays); without it the front was the wrong one (another
 * version, rebuilt code) or the request malformed.
 */
export type RelayedAnswer = { code: number } | { refused: string; local?: true };

/**
 * The kinds of frame, by their first byte. From the front: `out`/`err`, bytes
 * the command wrote to stdout/stderr; `spawn`, start a script's runtime
 * ({@link SpawnRequest}); `answer`, the last ({@link RelayedAnswer}). From
 * the client, once asked to spawn: `spawned` (`{ pid }` or `{ error }`),
 * `out`/`err` (the runtime's piped streams; an empty payload ends one),
 * `signal` (`{ signal }`: the client was sent one while the runtime ran) and
 * `exit` (`{ code, signal }`, after both streams ended).
 */
export const FRAME = {
  out: 0x4f,
  err: 0x45,
  spawn: 0x53,
  answer: 0x41,
  spawned: 0x50,
  signal: 0x4b,
  exit: 0x58,
} as const;

/** One frame: its kind ({@link FRAME}) and payload. */
export interface Frame {
  kind: number;
  payload: Uint8Array;
}

/**
 * What the front asks the client to start: a script's runtime, as
 * `Deno.Command` takes it. `stdout: "inherit"` leaves the choice to the
 * client: a pipe or socket it passes through itself (its reader may leave,
 * decision 0013), anything else the runtime inherits.
 */
export type SpawnRequest = ScriptSpawnOptions & { path: string };

/** A frame as bytes: its kind, its payload's length (4 bytes, big-endian), the payload. */
export function frameBytes(
  kind: number,
  payload: Uint8Array | string = new Uint8Array(),
): Uint8Array {
  const body = typeof payload === "string" ? new TextEncoder().encode(payload) : payload;
  const bytes = new Uint8Array(5 + body.length);
  bytes[0] = kind;
  new DataView(bytes.buffer).setUint32(1, body.length);
  bytes.set(body, 5);
  return bytes;
}

/**
 * Reads frames from a connection, in order.
 *
 * @example
 * ```ts
 * import { FrameReader, frameBytes, FRAME } from "./relay_wire.ts";
 * const both = new Uint8Array([...frameBytes(FRAME.out, "hi"), ...frameBytes(FRAME.answer, "{}")]);
 * const reader = new FrameReader({ read: () => Promise.resolve(null) }, both);
 * if ((await reader.next())?.kind !== FRAME.out) throw new Error();
 * if ((await reader.next())?.kind !== FRAME.answer) throw new Error();
 * if ((await reader.next()) !== null) throw new Error();
 * ```
 */
export class FrameReader {
  #conn: Pick<Deno.Conn, "read">;
  #buffer: Uint8Array;
  #chunk = new Uint8Array(64 * 1024);

  /** @param start Bytes already read from `conn` after the request line. */
  constructor(conn: Pick<Deno.Conn, "read">, start: Uint8Array = new Uint8Array()) {
    this.#conn = conn;
    this.#buffer = start;
  }

  /**
   * The next frame; null when the connection ended between frames.
   *
   * @throws {Error} When it ends inside a frame, or a frame is over {@link MAX_FRAME_BYTES}.
   */
  async next(): Promise<Frame | null> {
    if (!(await this.#fill(5))) {
      if (this.#buffer.length === 0) return null;
      throw new Error("the connection ended inside a frame");
    }
    const length = new DataView(this.#buffer.buffer, this.#buffer.byteOffset).getUint32(1);
    if (length > MAX_FRAME_BYTES) throw new Error(`a frame of ${length} bytes is not mcpx's`);
    if (!(await this.#fill(5 + length))) throw new Error("the connection ended inside a frame");
    const frame = { kind: this.#buffer[0], payload: this.#buffer.slice(5, 5 + length) };
    this.#buffer = this.#buffer.subarray(5 + length);
    return frame;
  }

  /** The first byte still unread (undefined at the end): a front before frames answered `{`. */
  async peek(): Promise<number | undefined> {
    return (await this.#fill(1)) ? this.#buffer[0] : undefined;
  }

  /** Reads until `n` bytes are buffered; false when the connection ends first. */
  async #fill(n: number): Promise<boolean> {
    while (this.#buffer.length < n) {
      const read = await this.#conn.read(this.#chunk);
      if (read === null) return false;
      const grown = new Uint8Array(this.#buffer.length + read);
      grown.set(this.#buffer);
      grown.set(this.#chunk.subarray(0, read), this.#buffer.length);
      this.#buffer = grown;
    }
    return true;
  }

  /** Everything left, to the end of the connection, as text (at most `max` bytes; undefined past it). */
  async rest(max: number): Promise<string | undefined> {
    while (true) {
      if (this.#buffer.length > max) return undefined;
      const n = this.#buffer.length + this.#chunk.length;
      if (!(await this.#fill(n))) return new TextDecoder().decode(this.#buffer);
    }
  }
}

/**
 * Writes frames to a connection one after another, in the order they were
 * sent, whoever sends them: several writers (the command's output, a
 * runtime's streams) never interleave inside a frame. A failed write (the
 * other side went away) fails that send and every later one.
 */
export class FrameWriter {
  #conn: Pick<Deno.Conn, "write">;
  #last: Promise<void> = Promise.resolve();

  constructor(conn: Pick<Deno.Conn, "write">) {
    this.#conn = conn;
  }

  /** Queues a frame; resolves once it is written. */
  send(kind: number, payload?: Uint8Array | string): Promise<void> {
    const bytes = frameBytes(kind, payload);
    this.#last = this.#last.then(() => writeAll(this.#conn, bytes));
    return this.#last;
  }

  /** Resolves once everything sent so far is written (or failed). */
  flushed(): Promise<void> {
    return this.#last.catch(() => {});
  }
}

/** Whether `value` is a {@link RelayedCommand}. */
export function isRelayedCommand(value: unknown): value is RelayedCommand {
  const v = value as RelayedCommand | null;
  return typeof v === "object" && v !== null && typeof v.version === "string" &&
    Array.isArray(v.argv) && v.argv.every((a) => typeof a === "string") &&
    typeof v.cwd === "string" && typeof v.env === "object" && v.env !== null &&
    Object.values(v.env).every((x) => typeof x === "string") && Number.isInteger(v.callerPid) &&
    (v.clientPid === undefined || Number.isInteger(v.clientPid));
}

/**
 * Whether `socket`'s folder is this user's alone (core/private_dir_rule.ts),
 * or a shared sticky one where the socket is ours: only then does the client
 * send its environment there. A folder that does not exist passes (nothing
 * listens; the connection fails unsent).
 */
export function socketFolderIsOurs(socket: string): boolean {
  const dir = socket.slice(0, socket.lastIndexOf("/")) || "/";
  const uid = Deno.uid();
  try {
    const verdict = judgePrivateDir(dir, uid, pathFacts);
    return !verdict.problem || stickySocketIsOurs(dir, socket, uid, pathFacts);
  } catch {
    return false;
  }
}

/** The request as it goes on the wire: one line. */
export function requestLine(request: RelayedCommand): string {
  // JSON.stringify escapes every newline inside strings: the text holds none of its own.
  return JSON.stringify(request) + "\n";
}

const NEWLINE = 10;

/**
 * Reads the request line from `conn`.
 *
 * @returns Its text without the newline and the bytes read after it (the
 *   client's first frames); `line` undefined when it exceeds `max` bytes or
 *   the connection ends first.
 */
export async function readRequestLine(
  conn: Pick<Deno.Conn, "read">,
  max: number,
): Promise<{ line: string | undefined; rest: Uint8Array }> {
  const chunks: Uint8Array[] = [];
  let total = 0;
  const buffer = new Uint8Array(64 * 1024);
  while (true) {
    const n = await conn.read(buffer);
    if (n === null) return { line: undefined, rest: new Uint8Array() };
    const end = buffer.subarray(0, n).indexOf(NEWLINE);
    const upTo = end === -1 ? n : end;
    total += upTo;
    if (total > max) return { line: undefined, rest: new Uint8Array() };
    chunks.push(buffer.slice(0, upTo));
    if (end !== -1) {
      return {
        line: new TextDecoder().decode(concat(chunks, total)),
        rest: buffer.slice(end + 1, n),
      };
    }
  }
}

function concat(chunks: Uint8Array[], total: number): Uint8Array {
  const all = new Uint8Array(total);
  let at = 0;
  for (const chunk of chunks) {
    all.set(chunk, at);
    at += chunk.length;
  }
  return all;
}

/** Writes all of `text` (or its bytes, when already encoded) to `conn`. */
export async function writeAll(
  conn: Pick<Deno.Conn, "write">,
  text: string | Uint8Array,
): Promise<void> {
  const bytes = typeof text === "string" ? new TextEncoder().encode(text) : text;
  for (let written = 0; written < bytes.length;) {
    written += await conn.write(bytes.subarray(written));
  }
}
