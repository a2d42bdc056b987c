/**
 * Reads `GET /v1/events` of a daemon (its unix socket, or a TCP endpoint with
 * its bearer token) as server-sent events (wire/sse.ts), handing each event
 * on as it arrives: what `mcpx events` prints, and what a test or a
 * benchmark follows. Decision 0080.
 *
 * @module
 */

import { DaemonUnavailableError } from "../../core/errors.ts";
import { VERSION } from "../../core/version.ts";
import type { BusEvent } from "../../engine/event_bus.ts";
import { fromWire } from "../../wire/daemon_request.ts";
import { wireEndpoint } from "../../wire/endpoint.ts";
import { SseParser } from "../../wire/sse.ts";
import { VERSION_HEADER, type WireErrorBody } from "../../wire/wire.ts";

/** The streaming route this reads (ops/event_ops.ts). */
const ROUTE = "events";

/** What to ask `GET /v1/events` for. */
export interface EventQuery {
  /** `?since=`: a sequence number or an event id; absent (and no `lastEventId`): live only. */
  since?: string;
  /** `Last-Event-ID`: where a lost stream resumes (`since` wins when both are given). */
  lastEventId?: string;
  kind?: readonly string[];
  server?: readonly string[];
  session?: readonly string[];
  /** False: the daemon ends the stream once what is retained has been sent. */
  follow?: boolean;
  /** The bearer token of a TCP endpoint (`transport.bearerToken`). */
  token?: string;
  /** Ends the stream (the connection is closed). */
  signal?: AbortSignal;
  /** Told once the daemon has answered with an event stream (before any event). */
  onOpen?: () => void;
}

/**
 * The path and query of a request for `query`.
 *
 * @example
 * ```ts
 * import { eventsPath } from "./event_source.ts";
 * const path = eventsPath({ since: "0", kind: ["server", "call.finished"], follow: false });
 * if (path !== "/v1/events?since=0&kind=server&kind=call.finished&follow=false") throw new Error(path);
 * ```
 */
export function eventsPath(query: EventQuery): string {
  const params = new URLSearchParams();
  if (query.since !== undefined) params.set("since", query.since);
  for (const name of ["kind", "server", "session"] as const) {
    for (const value of query[name] ?? []) params.append(name, value);
  }
  if (query.follow !== undefined) params.set("follow", String(query.follow));
  const text = params.toString();
  return `/v1/${ROUTE}${text ? `?${text}` : ""}`;
}

/**
 * Streams the events `query` asks for from the daemon at `address` to
 * `onEvent`, in order, until the daemon ends the stream or `query.signal`
 * aborts (then it resolves quietly).
 *
 * @param address A socket path, `unix:///path` or `http://host:port` (wire/endpoint.ts).
 * @throws {UsageError} (or another {McpxError}) for what the daemon refused, from its error body;
 *   {DaemonUnavailableError} when no daemon answers there.
 */
export async function readEvents(
  address: string,
  query: EventQuery,
  onEvent: (event: BusEvent) => void,
): Promise<void> {
  const endpoint = wireEndpoint(address);
  const client = endpoint.kind === "unix"
    ? Deno.createHttpClient({ proxy: { transport: "unix", path: endpoint.path } })
    : undefined;
  const base = endpoint.kind === "unix" ? "http://mcpx" : `http://${endpoint.host}`;
  try {
    let response: Response;
    try {
      response = await fetch(base + eventsPath(query), {
        ...(client ? { client } : {}),
        headers: {
          accept: "text/event-stream",
          [VERSION_HEADER]: VERSION,
          ...(query.lastEventId ? { "last-event-id": query.lastEventId } : {}),
          ...(query.token ? { authorization: `Bearer ${query.token}` } : {}),
        },
        ...(query.signal ? { signal: query.signal } : {}),
      });
    } catch (error) {
      if (query.signal?.aborted) return;
      throw new DaemonUnavailableError(
        `no mcpx daemon answers at ${address} (${(error as Error).message})`,
        { cause: error },
      );
    }
    // A refusal (a bad query; another version, a stopping daemon: HTTP 200) is a JSON error body.
    if (!response.ok || !response.headers.get("content-type")?.startsWith("text/event-stream")) {
      const body = await response.json().catch(() => undefined) as
        | { error?: WireErrorBody }
        | undefined;
      if (body?.error) throw fromWire(body.error);
      throw new DaemonUnavailableError(
        `the daemon at ${address} answered GET /v1/events with HTTP ${response.status}`,
      );
    }
    query.onOpen?.();
    const parser = new SseParser();
    const decoder = new TextDecoder();
    try {
      for await (const chunk of response.body!) {
        for (const message of parser.push(decoder.decode(chunk, { stream: true }))) {
          onEvent(JSON.parse(message.data) as BusEvent);
        }
      }
    } catch (error) {
      if (query.signal?.aborted) return;
      throw new DaemonUnavailableError(
        `the event stream from ${address} was cut (${(error as Error).message})`,
        { cause: error },
      );
    }
  } finally {
    client?.close();
  }
}
