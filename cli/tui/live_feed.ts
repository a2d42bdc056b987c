/**
 * How the live views (log, servers, sessions) hear that something changed:
 * the daemon's event bus read as Server-Sent Events (`GET /v1/events` on the
 * daemon's socket; engine/event_bus.ts says what an event is), resumed with
 * `Last-Event-ID` after a break; and, while no daemon runs or the one that
 * runs has no bus to read (it answers anything but an event stream), a poll:
 * a `poll` tick every {@link FollowOptions.pollMs}, trying the bus again every
 * {@link FollowOptions.retryMs}.
 *
 * @module
 */

import { pause } from "../../core/pause.ts";
import type { BusEvent } from "../../engine/event_bus.ts";
import { readEvents } from "../logs/event_source.ts";
import type { LiveEvent, LiveMode } from "./tui_data.ts";

/** What {@link followDaemon} needs. */
export interface FollowOptions {
  /** The daemon's socket path (it need not be running). */
  socket: () => Promise<string>;
  listener: (event: LiveEvent) => void;
  onMode: (mode: LiveMode) => void;
  signal: AbortSignal;
  /** ms between poll ticks while the bus cannot be read (default 2000). */
  pollMs?: number;
  /** ms between attempts to read the bus while polling (default 5000). */
  retryMs?: number;
}

/**
 * Follows the daemon's events until `signal` aborts; never throws (a failure
 * to read the bus is the poll's cue).
 */
export function followDaemon(options: FollowOptions): void {
  const { signal, listener, onMode } = options;
  const pollMs = options.pollMs ?? 2000;
  const retryMs = options.retryMs ?? 5000;
  let lastId: string | undefined;
  let mode: LiveMode = "off";
  const setMode = (next: LiveMode) => {
    if (next !== mode) onMode(mode = next);
  };
  const run = async () => {
    while (!signal.aborted) {
      const streamed = await readBus(
        await options.socket().catch(() => undefined),
        lastId,
        signal,
        (event) => {
          setMode("events");
          lastId = event.id;
          listener(eventOf(event));
        },
        () => setMode("events"),
      );
      if (signal.aborted) return;
      if (!streamed) setMode("polling");
      // Poll until the next attempt: a tick each pollMs.
      const until = Date.now() + (streamed ? 500 : retryMs);
      while (!signal.aborted && Date.now() < until) {
        await pause(Math.min(pollMs, until - Date.now()), signal);
        if (!signal.aborted && mode === "polling") listener({ kind: "poll" });
      }
    }
  };
  run().catch(() => setMode("polling"));
}

/** A bus event as the browser needs it: its kind and the server it is about. */
function eventOf(event: BusEvent): LiveEvent {
  return { kind: event.kind, ...(event.server ? { server: event.server } : {}) };
}

/**
 * Reads the bus (cli/logs/event_source.ts, as `mcpx events -f` does) until
 * the stream ends; false when there was no stream (no daemon, no route,
 * another answer).
 */
async function readBus(
  socket: string | undefined,
  lastId: string | undefined,
  signal: AbortSignal,
  onEvent: (event: BusEvent) => void,
  onOpen: () => void,
): Promise<boolean> {
  if (!socket || socket.includes("://")) return false;
  let opened = false;
  try {
    await Deno.stat(socket);
    await readEvents(socket, {
      ...(lastId ? { lastEventId: lastId } : {}),
      signal,
      onOpen: () => {
        opened = true;
        onOpen();
      },
    }, onEvent);
    return opened;
  } catch {
    return false;
  }
}
