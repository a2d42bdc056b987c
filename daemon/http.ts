/**
 * The daemon's HTTP/1.1 JSON API on a unix socket (mode 0600):
 * `POST /v1/<route>` with a JSON body, one route per op of ops/routes.ts
 * (`ROUTES`), answered `{ "ok": true, "result": … }` or
 * `{ "ok": false, "error": { code, message, … } }` (wire/wire.ts
 * `WireErrorBody`), either with `"trace": {…}` when a traced call leased an
 * instance, with `"notices": […]` when the caller sent `notices: true`
 * and the daemon has something to tell it (engine/notices.ts; wire/wire.ts
 * has the client side), and with `"notes": […]` when the handler said
 * something about the request (a lease wait), `"notifications": […]` when a
 * call's server sent progress or log messages (decision 0078). A caller that
 * sent `live: true` hears what is said before the answer is ready at once:
 * the answer then streams as lines, what was said first (daemon/live_answer.ts).
 *
 * Every body is read up to `input.maxBytes` plus an envelope
 * (wire/body_limit.ts): past it, `body-too-large` (HTTP 413) before it is
 * read whole, on the socket as on TCP (decision 0058). It is then parsed with
 * its route's zod input before anything runs: a body that fails it is
 * answered the usage error (`usage`, HTTP 400) naming each field and what
 * was wrong with it.
 *
 * Three refusals run nothing, so the caller may send the request again to
 * another daemon (wire/answer.ts `WIRE_REFUSALS`): `version-mismatch` (the
 * caller is another mcpx version), `daemon-stopping` (this daemon has begun
 * to stop) and `trust-mismatch` (the caller checks a project configuration's
 * trust otherwise: decision 0018).
 *
 * @module
 */

import { dirname } from "node:path";
import { errorToJson, McpxError, NotFoundError, UsageError } from "../core/errors.ts";
import type { Daemon } from "../engine/engine.ts";
import { routeNamed } from "../ops/daemon_ops.ts";
import type { Reply } from "../ops/route_handler.ts";
import type { OpSpec } from "../ops/op.ts";
import { Redactor } from "../core/redact.ts";
import { jsonResponse } from "./json_response.ts";
import { LiveAnswer } from "./live_answer.ts";
import { VERSION_HEADER, type WireErrorBody, type WireNotification } from "../wire/wire.ts";
import type { RequestCaller } from "../wire/caller.ts";
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
import { routeInput } from "../ops/route_input.ts";
import { OPENAPI_PATH, openApiDocument } from "../ops/openapi.ts";
import { callPathBody, callPathTarget } from "./call_path.ts";
import { streamAnswer } from "./stream_route.ts";
import { bodyLimit, readBodyBounded } from "../wire/body_limit.ts";
import { DEFAULT_INPUT_MAX_BYTES } from "../core/bounded_read.ts";
import type { UpgradeGate } from "./upgrade_gate.ts";

/**
 * Turns any thrown value into the wire's error body; never includes a stack,
 * and holds every configured secret as its reference (a server's error or
 * stderr tail may echo one).
 *
 * @param redactor The daemon's (core/redact.ts); default: URL credentials only.
 */
export function toWireError(error: unknown, redactor = new Redactor()): WireErrorBody {
  return errorToJson(error, redactor);
}

/**
 * The body of an answered request, with the configuration's secrets replaced
 * by their references in everything but a server's own successful answer
 * (a route declared `serverData` whose result does not report `isError`):
 * that is the caller's data and passes unchanged (decision 0017). `reply`
 * (a trace, the notices asked for) is redacted as the rest.
 */
export function okBody(
  route: Pick<OpSpec, "serverData">,
  result: unknown,
  reply: Omit<Reply, "note" | "notification"> & {
    notes?: string[];
    notifications?: WireNotification[];
  },
  redactor: Redactor,
): Record<string, unknown> {
  const data = route.serverData &&
    (result as { isError?: unknown } | null | undefined)?.isError !== true;
  return { ok: true, result: data ? result : redactor.json(result), ...redactor.json(reply) };
}

/** A refusal or failure that ran nothing, answered with `status`. */
function refuse(error: McpxError, status = 200, redactor?: Redactor): Response {
  return Response.json({ ok: false, error: toWireError(error, redactor) }, { status });
}

/**
 * The `id.<key>` attributes of a request's records: the caller's
 * `traceIds` (its `MCPX_TRACE_IDS`, as written) under the ids the request
 * establishes (`session`, `parentSession`, `run`).
 *
 * @throws {McpxError} Code `bad-trace-ids` when `traceIds` cannot be read.
 */
function requestIds(params: RequestCaller): Record<string, unknown> {
  let caller = {};
  if (params.traceIds !== undefined) {
    try {
      caller = parseTraceIds(params.traceIds);
    } catch (error) {
      throw new McpxError(
        "bad-trace-ids",
        `${TRACE_IDS_VARIABLE} ${(error as Error).message}; fix or unset it`,
      );
    }
  }
  return idAttributes(
    caller,
    establishedIds({
      session: params.session,
      parentSession: params.parentSession,
      run: params.run,
    }),
  );
}

/**
 * The refusals that run nothing, whatever the route: `version-mismatch` (the
 * caller is another mcpx version) and `daemon-stopping` (every route but
 * `health`); undefined when neither applies.
 */
function refusal(daemon: Daemon, request: Request, name: string): Response | undefined {
  const callerVersion = request.headers.get(VERSION_HEADER);
  if (callerVersion && callerVersion !== daemon.version) {
    return refuse(
      new McpxError(
        "version-mismatch",
        `this daemon is mcpx ${daemon.version}, the caller ${callerVersion}; nothing was run`,
      ),
    );
  }
  if (daemon.stopping && name !== "health") {
    return refuse(
      new McpxError(
        "daemon-stopping",
        `this daemon (pid ${Deno.pid}) is stopping; nothing was run`,
      ),
    );
  }
  return undefined;
}

/** What the daemon's handler reads of a request: `maxBodyBytes` (wire/body_limit.ts `bodyLimit`). */
export interface HandlerLimits {
  /** The most bytes of a request body; default: `input.maxBytes`'s default plus the envelope. */
  maxBodyBytes?: number;
}

/**
 * Serves `daemon` on `socketPath` until `onStop` is requested.
 *
 * @param onStop Called after the `stop` operation has answered. Once
 *   `daemon.stopping` is set, every request but `health` is refused with
 *   `daemon-stopping` before anything runs.
 * @param limits What a request may carry (`input.maxBytes` plus the envelope);
 *   `gate`: holds or forwards requests while the daemon is replaced (daemon/upgrade_gate.ts).
 * @throws {Deno.errors.AddrInUse} when another process holds the socket.
 */
export async function serveDaemon(
  daemon: Daemon,
  socketPath: string,
  onStop: () => void,
  limits: HandlerLimits & { gate?: UpgradeGate } = {},
): Promise<Deno.HttpServer<Deno.UnixAddr>> {
  ensurePrivateDir(dirname(socketPath), SOCKET_DIR_WHAT);
  const handler = daemonHandler(daemon, onStop, limits);
  const gate = limits.gate;
  const server = Deno.serve({
    path: socketPath,
    transport: "unix",
    onListen() {},
    onError: daemonErrorResponse(daemon),
  }, gate ? (request) => gate.handle(request, handler) : handler);
  await Deno.chmod(socketPath, 0o600);
  return server;
}

/**
 * The HTTP status of a failed `POST /v1/call/<namespace>/<tool>`, for callers
 * that read the status before the body (curl -f, HTTP clients): 400 for a
 * request mcpx refuses, 404 for a namespace or tool that does not exist, 500
 * for the rest (a server that failed or timed out). mcpx's own wire client
 * reads the body's `ok` and `error` on every route.
 */
function restStatus(error: unknown): number {
  if (error instanceof UsageError) return 400;
  if (error instanceof NotFoundError) return 404;
  return 500;
}

/** The answer to an error thrown outside the handler's own catch (Deno.serve's `onError`). */
export function daemonErrorResponse(daemon: Daemon): (error: unknown) => Response {
  return (error) =>
    Response.json({ ok: false, error: toWireError(error, daemon.redactor) }, { status: 500 });
}

/**
 * The daemon's request handler, the same on the unix socket and on TCP
 * (daemon/http_tcp.ts puts its Host, Origin and token checks in front):
 * `POST /v1/<route>`, `GET /v1/<route>` of a streaming route such as
 * `GET /v1/events` (daemon/stream_route.ts), `POST /v1/call/<namespace>/<tool>`
 * (daemon/call_path.ts) and `GET /v1/openapi.json` (ops/openapi.ts).
 *
 * @param onStop Called after the `stop` operation has answered.
 * @param limits What a request may carry: a body past `maxBodyBytes` is
 *   answered `body-too-large` (413) before it is read whole.
 */
export function daemonHandler(
  daemon: Daemon,
  onStop: () => void,
  limits: HandlerLimits = {},
): (request: Request) => Promise<Response> {
  const maxBodyBytes = limits.maxBodyBytes ?? bodyLimit(DEFAULT_INPUT_MAX_BYTES);
  return async (request) => {
    const pathname = new URL(request.url).pathname;
    if (pathname === OPENAPI_PATH && (request.method === "GET" || request.method === "HEAD")) {
      return Response.json(openApiDocument());
    }
    let target: { namespace: string; tool: string } | undefined;
    try {
      target = callPathTarget(pathname);
    } catch (error) {
      return refuse(error as McpxError, 400);
    }
    const name = target ? "call" : pathname.replace(/^\/v1\//, "");
    const route = routeNamed(name);
    // A streaming route is GET, its input in the query string (daemon/stream_route.ts).
    if (route?.stream && request.method === "GET") {
      const refused = refusal(daemon, request, name);
      return refused ?? streamAnswer(daemon, route, request);
    }
    if (route?.stream) {
      return refuse(
        new McpxError(
          "not-found",
          `no operation ${request.method} ${pathname}: ${name} is GET ${pathname} ` +
            `(server-sent events)`,
        ),
        405,
      );
    }
    if (!route || request.method !== "POST") {
      return refuse(
        new McpxError("not-found", `no operation ${request.method} ${pathname}`),
        404,
      );
    }
    const refused = refusal(daemon, request, name);
    if (refused) return refused;
    let text: string;
    try {
      text = new TextDecoder().decode(await readBodyBounded(request, maxBodyBytes));
    } catch (error) {
      if ((error as McpxError).code !== "body-too-large") throw error;
      return refuse(error as McpxError, 413, daemon.redactor);
    }
    daemon.inFlight++;
    daemon.lastActivityAt = Date.now();
    const live = new LiveAnswer();
    const reply: Reply = {
      note: (text) => live.note(text),
      // A server's log message is told as everything but its own answer is: redacted (decision 0017).
      notification: (notification) => live.notification(daemon.redactor.json(notification)),
    };
    let wantsNotices = false;
    // What rides on the answer besides its result: the trace, the notes not yet sent, and what
    // the daemon has to tell the person at the shell (to `mcpx`, which asks for it).
    const withNotices = () => {
      const notices = wantsNotices ? takeNotices() : [];
      return {
        ...(reply.trace ? { trace: reply.trace } : {}),
        ...(reply.extra ? { extra: reply.extra } : {}),
        ...(notices.length ? { notices } : {}),
        ...(live.notes.length ? { notes: live.notes } : {}),
        ...(live.notifications.length ? { notifications: live.notifications } : {}),
      };
    };
    const failure = (error: unknown) => ({
      ok: false,
      error: toWireError(error, daemon.redactor),
      ...daemon.redactor.json(withNotices()),
    });
    let streamed = false;
    const done = () => {
      daemon.inFlight--;
      daemon.lastActivityAt = Date.now();
    };
    try {
      let raw: unknown;
      try {
        raw = text ? JSON.parse(text) : {};
      } catch (error) {
        throw new UsageError(
          `the body of "${name}" is not JSON (${(error as Error).message}); nothing was run`,
        );
      }
      if (target) raw = callPathBody(target, request.headers, raw);
      wantsNotices = (raw as { notices?: unknown } | null)?.notices === true;
      // The route's schema, before anything runs: a usage error naming each field.
      const input = routeInput(route.spec, raw);
      const params = input as RequestCaller;
      // A caller that checks trust otherwise than this daemon (decision 0018): run nothing.
      if (params.trustCheck !== undefined && params.trustCheck !== daemon.trustCheck) {
        return refuse(
          new McpxError(
            "trust-mismatch",
            `this daemon ${daemon.trustCheck ? "checks" : "does not check"} that its ` +
              `project configuration is trusted, and the caller wants otherwise; nothing was run`,
          ),
        );
      }
      const work = withCallerIds(
        requestIds(params),
        () => route.handler(daemon, input, request.signal, reply),
      );
      // A caller that hears notes live, and was told one before the answer: the answer streams.
      if (params.live === true && await live.streams(work)) {
        streamed = true;
        return live.response(
          work.then((result) => okBody(route.spec, result, withNotices(), daemon.redactor), failure)
            .finally(done),
        );
      }
      const result = await work;
      if (name === "stop") queueMicrotask(onStop);
      // A large result (a tool's MB of text) is streamed, not turned into one string and bytes.
      return jsonResponse(okBody(route.spec, result, withNotices(), daemon.redactor));
    } catch (error) {
      return Response.json(failure(error), {
        status: target ? restStatus(error) : error instanceof UsageError ? 400 : 200,
      });
    } finally {
      if (!streamed) done();
    }
  };
}
