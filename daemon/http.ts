/**
 * The daemon's HTTP/1.1 JSON API on a unix socket (mode 0600):
 * `POST /v1/<operation>` with a JSON body, answered
 * `{ "ok": true, "result": … }` or `{ "ok": false, "error": { code, message, … } }`,
 * either with `"trace": {…}` when a traced call leased an instance, and with
 * `"notices": […]` when the caller sent `notices: true` and the daemon has
 * something to tell it (engine/notices.ts; wire/wire.ts has the client side).
 *
 * Three refusals run nothing, so the caller may send the request again to
 * another daemon: `version-mismatch` (the caller is another mcpx version),
 * `daemon-stopping` (this daemon has begun to stop) and `trust-mismatch` (the
 * caller checks a project configuration's trust otherwise: decision 0018).
 *
 * @module
 */

import { dirname } from "node:path";
import { errorToJson } from "../core/errors.ts";
import type { Daemon } from "../engine/engine.ts";
import { type Operation, OPERATIONS, type Reply } from "../ops/daemon_ops.ts";
import { Redactor } from "../core/redact.ts";
import { jsonResponse } from "./json_response.ts";
import { VERSION_HEADER } from "../wire/wire.ts";
import { withCallerIds } from "../engine/log.ts";
import { takeNotices } from "../engine/notices.ts";
import { SOCKET_DIR_WHAT } from "../wire/locate.ts";
import { ensurePrivateDir } from "../core/private_fs.ts";
import {
  establishedIds,
  idAttributes,
  parseTraceIds,
  TRACE_IDS_VARIABLE,
} from "../logs/trace_ids.ts";
import { McpxError } from "../core/errors.ts";
import { own } from "../core/own.ts";

/** The error body of a failed request. */
export interface WireError {
  code: string;
  message: string;
  suggestions?: string[];
  stderrTail?: string;
}

/**
 * Turns any thrown value into the wire shape; never includes a stack, and
 * holds every configured secret as its reference (a server's error or stderr
 * tail may echo one).
 *
 * @param redactor The daemon's (core/redact.ts); default: URL credentials only.
 */
export function toWireError(error: unknown, redactor = new Redactor()): WireError {
  return errorToJson(error, redactor);
}

/**
 * The body of an answered request, with the configuration's secrets replaced
 * by their references in everything but a server's own successful answer
 * (an operation declared `serverData` whose result does not report
 * `isError`): that is the caller's data and passes unchanged (decision 0017).
 * `reply` (a trace, the notices asked for) is redacted as the rest.
 */
export function okBody(
  operation: Operation,
  result: unknown,
  reply: Reply,
  redactor: Redactor,
): Record<string, unknown> {
  const data = operation.serverData &&
    (result as { isError?: unknown } | null | undefined)?.isError !== true;
  return { ok: true, result: data ? result : redactor.json(result), ...redactor.json(reply) };
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
  ensurePrivateDir(dirname(socketPath), SOCKET_DIR_WHAT);
  const server = Deno.serve({
    path: socketPath,
    transport: "unix",
    onListen() {},
    onError(error) {
      return Response.json({ ok: false, error: toWireError(error, daemon.redactor) }, {
        status: 500,
      });
    },
  }, async (request) => {
    const name = new URL(request.url).pathname.replace(/^\/v1\//, "");
    const operation = own(OPERATIONS, name);
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
    let params: Record<string, unknown> = {};
    // What the daemon has to tell the person at the shell goes to `mcpx`, which asks for it.
    const withNotices = () => {
      if (params?.notices !== true) return reply;
      const notices = takeNotices();
      return notices.length ? { ...reply, notices } : reply;
    };
    try {
      const text = await request.text();
      params = text ? JSON.parse(text) : {};
      // A caller that checks trust otherwise than this daemon (decision 0018): run nothing.
      if (typeof params.trustCheck === "boolean" && params.trustCheck !== daemon.trustCheck) {
        return Response.json({
          ok: false,
          error: {
            code: "trust-mismatch",
            message: `this daemon ${daemon.trustCheck ? "checks" : "does not check"} that its ` +
              `project configuration is trusted, and the caller wants otherwise; nothing was run`,
          },
        });
      }
      const result = await withCallerIds(
        requestIds(params),
        () => operation.handler(daemon, params, request.signal, reply),
      );
      if (name === "stop") queueMicrotask(onStop);
      // A large result (a tool's MB of text) is streamed, not turned into one string and bytes.
      return jsonResponse(okBody(operation, result, withNotices(), daemon.redactor));
    } catch (error) {
      return Response.json({
        ok: false,
        error: toWireError(error, daemon.redactor),
        ...daemon.redactor.json(withNotices()),
      });
    } finally {
      daemon.inFlight--;
      daemon.lastActivityAt = Date.now();
    }
  });
  await Deno.chmod(socketPath, 0o600);
  return server;
}
