/**
 * The parts of the daemon that are one per process rather than one per
 * {@link Daemon}, joined to the daemon's event bus (decision 0080): the
 * question desk (engine/questions.ts) publishes `question.*`, the log
 * (engine/log.ts) publishes `log.dropped`, and the table of resource
 * subscriptions (engine/resource_subscriptions.ts) hears `list.changed` and
 * `resource.updated` from the bus, so `mcpx serve`'s notifications come from
 * the stream `GET /v1/events` shows.
 *
 * A process runs one daemon (daemon/main.ts, or daemon/inline.ts inside a
 * command): the daemon built for it joins them (engine.ts `processEvents`);
 * a test's daemons in one process leave them alone.
 *
 * @module
 */

import type { EventBus } from "./event_bus.ts";
import { questionDesk } from "./questions.ts";
import { onLogDropped } from "./log.ts";
import { resourceSubscriptions } from "./resource_subscriptions.ts";

/**
 * Joins the process's question desk, log and subscription table to `bus`.
 *
 * @returns What undoes it (the daemon's shutdown calls it): afterwards none
 *   of them publishes on or hears `bus`.
 */
export function joinProcessEvents(bus: EventBus): () => void {
  questionDesk.events = bus;
  onLogDropped((facts) => {
    const { reason, ...rest } = facts;
    bus.publish("log.dropped", {
      ...("server" in facts && typeof facts.server === "string" ? { server: facts.server } : {}),
      data: { reason, ...rest },
    });
  });
  const unlisten = bus.listen((event) => resourceSubscriptions.hear(event));
  return () => {
    if (questionDesk.events === bus) questionDesk.events = undefined;
    onLogDropped(undefined);
    unlisten();
  };
}
