/**
 * What the thin client and the front say to each other (decision 0067): one
 * connection per command line on the front's unix socket, the request as one
 * JSON text that ends where the client closes its side, the answer as one
 * JSON text that ends where the front closes. No HTTP: the client loads only
 * this module, the socket's name and the directory check, so relaying costs
 * little more than starting Deno.
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

/** What the front answers: the command's output and exit code, or why it ran nothing. */
export type RelayedAnswer =
  | { stdout: string; stderr: string; code: number }
  | { refused: string };

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
  const all = new Uint8Array(total);
  let at = 0;
  for (const chunk of chunks) {
    all.set(chunk, at);
    at += chunk.length;
  }
  return new TextDecoder().decode(all);
}

/** Writes all of `text` to `conn`. */
export async function writeAll(conn: Deno.Conn, text: string): Promise<void> {
  const bytes = new TextEncoder().encode(text);
  for (let written = 0; written < bytes.length;) {
    written += await conn.write(bytes.subarray(written));
  }
}
