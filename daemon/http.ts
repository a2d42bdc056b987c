/**
 * The daemon's HTTP/1.1 JSON API on a unix socket (mode 0600):
 * `POST /v1/<operation>` with a JSON body, answered
 * `{ "ok": true, "result": … }` or `{ "ok": false, "error": { code, message, … } }`,
 * either with `"trace": {…}` when a traced call leased an instance
 * (client/wire.ts has the client side).
 *
 * Two refusals run nothing, so the caller may send the request again to
 * another daemon: `version-mismatch` (the caller is another mcpx version) and
 * `daemon-stopping` (this daemon has begun to stop).
 *
 * @module
 */

import { dirname } from "node:path";
import { errorToJson } from "../errors.ts";
import type { Daemon } from "./daemon.ts";
import { OPERATIONS, type Reply } from "./operations.ts";
import { jsonResponse } from "./json_response.ts";
import { VERSION_HEADER } from "../client/wire.ts";
import { withCallerIds } from "./log.ts";
import {
  establishedIds,
  idAttributes,
  parseTraceIds,
  TRACE_IDS_VARIABLE,
} from "../logs/trace_ids.ts";
import { McpxError } from "../errors.ts";

/** The error body of a failed request. */
export interface WireError {
  code: string;
  message: string;
  suggestions?: string[];
  stderrTail?: string;
}

/** Turns any thrown value into the wire shape; never includes a stack. */
export function toWireError(error: unknown): WireError {
  return errorToJson(error);
}

/**
 * The `id.<key>` attributes of a request's records: the caller's
 * `traceIds` (its `MCPX_TRACE_IDS`, as written) under the ids the request
 * establishes (`session`, `parentSession`, `run`).
 *
 * @throws {McpxError} Code `bad-trace-ids` when `traceIds` cannot be read.
 */
function requestIds(params: Record<string, unknown>): Record<string, unknown> {
  let caller = {};
  if (typeof params.traceIds === "string") {
    try {
      caller = parseTraceIds(params.traceIds);
    } catch (error) {
      throw new McpxError(
        "bad-trace-ids",
        `${TRACE_IDS_VARIABLE} ${(error as Error).message}; fix or unset it`,
      );
    }
  }
  const text = (key: string) => typeof params[key] === "string" ? params[key] as string : undefined;
  return idAttributes(
    caller,
    establishedIds({
      session: text("session"),
      parentSession: text("parentSession"),
      run: text("run"),
    }),
  );
}

/**
 * Serves `daemon` on `socketPath` until `onStop` is requested.
 *
 * @param onStop Called after the `stop` operation has answered. Once
 *   `daemon.stopping` is set, every request but `health` is refused with
 *   `daemon-stopping` before anything runs.
 * @throws {Deno.errors.AddrInUse} when another process holds the socket.
 */
export async function serveDaemon(
  daemon: Daemon,
  socketPath: string,
  onStop: () => void,
): Promise<Deno.HttpServer<Deno.UnixAddr>> {
  await Deno.mkdir(dirname(socketPath), { recursive: true, mode: 0o700 });
  const server = Deno.serve({
    path: socketPath,
    transport: "unix",
    onListen() {},
    onError(error) {
      return Response.json({ ok: false, error: toWireError(error) }, { status: 500 });
    },
  }, async (request) => {
    const name = new URL(request.url).pathname.replace(/^\/v1\//, "");
    const operation = OPERATIONS[name];
    if (!operation || request.method !== "POST") {
      return Response.json({
        ok: false,
        error: { code: "not-found", message: `no operation ${request.method} ${name}` },
      }, { status: 404 });
    }
    const callerVersion = request.headers.get(VERSION_HEADER);
    if (callerVersion && callerVersion !== daemon.version) {
      return Response.json({
        ok: false,
        error: {
          code: "version-mismatch",
          message:
            `this daemon is mcpx ${daemon.version}, the caller ${callerVersion}; nothing was run`,
        },
      });
    }
    if (daemon.stopping && name !== "health") {
      return Response.json({
        ok: false,
        error: {
          code: "daemon-stopping",
          message: `this daemon (pid ${Deno.pid}) is stopping; nothing was run`,
        },
      });
    }
    daemon.inFlight++;
    daemon.lastActivityAt = Date.now();
    const reply: Reply = {};
    try {
      const text = await request.text();
      const params = text ? JSON.parse(text) : {};
      const result = await withCallerIds(
        requestIds(params),
        () => operation.handler(daemon, params, request.signal, reply),
      );
      if (name === "stop") queueMicrotask(onStop);
      // A large result (a tool's MB of text) is streamed, not turned into one string and bytes.
      return jsonResponse({ ok: true, result, ...reply });
    } catch (error) {
      return Response.json({ ok: false, error: toWireError(error), ...reply });
    } finally {
      daemon.inFlight--;
      daemon.lastActivityAt = Date.now();
    }
  });
  await Deno.chmod(socketPath, 0o600);
  return server;
}
