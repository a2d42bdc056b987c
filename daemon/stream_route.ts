/**
 * A streaming route served (ops/op.ts `stream`; decision 0080): `GET
 * /v1/<name>` with its input in the query string (ops/route_query.ts), its
 * handler's items written as server-sent events (daemon/sse_response.ts).
 * A refusal of the input (a bad `since`, an unknown kind or parameter) is
 * answered before the stream starts, as every route's usage error is: HTTP
 * 400 with `{ ok: false, error }` naming the value and what it may be.
 *
 * A stream is not a request in flight: an auto-started daemon's idle exit
 * does not wait for a follower, and ends its stream (decision 0080).
 *
 * @module
 */

import { errorToJson, UsageError } from "../core/errors.ts";
import { ownFields } from "../ops/caller_schema.ts";
import type { Daemon } from "../engine/engine.ts";
import type { Route } from "../ops/daemon_ops.ts";
import { queryInput } from "../ops/route_query.ts";
import { sseResponse } from "./sse_response.ts";

/**
 * The answer to `GET /v1/<name>` of a streaming route.
 *
 * @param route The route (`route.stream` set).
 */
export function streamAnswer(daemon: Daemon, route: Route, request: Request): Response {
  const fields = ownFields(route.spec.input);
  const gone = new AbortController();
  const signal = AbortSignal.any([request.signal, gone.signal]);
  try {
    const input = queryInput(route.spec, new URL(request.url).searchParams, fields);
    const lastEventId = request.headers.get("last-event-id") ?? undefined;
    const items = route.stream!(daemon, input, signal, {
      ...(lastEventId ? { lastEventId } : {}),
    });
    return sseResponse(items, {
      redact: (item) => daemon.redactor.json(item),
      onCancel: () => gone.abort(),
    });
  } catch (error) {
    return Response.json({ ok: false, error: errorToJson(error, daemon.redactor) }, {
      status: error instanceof UsageError ? 400 : 500,
    });
  }
}
