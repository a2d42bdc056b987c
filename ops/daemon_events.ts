/**
 * The handler of `GET /v1/events` (ops/event_ops.ts; decision 0080): a reader
 * of the daemon's event bus (engine/event_bus.ts) from the position asked,
 * through the filters asked, yielding each event as data; daemon/sse_response.ts
 * writes them as server-sent events. It reads the ring with a cursor, so it
 * never holds events of its own and never slows a publisher: a reader the
 * ring overtakes gets a `gap` event.
 *
 * @module
 */

import { UsageError } from "../core/errors.ts";
import {
  type BusEvent,
  EVENT_KINDS,
  type EventFilter,
  type EventPosition,
  parseEventPosition,
} from "../engine/event_bus.ts";
import type { Daemon } from "../engine/engine.ts";
import type { InputOf } from "./op.ts";
import { EVENT_FAMILIES, type events } from "./event_ops.ts";
import { nearest } from "../core/nearest.ts";

const FAMILIES = EVENT_FAMILIES;

/**
 * The position `since` names (a sequence number or an `<epoch>-<seq>` id).
 *
 * @param since `?since=`, or the `Last-Event-ID` header when no `since` was given.
 * @returns Undefined for no position (live only).
 * @throws {UsageError} Naming the value and the two forms it may take.
 */
export function eventPosition(since: string | undefined): EventPosition | undefined {
  if (since === undefined) return undefined;
  const position = parseEventPosition(since);
  if (!position) {
    throw new UsageError(
      `since must be a sequence number (0 replays everything retained) or an event id ` +
        `<epoch>-<seq> as Last-Event-ID sends it, got ${JSON.stringify(since)}`,
    );
  }
  return position;
}

/**
 * The filter of a request, each kind checked.
 *
 * @param namespaces The configuration's namespaces; given, a `server` must be one of them.
 * @throws {UsageError} For a kind that is neither an event kind nor a family,
 *   naming the nearest and every family; for a server that is no namespace.
 */
export function eventFilter(
  input: Pick<InputOf<typeof events>, "kind" | "server" | "session">,
  namespaces?: readonly string[],
): EventFilter {
  // A namespace this configuration does not have would filter out everything, silently.
  for (const server of input.server ?? []) {
    if (!namespaces || namespaces.includes(server)) continue;
    const near = nearest(server, [...namespaces]);
    throw new UsageError(
      `server ${JSON.stringify(server)} is no namespace of this configuration${
        near.length ? `; did you mean ${near.join(" or ")}?` : ""
      } (\`mcpx ls\` lists them)`,
    );
  }
  for (const kind of input.kind ?? []) {
    if ((EVENT_KINDS as readonly string[]).includes(kind) || FAMILIES.includes(kind)) continue;
    const near = nearest(kind, [...EVENT_KINDS, ...FAMILIES]);
    throw new UsageError(
      `kind ${JSON.stringify(kind)} is no event kind${
        near.length ? `; did you mean ${near.join(" or ")}?` : ""
      } (kinds: ${FAMILIES.join(", ")}, each with its own: server.crashed, call.finished, …)`,
    );
  }
  return {
    ...(input.kind?.length ? { kinds: input.kind } : {}),
    ...(input.server?.length ? { servers: input.server } : {}),
    ...(input.session?.length ? { sessions: input.session } : {}),
  };
}

/**
 * The events `input` asks for, as they are published: first what is retained
 * after its position (none: nothing, live only), then each new one while
 * `follow` is not false, until `signal` aborts (the client left) or the
 * daemon shuts down.
 *
 * @param lastEventId The request's `Last-Event-ID`: the position when `since` is absent.
 * @throws {UsageError} For a malformed position or an unknown kind, before anything is yielded.
 */
export function eventStream(
  daemon: Daemon,
  input: InputOf<typeof events>,
  signal: AbortSignal,
  lastEventId?: string,
): AsyncIterable<BusEvent> {
  const from = eventPosition(input.since ?? lastEventId);
  const filter = eventFilter(input, daemon.config.servers.map((spec) => spec.namespace));
  const reader = daemon.events.reader(from, filter);
  const stop = AbortSignal.any([signal, daemon.down]);
  const follow = input.follow !== false;
  return {
    async *[Symbol.asyncIterator]() {
      while (!stop.aborted) {
        const ready = reader.poll();
        if (ready) {
          yield ready;
          continue;
        }
        if (!follow) return;
        const next = await reader.next(stop);
        if (next) yield next;
      }
      // The daemon is shutting down: what it published on the way (its servers stopping) still
      // reaches a reader that is here.
      if (!signal.aborted) { for (let e = reader.poll(); e; e = reader.poll()) yield e; }
    },
  };
}
