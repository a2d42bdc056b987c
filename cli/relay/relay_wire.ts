/**
 * What the thin client and the front say to each other (decisions 0067,
 * 0068): one connection per command line on the front's unix socket. The
 * client sends the request as one line of JSON and keeps its side open while
 * the command runs: its closing (the caller interrupted, or died) is how the
 * front learns to abort the command. The front answers with one JSON text
 * that ends where it closes. No HTTP: the client loads only this module, the
 * socket's name and the directory check, so relaying costs little more than
 * starting Deno.
 *
 * @module
 */

import { judgePrivateDir, stickySocketIsOurs } from "../../core/private_dir_rule.ts";
import { pathFacts } from "../../core/path_facts.ts";

/** Most bytes of one relayed request: argv, the directory and the whole environment. */
export const MAX_REQUEST_BYTES = 512 * 1024;

/** What the thin client sends. */
export interface RelayedCommand {
  /** The client's mcpx version: a front of another version refuses. */
  version: string;
  argv: string[];
  cwd: string;
  env: Record<string, string>;
  /** The thin client's parent: the process the caller's `pid`-scoped servers belong to. */
  callerPid: number;
}

/**
 * What the front answers: the command's output and exit code, or why it ran
 * nothing; on a refusal the client runs the command itself. `local` marks a
 * command line that runs in the caller's process (the front is current and
 * stays); without it the front was the wrong one (another version, rebuilt
 * code) or the request malformed.
 */
export type RelayedAnswer = RelayedOutput | { refused: string; local?: true };

/**
 * A command's output as the front heard it: all of stdout, all of stderr,
 * and the order they were written in (`[1, n]`: the next n characters of
 * stdout; `[2, n]`: of stderr), so a caller that merges them (`2>&1`) sees
 * them as a whole process would have written them.
 */
export interface RelayedOutput {
  stdout: string;
  stderr: string;
  code: number;
  order?: [1 | 2, number][];
}

/**
 * The pieces of `output` in the order they were written: `[1, text]` for
 * stdout, `[2, text]` for stderr. Without an order, stdout then stderr.
 *
 * @example
 * ```ts
 * import { inOrder } from "./relay_wire.ts";
 * const parts = inOrder({ stdout: "ab", stderr: "E", code: 0, order: [[1, 1], [2, 1], [1, 1]] });
 * if (JSON.stringify(parts) !== '[[1,"a"],[2,"E"],[1,"b"]]') throw new Error();
 * ```
 */
export function inOrder(output: RelayedOutput): [1 | 2, string][] {
  const order = output.order ?? [[1, output.stdout.length], [2, output.stderr.length]];
  const at = { 1: 0, 2: 0 };
  const parts: [1 | 2, string][] = [];
  for (const [fd, length] of order) {
    const text = fd === 1 ? output.stdout : output.stderr;
    parts.push([fd, text.slice(at[fd], at[fd] + length)]);
    at[fd] += length;
  }
  // Whatever the order does not cover (it should cover everything) comes last, not lost.
  if (at[1] < output.stdout.length) parts.push([1, output.stdout.slice(at[1])]);
  if (at[2] < output.stderr.length) parts.push([2, output.stderr.slice(at[2])]);
  return parts.filter(([, text]) => text !== "");
}

/** Whether `value` is a {@link RelayedCommand}. */
export function isRelayedCommand(value: unknown): value is RelayedCommand {
  const v = value as RelayedCommand | null;
  return typeof v === "object" && v !== null && typeof v.version === "string" &&
    Array.isArray(v.argv) && v.argv.every((a) => typeof a === "string") &&
    typeof v.cwd === "string" && typeof v.env === "object" && v.env !== null &&
    Object.values(v.env).every((x) => typeof x === "string") && Number.isInteger(v.callerPid);
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
 * Reads the request line from `conn`: its text without the newline;
 * undefined when it exceeds `max` bytes or the connection ends first.
 */
export async function readRequestLine(
  conn: Deno.Conn,
  max: number,
): Promise<string | undefined> {
  const chunks: Uint8Array[] = [];
  let total = 0;
  const buffer = new Uint8Array(64 * 1024);
  while (true) {
    const n = await conn.read(buffer);
    if (n === null) return undefined;
    const end = buffer.subarray(0, n).indexOf(NEWLINE);
    const upTo = end === -1 ? n : end;
    total += upTo;
    if (total > max) return undefined;
    chunks.push(buffer.slice(0, upTo));
    if (end !== -1) return new TextDecoder().decode(concat(chunks, total));
  }
}

/**
 * Resolves when the other side of `conn` closes (or the connection fails):
 * anything it sends meanwhile is ignored.
 */
export async function untilClosed(conn: Deno.Conn): Promise<void> {
  const buffer = new Uint8Array(1024);
  try {
    while (await conn.read(buffer) !== null) { /* nothing more is expected */ }
  } catch { /* closed under us: the same */ }
}

/** Reads `conn` to its end, at most `max` bytes; undefined past that. */
export async function readAll(conn: Deno.Conn, max: number): Promise<string | undefined> {
  const chunks: Uint8Array[] = [];
  let total = 0;
  const buffer = new Uint8Array(64 * 1024);
  while (true) {
    const n = await conn.read(buffer);
    if (n === null) break;
    total += n;
    if (total > max) return undefined;
    chunks.push(buffer.slice(0, n));
  }
  return new TextDecoder().decode(concat(chunks, total));
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
export async function writeAll(conn: Deno.Conn, text: string | Uint8Array): Promise<void> {
  const bytes = typeof text === "string" ? new TextEncoder().encode(text) : text;
  for (let written = 0; written < bytes.length;) {
    written += await conn.write(bytes.subarray(written));
  }
}
