/**
 * The daemon's event bus (issue 28; spec 000 "Hearing what the daemon is
 * doing"): one stream of typed events, each numbered, kept in a ring of
 * `retention` events. Readers hold a cursor into the ring, not a queue, so
 * publishing is an append that never waits for anybody: a reader that falls
 * further behind than the ring reaches gets a `gap` event saying how many it
 * missed, then goes on from the oldest event still kept.
 *
 * An event's id is `<epoch>-<seq>`; the epoch is the daemon's, drawn once per
 * bus, so a position from an earlier daemon (an SSE client's `Last-Event-ID`
 * after a restart) is recognised and answered with a gap, not matched against
 * another daemon's numbers.
 *
 * @module
 */

import { type EventKind, kindMatches } from "../core/event_kinds.ts";

// The list lives below every layer that names a kind (config/hooks.ts reads it too).
export { EVENT_KINDS, type EventKind } from "../core/event_kinds.ts";

/** The default number of events a bus keeps (the setting `events.retention`). */
export const DEFAULT_RETENTION = 10_000;

/** One event, as published, replayed and sent over SSE (`data:` is this object as JSON). */
export interface BusEvent {
  /** `<epoch>-<seq>`: the SSE `id:` line and what `Last-Event-ID` sends back. */
  id: string;
  /** 1, 2, 3, … within one daemon's life. A `gap` event carries the seq of the event after it, less one. */
  seq: number;
  kind: EventKind;
  /** When it was published, ms since the Unix epoch. */
  at: number;
  /** The server (namespace) the event is about, when it is about one. */
  server?: string;
  /** The session the event belongs to, when it belongs to one. */
  session?: string;
  /** The resource URI the event is about (`resource.updated`). */
  uri?: string;
  /** The trace ids of the call the event belongs to (`call.*`, `question.*`). */
  traceIds?: string[];
  /** The kind's own facts: a call's tool and outcome, a server's exit code and reason, a gap's count. */
  data: Record<string, unknown>;
}

/** What a publisher gives: everything but the bus's own numbering and clock. */
export type EventInput = Omit<BusEvent, "id" | "seq" | "at" | "kind" | "data"> & {
  data?: Record<string, unknown>;
};

/**
 * Which events a reader wants. Every list given must match; an empty or
 * absent list matches everything. A kind matches itself and, written without
 * a dot, every kind under it (`server` → `server.crashed`). `gap` events are
 * always delivered.
 */
export interface EventFilter {
  kinds?: string[];
  servers?: string[];
  sessions?: string[];
}

/**
 * Where a reader starts: after event `seq` of daemon `epoch` (an `id`, or
 * `?since=N`, which names no epoch and means this daemon's). `seq` 0 is
 * "everything retained"; no position at all is "live only".
 */
export interface EventPosition {
  epoch?: string;
  seq: number;
}

/**
 * Reads a position from a `Last-Event-ID` (`<epoch>-<seq>`) or a `since`
 * value (a bare number).
 *
 * @returns The position, or undefined when `text` is neither form.
 */
export function parseEventPosition(text: string): EventPosition | undefined {
  const trimmed = text.trim();
  const dash = trimmed.lastIndexOf("-");
  const epoch = dash > 0 ? trimmed.slice(0, dash) : undefined;
  const number = dash > 0 ? trimmed.slice(dash + 1) : trimmed;
  if (!/^\d+$/.test(number)) return undefined;
  const seq = Number(number);
  if (!Number.isSafeInteger(seq)) return undefined;
  return epoch === undefined ? { seq } : { epoch, seq };
}

/** Whether `event` passes `filter` (see {@link EventFilter}). */
export function eventMatches(event: BusEvent, filter: EventFilter | undefined): boolean {
  if (event.kind === "gap" || filter === undefined) return true;
  const kinds = filter.kinds ?? [];
  if (kinds.length > 0 && !kinds.some((k) => kindMatches(k, event.kind))) {
    return false;
  }
  const servers = filter.servers ?? [];
  if (servers.length > 0 && (event.server === undefined || !servers.includes(event.server))) {
    return false;
  }
  const sessions = filter.sessions ?? [];
  if (sessions.length > 0 && (event.session === undefined || !sessions.includes(event.session))) {
    return false;
  }
  return true;
}

/** A listener told of each event as it is published (hooks, the MCP view). */
export type EventListener = (event: BusEvent) => void;

/** Options of {@link EventBus}. */
export interface EventBusOptions {
  /** How many events are kept for replay; at least 1. Default {@link DEFAULT_RETENTION}. */
  retention?: number;
  /** The daemon's epoch (a test seam); default a random 8-hex-digit word. */
  epoch?: string;
  /** The clock, ms since the Unix epoch (a test seam). */
  now?: () => number;
}

/** The bus. One per daemon. */
export class EventBus {
  /** This daemon's epoch, the first half of every id. */
  readonly epoch: string;
  /** How many events are kept. */
  readonly retention: number;
  #ring: (BusEvent | undefined)[];
  #last = 0;
  #now: () => number;
  #listeners = new Set<EventListener>();
  #waiters = new Set<() => void>();

  /** @throws {RangeError} When `retention` is not a positive integer. */
  constructor(options: EventBusOptions = {}) {
    const retention = options.retention ?? DEFAULT_RETENTION;
    if (!Number.isSafeInteger(retention) || retention < 1) {
      throw new RangeError(`events.retention must be a positive integer, got ${retention}`);
    }
    this.retention = retention;
    this.epoch = options.epoch ?? crypto.getRandomValues(new Uint32Array(1))[0].toString(16)
      .padStart(8, "0");
    this.#now = options.now ?? Date.now;
    this.#ring = new Array(retention);
  }

  /** The seq of the newest event, 0 before the first. */
  get lastSeq(): number {
    return this.#last;
  }

  /** The seq of the oldest event still kept (`lastSeq + 1` when none is). */
  get firstSeq(): number {
    return Math.max(1, this.#last - this.retention + 1);
  }

  /**
   * Appends an event and tells the listeners. Never waits, never throws: a
   * listener that throws is skipped (listeners must catch their own errors;
   * a hook runner logs them).
   *
   * @returns The event as stored.
   */
  publish(kind: Exclude<EventKind, "gap">, input: EventInput = {}): BusEvent {
    const seq = ++this.#last;
    const event: BusEvent = {
      id: `${this.epoch}-${seq}`,
      seq,
      kind,
      at: this.#now(),
      ...input,
      data: input.data ?? {},
    };
    this.#ring[(seq - 1) % this.retention] = event;
    for (const listener of this.#listeners) {
      try {
        listener(event);
      } catch {
        // A listener's failure is its own; publishing goes on.
      }
    }
    const waiters = [...this.#waiters];
    this.#waiters.clear();
    for (const wake of waiters) wake();
    return event;
  }

  /**
   * Calls `listener` for every event published from now on, until the
   * returned function is called. The listener runs inside `publish`: it must
   * be quick and must not publish.
   */
  listen(listener: EventListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** The kept event numbered `seq`, or undefined when it is not kept. */
  at(seq: number): BusEvent | undefined {
    if (seq < this.firstSeq || seq > this.#last) return undefined;
    return this.#ring[(seq - 1) % this.retention];
  }

  /**
   * A reader from `from` (see {@link EventPosition}; undefined = live only).
   * A position of another epoch, or older than what is kept, starts with a
   * gap event and then every kept event.
   */
  reader(from?: EventPosition, filter?: EventFilter): EventReader {
    return new EventReader(this, from, filter);
  }

  /** Resolves at the next publish or when `signal` aborts. */
  waitNext(signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) return Promise.resolve();
    return new Promise((resolve) => {
      const wake = () => {
        signal?.removeEventListener("abort", wake);
        this.#waiters.delete(wake);
        resolve();
      };
      this.#waiters.add(wake);
      signal?.addEventListener("abort", wake, { once: true });
    });
  }

  /** A gap event (not stored, not numbered on the bus) for a reader that lost events. */
  gapEvent(afterSeq: number, data: Record<string, unknown>): BusEvent {
    return { id: `${this.epoch}-${afterSeq}`, seq: afterSeq, kind: "gap", at: this.#now(), data };
  }
}

/**
 * A cursor into the bus. {@link EventReader.next} gives each matching event
 * once, in order; a reader the ring overtook gets one `gap` event (with
 * `data.missed`, how many events it lost, and `data.reason`: `retention`,
 * `epoch` or `behind`) and carries on from the oldest kept.
 */
export class EventReader {
  #bus: EventBus;
  #filter?: EventFilter;
  /** The seq of the last event this reader passed. */
  #cursor: number;
  #pendingGap?: BusEvent;
  /** Events lost to the ring while this reader lagged. */
  missed = 0;

  /** Use {@link EventBus.reader}. */
  constructor(bus: EventBus, from: EventPosition | undefined, filter: EventFilter | undefined) {
    this.#bus = bus;
    this.#filter = filter;
    if (from === undefined) {
      this.#cursor = bus.lastSeq;
      return;
    }
    const otherEpoch = from.epoch !== undefined && from.epoch !== bus.epoch;
    if (otherEpoch) {
      this.#cursor = bus.firstSeq - 1;
      this.#pendingGap = bus.gapEvent(this.#cursor, {
        reason: "epoch",
        from: `${from.epoch}-${from.seq}`,
        missed: null,
      });
      return;
    }
    const seq = Math.min(from.seq, bus.lastSeq);
    if (seq < bus.firstSeq - 1) {
      const missed = bus.firstSeq - 1 - seq;
      this.missed += missed;
      this.#cursor = bus.firstSeq - 1;
      this.#pendingGap = bus.gapEvent(this.#cursor, { reason: "retention", from: seq, missed });
      return;
    }
    this.#cursor = seq;
  }

  /** The seq of the last event this reader passed (its position to resume from). */
  get position(): number {
    return this.#cursor;
  }

  /** The next matching event already published, or undefined when the reader is caught up. */
  poll(): BusEvent | undefined {
    if (this.#pendingGap) {
      const gap = this.#pendingGap;
      this.#pendingGap = undefined;
      return gap;
    }
    while (this.#cursor < this.#bus.lastSeq) {
      if (this.#cursor < this.#bus.firstSeq - 1) {
        const missed = this.#bus.firstSeq - 1 - this.#cursor;
        this.missed += missed;
        const from = this.#cursor;
        this.#cursor = this.#bus.firstSeq - 1;
        return this.#bus.gapEvent(this.#cursor, { reason: "behind", from, missed });
      }
      const event = this.#bus.at(++this.#cursor);
      if (event && eventMatches(event, this.#filter)) return event;
    }
    return undefined;
  }

  /**
   * The next matching event, waiting for one to be published.
   *
   * @returns undefined when `signal` aborts first.
   */
  async next(signal?: AbortSignal): Promise<BusEvent | undefined> {
    while (!signal?.aborted) {
      const event = this.poll();
      if (event) return event;
      await this.#bus.waitNext(signal);
    }
    return undefined;
  }
}
