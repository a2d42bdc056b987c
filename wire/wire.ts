/**
 * The daemon protocol as every client speaks it: one HTTP/1.1 `POST /v1/<operation>` with a
 * JSON body on a fresh connection, read to end of file, answered `{ ok, result | error, trace? }`
 * (daemon/http.ts). `mcpx` (wire/daemon_request.ts) and every script's generated client (which
 * inlines this file) both use it, so both draw the same line between a request that never
 * reached a daemon and one that did.
 *
 * The line (decision 0007): a request may be sent again only when it
 * provably never reached a daemon — the socket is missing, the connection is
 * refused, or not one byte was written. Once a byte was written, a lost
 * connection means the operation may or may not have run, and it is never
 * sent again.
 *
 * Before connecting, the socket's directory is held to the rule of a private
 * directory (core/private_dir_rule.ts: the user's own, writable by nobody
 * else), once per directory per process: a socket in a directory another user
 * controls could be theirs, and would receive every call's arguments.
 *
 * Portable: runs under deno, bun and node ≥ 22.6 (spec 000, "Runtime
 * portability"), imports only core/private_dir_rule.ts and wire/endpoint.ts
 * (which import nothing), and defines no top-level name the script runtime defines
 * (client/bundle.ts checks).
 *
 * @module
 */

import {
  judgePrivateDir,
  type LookPath,
  privateDirMessage,
  type PrivateDirVerdict,
  stickySocketIsOurs,
} from "../core/private_dir_rule.ts";
import {
  denoConnectOptions,
  nodeConnectOptions,
  type WireEndpoint,
  wireEndpoint,
} from "./endpoint.ts";
import { parkIdle, ResponseFrame, takeIdle } from "./keep_alive.ts";

/**
 * The request header naming the caller's mcpx version; a daemon of another
 * version answers `version-mismatch` without running the operation.
 */
export const VERSION_HEADER = "x-mcpx-version";

/**
 * The instance that served a traced tool call (`trace: true` in the request
 * body, sent when the caller's `MCPX_TRACE` is on): the answer carries it
 * beside the result or the error.
 */
export interface WireTrace {
  /** Namespace and tool as called (the tool's real name). */
  namespace: string;
  tool: string;
  /** The server's configured name. */
  server: string;
  /** The stdio server's pid; absent for a remote server. */
  pid?: number;
  /** The scope key the instance serves (`global`, `session:<k>`, …). */
  key: string;
  /** The instance's log span (`ins-…`), for `mcpx log --chain`. */
  instance: string;
  /** The call's own log span (`cal-…`). */
  call: string;
}

/**
 * A failed operation as the daemon sends it (`{ ok: false, error }`), the one
 * declaration of the error body: daemon/http.ts answers core/errors.ts
 * `errorToJson()` typed as this, and clients read it with wire/answer.ts
 * `readAnswer()`. Facts travel as fields, never only in the message.
 */
export interface WireErrorBody {
  /** Machine-readable kind (core/errors.ts `McpxError.code`): `usage`, `timeout`, `server`, … */
  code: string;
  message: string;
  /** The nearest names (`not-found`). */
  suggestions?: string[];
  /** The namespace named, when it is one the configuration lacks (`not-found`). */
  namespace?: string;
  /** The server's last stderr lines (`server`). */
  stderrTail?: string;
  /** A timeout's limit, in ms (core/errors.ts `TimeoutError.ms`). */
  ms?: number;
  /** The bound whose time limit passed (core/errors.ts `TimeoutBound`). */
  bound?: WireTimeoutBound;
  /** The setting that sets that limit (`TimeoutError.setting`, `InputError.setting`). */
  setting?: string;
  /** An input's size limit that was passed, in bytes (core/errors.ts `InputError.limit`). */
  limit?: number;
}

/** The bounds on a caller's wait (core/errors.ts `TimeoutBound`; wire/answer_test.ts holds them equal). */
export type WireTimeoutBound =
  | "leaseTimeout"
  | "startTimeout"
  | "firstStartTimeout"
  | "callTimeout";

/**
 * Something the daemon tells the person at the shell (engine/notices.ts):
 * sent only to a caller that asked with `notices: true` in its body.
 */
export interface WireNotice {
  /** `log-records-dropped` or `state-damaged`. */
  code: string;
  message: string;
}

/**
 * A notification the server of a call sent while the call ran, said to the
 * call's caller before the answer, in the order the server sent it
 * (decision 0078): MCP `notifications/progress` (its params less the
 * progress token, which is mcpx's own on the upstream request) or
 * `notifications/message` (a log message; MCP 2025-11-25 "Progress",
 * "Logging"). Only a call that carries a `notify` token (wire/caller.ts) has
 * them said.
 */
export type WireNotification =
  | {
    method: "notifications/progress";
    params: { progress: number; total?: number; message?: string };
  }
  | {
    method: "notifications/message";
    params: { level: string; logger?: string; data: unknown };
  };

/** The JSON body of every answer. */
export interface WireAnswer {
  ok: boolean;
  result?: unknown;
  error?: WireErrorBody;
  trace?: WireTrace;
  notices?: WireNotice[];
  /**
   * What the daemon said about this request before its answer (a wait for
   * an instance others hold, a process of its own), in order: sent to a
   * caller that asked with `live: true` as note lines ahead of the answer
   * (wire/live_notes.ts), or as this member when none was said before the
   * answer was ready.
   */
  notes?: string[];
  /**
   * What the call's server sent while the call ran, in order (decision
   * 0078): to a caller that sent `live: true`, notification lines ahead of
   * the answer (wire/live_notes.ts); as this member when the answer did not
   * stream (a caller that did not send `live`: at most the last 500).
   */
  notifications?: WireNotification[];
  /** What a person's rendering of the result adds (ops/route_handler.ts `Reply.extra`). */
  extra?: Record<string, unknown>;
}

/**
 * An exchange that did not end with a whole HTTP response. `sent` says
 * whether any byte of the request was written: false means no daemon can
 * have seen it (safe to send again), true means it may have run.
 */
export class ExchangeFailure extends Error {
  /** True once a byte of the request was written to the connection. */
  readonly sent: boolean;
  constructor(sent: boolean, message: string, options?: { cause?: unknown }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = "ExchangeFailure";
    this.sent = sent;
  }
}

/**
 * The socket's directory is not private to the user (another user owns it, or
 * others can write into it): nothing was sent. `code` is `unsafe-directory`,
 * as core/private_fs.ts `UnsafeDirectoryError`'s.
 */
export class UnsafeSocketDirectory extends Error {
  readonly code = "unsafe-directory";
  /** The directory refused. */
  readonly path: string;
  constructor(path: string, message: string, options?: { cause?: unknown }) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = "UnsafeSocketDirectory";
    this.path = path;
  }
}

/** Socket directories this process found private; each is checked once. */
const wirePrivateDirs = new Set<string>();
let wireFs: Promise<WireLoose> | undefined;

/**
 * Holds the directory of `socket` to core/private_dir_rule.ts: one `lstat` the first time a
 * process connects there. A directory that does not exist passes (the connection then fails as
 * "no daemon", unsent), and so does a shared sticky one for a socket this user owns or that is
 * absent (core/private_dir_rule.ts `stickySocketIsOurs`).
 *
 * @throws {UnsafeSocketDirectory} naming the directory, what is wrong and the
 *   fix, when it is not private or cannot be examined.
 */
export async function checkSocketDir(socket: string): Promise<void> {
  const dir = socket.slice(0, socket.lastIndexOf("/")) || "/";
  if (wirePrivateDirs.has(dir)) return;
  const deno: WireLoose = (globalThis as WireLoose).Deno;
  const fs: WireLoose = deno?.lstatSync ? undefined : await (wireFs ??= import("node:fs"));
  let uid: number | null = null;
  let verdict: PrivateDirVerdict;
  let look: LookPath;
  try {
    // Under node and bun, process.getuid(); null where there is none (Windows). Never read
    // under Deno: there `globalThis.process` loads the Node compatibility layer (~40 ms).
    const proc: WireLoose = fs ? (globalThis as WireLoose).process : undefined;
    uid = fs ? (typeof proc?.getuid === "function" ? proc.getuid() : null) : deno.uid?.() ?? null;
    look = fs ? wireNodeLook(fs) : wireDenoLook(deno);
    verdict = judgePrivateDir(dir, uid, look);
  } catch (error) {
    throw new UnsafeSocketDirectory(
      dir,
      `cannot examine ${dir}, which holds mcpx's daemon sockets (${
        (error as Error)?.message ?? error
      }), so nothing was sent: mcpx connects only through a directory it has checked is yours ` +
        `(under Deno's narrower permissions that takes --allow-sys=uid and reading ${dir})`,
      { cause: error },
    );
  }
  if (verdict.problem && stickySocketIsOurs(dir, socket, uid, look)) return;
  if (verdict.problem) {
    throw new UnsafeSocketDirectory(
      dir,
      privateDirMessage(dir, "mcpx's daemon sockets", uid, verdict.problem) +
        "; nothing was sent",
    );
  }
  if (verdict.exists) wirePrivateDirs.add(dir);
}

function wireDenoLook(deno: WireLoose): LookPath {
  return (path, follow) => {
    try {
      const i = follow ? deno.statSync(path) : deno.lstatSync(path);
      return { isDirectory: i.isDirectory, isSymlink: i.isSymlink, uid: i.uid, mode: i.mode };
    } catch (error) {
      if (error instanceof deno.errors.NotFound) return undefined;
      throw error;
    }
  };
}

function wireNodeLook(fs: WireLoose): LookPath {
  return (path, follow) => {
    try {
      const s = follow ? fs.statSync(path) : fs.lstatSync(path);
      return {
        isDirectory: s.isDirectory(),
        isSymlink: s.isSymbolicLink(),
        uid: s.uid,
        mode: s.mode,
      };
    } catch (error) {
      if ((error as WireLoose)?.code === "ENOENT") return undefined;
      throw error;
    }
  };
}

const wireEncoder = new TextEncoder();
const wireDecoder = new TextDecoder();

/**
 * The bytes of one request: head and JSON body.
 *
 * @param operation An operation name (ops/daemon_ops.ts).
 * @param body The JSON text of the parameters.
 * @param version The caller's mcpx version, sent as {@link VERSION_HEADER}.
 * @param to The endpoint: a TCP one gets its `Host` (wire/http_origin.ts) and the token.
 */
export function encodeRequest(
  operation: string,
  body: string,
  version?: string,
  to?: { endpoint?: string; token?: string },
): Uint8Array {
  const payload = wireEncoder.encode(body);
  const target = to?.endpoint ? wireEndpoint(to.endpoint) : undefined;
  const host = target?.kind === "tcp" ? target.host : "mcpx";
  const head = wireEncoder.encode(
    `POST /v1/${operation} HTTP/1.1\r\nhost: ${host}\r\ncontent-type: application/json\r\n` +
      (version ? `${VERSION_HEADER}: ${version}\r\n` : "") +
      (target?.kind === "tcp" && to?.token ? `authorization: Bearer ${to.token}\r\n` : "") +
      // Deno keeps the connection for the next request (wire/keep_alive.ts); node:net does not.
      `content-length: ${payload.length}\r\n${
        keepsConnections() ? "" : "connection: close\r\n"
      }\r\n`,
  );
  const request = new Uint8Array(head.length + payload.length);
  request.set(head);
  request.set(payload, head.length);
  return request;
}

// deno-lint-ignore no-explicit-any
type WireLoose = any;

/**
 * Writes `request` on a fresh connection to `socket` and reads to end of
 * file, with `Deno.connect` where it exists, else `node:net`.
 *
 * @param onBytes Told each piece of the response as it is read (wire/live_notes.ts
 *   reads the notes of a streamed answer from them); the pieces are also kept.
 * @returns The whole response, split into status and body (chunked bodies decoded).
 * @throws {UnsafeSocketDirectory} before connecting, when the socket's
 *   directory is not private ({@link checkSocketDir}).
 * @throws {ExchangeFailure} when the connection fails or closes before a
 *   whole response; `sent` says whether any byte had been written.
 * @throws the signal's reason when `signal` aborts.
 */
export async function exchangeRequest(
  socket: string,
  request: Uint8Array,
  signal?: AbortSignal,
  onBytes?: (bytes: Uint8Array) => void,
): Promise<{ status: number; body: string }> {
  signal?.throwIfAborted();
  const endpoint = wireEndpoint(socket);
  if (endpoint.kind === "unix") await checkSocketDir(endpoint.path);
  const deno: WireLoose = (globalThis as WireLoose).Deno;
  const progress = { sent: false };
  let bytes: Uint8Array;
  try {
    bytes = keepsConnections()
      ? await exchangeDeno(deno, endpoint, request, signal, progress, onBytes)
      : await exchangeNode(endpoint, request, signal, progress, onBytes);
  } catch (error) {
    if (signal?.aborted) throw signal.reason;
    throw new ExchangeFailure(progress.sent, (error as Error)?.message ?? String(error), {
      cause: error,
    });
  }
  const response = decodeResponse(bytes);
  // The text is decoded: a large answer's bytes (ours, from exchangeDeno) go back now.
  if (response && keepsConnections()) wireRelease(bytes);
  if (!response) {
    throw new ExchangeFailure(
      true,
      bytes.length === 0
        ? "the connection closed before any answer"
        : "the connection closed in the middle of the answer",
    );
  }
  return response;
}

async function exchangeDeno(
  deno: WireLoose,
  endpoint: WireEndpoint,
  request: Uint8Array,
  signal: AbortSignal | undefined,
  progress: { sent: boolean },
  onBytes?: (bytes: Uint8Array) => void,
): Promise<Uint8Array> {
  const key = endpointKey(endpoint);
  let kept = takeIdle(key);
  let conn: Deno.Conn = kept?.conn ?? await deno.connect(denoConnectOptions(endpoint));
  let parked = false;
  const close = () => {
    if (parked) return;
    try {
      conn.close();
    } catch { /* already closed */ }
  };
  signal?.addEventListener("abort", close, { once: true });
  try {
    try {
      await writeRequest(conn, request, progress);
    } catch (error) {
      // A kept connection the daemon closed took none of it: a fresh one is tried once.
      if (!kept || progress.sent) throw error;
      close();
      kept = undefined;
      conn = await deno.connect(denoConnectOptions(endpoint));
      await writeRequest(conn, request, progress);
    }
    const frame = new ResponseFrame();
    const buffer = kept?.buffer ?? new Uint8Array(64 * 1024);
    let pending: Promise<number | null> | undefined = kept?.first;
    while (true) {
      const n = await (pending ?? conn.read(buffer));
      pending = undefined;
      if (n === null) break;
      const chunk = buffer.subarray(0, n);
      // The buffer is read into again: a listener keeps a copy (the frame copies its own).
      onBytes?.(chunk.slice());
      if (frame.push(chunk)) break;
    }
    if (frame.reusable && !signal?.aborted) {
      parkIdle(key, conn, buffer);
      parked = true;
    }
    return frame.take();
  } finally {
    signal?.removeEventListener("abort", close);
    close();
  }
}

/** Writes all of `request`, `progress.sent` true once a byte is written. */
async function writeRequest(
  conn: Deno.Conn,
  request: Uint8Array,
  progress: { sent: boolean },
): Promise<void> {
  for (let written = 0; written < request.length;) {
    written += await conn.write(request.subarray(written));
    progress.sent = written > 0;
  }
}

/** Whether this runtime keeps connections between requests (Deno: wire/keep_alive.ts). */
function keepsConnections(): boolean {
  return typeof (globalThis as WireLoose).Deno?.connect === "function";
}

/** The key kept connections to `endpoint` are found under. */
function endpointKey(endpoint: WireEndpoint): string {
  return endpoint.kind === "unix" ? `unix:${endpoint.path}` : `tcp:${endpoint.host}`;
}

let wireNet: Promise<WireLoose> | undefined;

async function exchangeNode(
  endpoint: WireEndpoint,
  request: Uint8Array,
  signal: AbortSignal | undefined,
  progress: { sent: boolean },
  onBytes?: (bytes: Uint8Array) => void,
): Promise<Uint8Array> {
  wireNet ??= import("node:net");
  const net = await wireNet;
  signal?.throwIfAborted();
  return await new Promise<Uint8Array>((resolve, reject) => {
    const chunks: Uint8Array[] = [];
    const conn = net.createConnection(nodeConnectOptions(endpoint));
    const onAbort = () => {
      conn.destroy();
      reject(signal!.reason);
    };
    signal?.addEventListener("abort", onAbort, { once: true });
    const done = () => signal?.removeEventListener("abort", onAbort);
    conn.on("connect", () => {
      // Handed to the kernel from here on: count it as written, the safe side.
      progress.sent = true;
      conn.write(request);
    });
    conn.on("data", (chunk: Uint8Array) => {
      chunks.push(chunk);
      onBytes?.(chunk);
    });
    conn.on("end", () => {
      done();
      resolve(concatBytes(chunks));
      conn.destroy();
    });
    conn.on("error", (error: unknown) => {
      done();
      reject(error);
    });
  });
}

/** The chunks as one buffer, copied once. */
function concatBytes(chunks: Uint8Array[]): Uint8Array {
  if (chunks.length === 1) return chunks[0];
  let total = 0;
  for (const c of chunks) total += c.length;
  const out = new Uint8Array(total);
  let offset = 0;
  for (const c of chunks) {
    out.set(c, offset);
    offset += c.length;
  }
  return out;
}

/**
 * Gives back the memory of `bytes` now (`ArrayBuffer.prototype.transfer(0)`,
 * where the runtime has it) when it is the whole of its buffer; it must not
 * be used again.
 */
function wireRelease(bytes: Uint8Array): void {
  const buffer = bytes.buffer as WireLoose;
  if (
    typeof buffer?.transfer === "function" && !buffer.detached && bytes.byteOffset === 0 &&
    bytes.byteLength === buffer.byteLength
  ) {
    buffer.transfer(0);
  }
}

/**
 * Splits a whole HTTP/1.1 response into status and body, decoding a chunked
 * body by bytes (so multi-byte characters stay whole).
 *
 * @returns undefined when `bytes` is not a whole response: no end of head,
 *   fewer body bytes than `content-length`, or no last chunk.
 */
export function decodeResponse(bytes: Uint8Array): { status: number; body: string } | undefined {
  let split = -1;
  for (let i = 0; i + 3 < bytes.length; i++) {
    if (bytes[i] === 13 && bytes[i + 1] === 10 && bytes[i + 2] === 13 && bytes[i + 3] === 10) {
      split = i;
      break;
    }
  }
  if (split < 0) return undefined;
  const head = wireDecoder.decode(bytes.subarray(0, split)).split("\r\n");
  const status = Number(head[0].split(" ")[1]);
  let body = bytes.subarray(split + 4);
  const header = (name: string) =>
    head.find((h) => h.toLowerCase().startsWith(`${name}:`))?.slice(name.length + 1).trim();
  if (/chunked/i.test(header("transfer-encoding") ?? "")) {
    const parts: Uint8Array[] = [];
    let at = 0;
    let last = false;
    while (at < body.length) {
      let lineEnd = at;
      while (lineEnd + 1 < body.length && !(body[lineEnd] === 13 && body[lineEnd + 1] === 10)) {
        lineEnd++;
      }
      const size = parseInt(wireDecoder.decode(body.subarray(at, lineEnd)), 16);
      if (!size) {
        last = size === 0;
        break;
      }
      if (lineEnd + 2 + size > body.length) return undefined;
      parts.push(body.subarray(lineEnd + 2, lineEnd + 2 + size));
      at = lineEnd + 2 + size + 2;
    }
    if (!last) return undefined;
    body = concatBytes(parts);
  } else {
    const length = header("content-length");
    if (length !== undefined) {
      if (body.length < Number(length)) return undefined;
      body = body.subarray(0, Number(length));
    }
  }
  return { status, body: wireDecoder.decode(body) };
}

/**
 * The message of a request whose connection was lost after it was sent:
 * which daemon, what was running, that it may or may not have run and was
 * not sent again, and what to do.
 *
 * @param facts.what `everything.count` for a tool call, else the operation's name.
 * @param facts.pid The daemon's pid, when known (its record, or what `health` said).
 * @param facts.socket Where the request was sent.
 * @param facts.reason What the connection did (`the connection closed before any answer`).
 */
export function daemonLostMessage(
  facts: { what: string; pid?: number; socket: string; reason?: string; isCall: boolean },
): string {
  const daemon = facts.pid !== undefined
    ? `the mcpx daemon (pid ${facts.pid})`
    : `the mcpx daemon on ${facts.socket}`;
  const running = facts.isCall ? `the call of ${facts.what}` : `the "${facts.what}" request`;
  return `lost the connection to ${daemon} while ${running} was in flight` +
    (facts.reason ? ` (${facts.reason})` : "") +
    `: it may or may not have run, and it was not retried. Check for its effect before ` +
    `running it again; \`mcpx status\` shows the daemon and its servers now.`;
}

/**
 * The one line a traced tool call prints on the caller's stderr (spec 000,
 * "Lifecycle and operations": `MCPX_TRACE=1`).
 */
export function traceLine(trace: WireTrace): string {
  return `mcpx trace: ${trace.namespace}.${trace.tool} served by ${trace.server} ` +
    `(pid ${trace.pid ?? "remote"}, key ${trace.key}, instance ${trace.instance}, ` +
    `call ${trace.call})`;
}

/** True when a switch variable (`MCPX_TRACE`) is on: `1`, `true`, `yes` or `on`. */
export function switchOn(value: string | undefined): boolean {
  return /^\s*(1|true|yes|on)\s*$/i.test(value ?? "");
}
