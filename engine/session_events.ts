/**
 * Sessions opening and closing, as the daemon's event bus tells them
 * (decision 0080): `session.opened` the first time this daemon serves a
 * session key (a call or request under `--session`/`MCPX_SESSION_ID`, or its
 * parent session) or makes a named session (`mcpx session new`), and
 * `session.closed` when it ends one (a script run's made-up key at its end,
 * `mcpx session end`, a named session past its ttl), with why and how many
 * instances stop. A key closed and used again opens again.
 *
 * @module
 */

import type { EventBus } from "./event_bus.ts";

/** The most open keys remembered. */
export const MAX_OPEN_KEYS = 10_000;

/** The keys a daemon has open, and the events of their opening and closing. */
export class SessionEvents {
  #bus: EventBus;
  #open = new Set<string>();

  /** @param bus The daemon's event bus. */
  constructor(bus: EventBus) {
    this.#bus = bus;
  }

  /**
   * A session key served: published as `session.opened` the first time.
   *
   * @param facts What the event adds (`named`, `ttlMs` of a named session).
   */
  seen(key: string, facts: Record<string, unknown> = {}): void {
    if (!key || this.#open.has(key)) return;
    this.#open.add(key);
    // Keys an agent never ends are forgotten oldest first: one may then open twice.
    if (this.#open.size > MAX_OPEN_KEYS) this.#open.delete(this.#open.values().next().value!);
    this.#bus.publish("session.opened", { session: key, data: facts });
  }

  /**
   * A session ended: published as `session.closed` with `why`
   * (`session-end`, `session-ttl`) and how many instances stop.
   */
  closed(key: string, why: string, instances: number): void {
    this.#open.delete(key);
    this.#bus.publish("session.closed", { session: key, data: { why, instances } });
  }

  /** How many session keys are open (for tests and status). */
  get size(): number {
    return this.#open.size;
  }
}
