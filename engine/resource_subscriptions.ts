/**
 * Resource subscriptions the daemon holds on its instances for its callers
 * (MCP 2025-11-25 "Resources", "Subscriptions"; decision 0048): a table of
 * (instance, URI) → the subscribers that asked, each subscriber an id a
 * caller chose (`mcpx serve --passthrough` uses one per client connection).
 *
 * The first subscriber of a URI on an instance sends the upstream
 * `resources/subscribe`; the last to leave sends `resources/unsubscribe`. On
 * a 2026-07-28 connection, which has neither request, the first opens a
 * `subscriptions/listen` stream for that URI alone (the SDK client's
 * `listen({ resourceSubscriptions: [uri] })`) and the last closes it: one
 * stream per URI, so holding or ending one never touches another's (decision
 * 0048). An upstream's `notifications/resources/updated` (engine/server_records.ts),
 * published on the daemon's event bus as `resource.updated`, is heard from the
 * bus ({@link ResourceSubscriptions.hear}, decision 0080) and queued for every
 * subscriber of that URI on that instance, and each
 * subscriber long-polls its queue (the `resourceUpdates` route). A
 * subscriber may also watch the lists (a poll with `lists`): a server's
 * `notifications/{tools,prompts,resources}/list_changed` is queued for every
 * watcher, naming the namespace and the list, so `mcpx serve` can tell its
 * client that a merged list changed (decision 0073). A
 * subscription ends with its instance (no resubscription on a new one), and
 * a subscriber that has not polled for {@link SUBSCRIBER_IDLE_MS} while no
 * poll of its is waiting is dropped as gone (its caller died without
 * unsubscribing).
 *
 * @module
 */

import type { BusEvent } from "./event_bus.ts";
import type { Client, McpSubscription } from "@modelcontextprotocol/client";
import { McpxError } from "../core/errors.ts";
import type { CallerContext } from "./scope_key.ts";
import type { ChangedList } from "./server_notifications.ts";
import { type RequestSource, serverRequest } from "./server_request.ts";

/** What the table needs of an instance (engine/instance.ts `Instance`). */
export interface SubscribedInstance {
  /** The instance's local id (engine/instance.ts `id`): what a `resource.updated` event names. */
  readonly id?: string;
  readonly closed: boolean;
  request(
    method: string,
    params: Record<string, unknown>,
    options?: { timeoutMs?: number; signal?: AbortSignal },
  ): Promise<unknown>;
  /** The SDK client: on a 2026-07-28 connection a subscription is a `subscriptions/listen` stream. */
  readonly client?: Pick<Client, "getProtocolEra" | "listen">;
}

/** How a subscribe request runs: the caller's limit (ms) and its signal. */
export interface SubscribeOptions {
  timeoutMs?: number;
  signal?: AbortSignal;
}

/**
 * An update as `resourceUpdates` answers it: a resource of `namespace`
 * changed (`uri`), or one of its lists did (`list`, for a subscriber that
 * watches the lists); `seq` increases with each one of the table.
 */
export type ResourceUpdate =
  | { seq: number; namespace: string; uri: string }
  | { seq: number; namespace: string; list: ChangedList };

/** The most updates kept for a subscriber that does not poll; the oldest go first. */
export const UPDATES_KEPT = 100;
/** How long a subscriber may go without polling before it is dropped, in ms. */
export const SUBSCRIBER_IDLE_MS = 120_000;
/** The longest a poll is held, in ms. */
export const UPDATES_HOLD_MAX_MS = 60_000;

interface Subscriber<I> {
  /** `namespace\0uri` → the instance holding it. */
  held: Map<string, { instance: I; namespace: string; uri: string }>;
  updates: ResourceUpdate[];
  waiters: Set<() => void>;
  lastPoll: number;
  /** Hears every namespace's list changes (a poll asked with `lists`). */
  watchesLists: boolean;
}

/** The table of subscriptions and each subscriber's queue of updates. */
export class ResourceSubscriptions<I extends SubscribedInstance = SubscribedInstance> {
  #byInstance = new Map<I, Map<string, Set<string>>>();
  /** The open `subscriptions/listen` stream of each URI held on a 2026-07-28 instance. */
  #listens = new Map<I, Map<string, McpSubscription>>();
  #subscribers = new Map<string, Subscriber<I>>();
  #seq = 0;
  #now: () => number;

  /** @param now The clock, in ms (tests pass their own). */
  constructor(now: () => number = Date.now) {
    this.#now = now;
  }

  /**
   * Subscribes `subscriber` to `uri` of `namespace` on `instance`: asks the
   * upstream (`resources/subscribe`) when no one there holds it yet.
   * Subscribing again is a no-op.
   * @throws What the upstream's refusal throws (nothing is held then).
   */
  async subscribe(
    instance: I,
    namespace: string,
    uri: string,
    subscriber: string,
    options: SubscribeOptions = {},
  ): Promise<void> {
    this.#sweep();
    const s = this.#subscriber(subscriber);
    const key = `${namespace}\0${uri}`;
    const before = s.held.get(key);
    if (before?.instance === instance && !instance.closed) return;
    if (before) await this.#release(subscriber, key);
    let uris = this.#byInstance.get(instance);
    if (!uris) this.#byInstance.set(instance, uris = new Map());
    let who = uris.get(uri);
    const first = !who?.size;
    if (!who) uris.set(uri, who = new Set());
    who.add(subscriber);
    s.held.set(key, { instance, namespace, uri });
    if (!first) return;
    try {
      await this.#open(instance, uri, options);
    } catch (error) {
      who.delete(subscriber);
      s.held.delete(key);
      if (!who.size) uris.delete(uri);
      throw error;
    }
  }

  /**
   * Ends `subscriber`'s subscription to `uri` of `namespace`, or all of its
   * subscriptions (and the subscriber) when `uri` is undefined; the upstream
   * hears `resources/unsubscribe` for each URI no one else holds.
   * @returns How many subscriptions ended (0: none was held; not an error).
   */
  async unsubscribe(subscriber: string, namespace?: string, uri?: string): Promise<number> {
    const s = this.#subscribers.get(subscriber);
    if (!s) return 0;
    const keys = uri === undefined
      ? [...s.held.keys()]
      : [`${namespace}\0${uri}`].filter((k) => s.held.has(k));
    await Promise.all(keys.map((key) => this.#release(subscriber, key)));
    if (uri === undefined) {
      this.#subscribers.delete(subscriber);
      for (const wake of [...s.waiters]) wake();
    }
    return keys.length;
  }

  /**
   * The upstream of `instance` said `uri` changed: queued for its subscribers
   * there, once for each namespace a subscriber holds it under.
   */
  updated(instance: I, uri: string): void {
    this.#sweep();
    for (const subscriber of this.#byInstance.get(instance)?.get(uri) ?? []) {
      const s = this.#subscribers.get(subscriber);
      if (!s) continue;
      for (const held of s.held.values()) {
        if (held.instance !== instance || held.uri !== uri) continue;
        this.#queue(s, { seq: ++this.#seq, namespace: held.namespace, uri });
      }
    }
  }

  /**
   * An event of the daemon's bus (engine/event_bus.ts): a `resource.updated`
   * is {@link updated} on the instance its `data.localId` names, a
   * `list.changed` {@link listChanged}; every other kind is ignored. What the
   * MCP view (`mcpx serve`) hears is therefore what `GET /v1/events` shows.
   */
  hear(event: BusEvent): void {
    if (event.kind === "list.changed" && event.server) {
      const list = event.data.list;
      if (list === "tools" || list === "prompts" || list === "resources") {
        this.listChanged(event.server, list);
      }
    } else if (event.kind === "resource.updated" && event.uri) {
      for (const instance of this.#byInstance.keys()) {
        if (instance.id !== undefined && instance.id === event.data.localId) {
          this.updated(instance, event.uri);
        }
      }
    }
  }

  /** A server of `namespace` said its `list` changed: queued for every subscriber watching lists. */
  listChanged(namespace: string, list: ChangedList): void {
    this.#sweep();
    for (const s of this.#subscribers.values()) {
      if (s.watchesLists) this.#queue(s, { seq: ++this.#seq, namespace, list });
    }
  }

  #queue(s: Subscriber<I>, update: ResourceUpdate): void {
    s.updates.push(update);
    if (s.updates.length > UPDATES_KEPT) s.updates.shift();
    for (const wake of [...s.waiters]) wake();
  }

  /**
   * `subscriber`'s updates after `after`: at once when there are some, else
   * when one comes or the subscriber ends, or none once `holdMs` (at most
   * {@link UPDATES_HOLD_MAX_MS}) passes or `signal` aborts. `held` is how
   * many subscriptions it still holds, the watch of the lists counting as
   * one (0: poll no more). Updates up to `after` are forgotten: the caller
   * has them.
   *
   * @param lists Watch every namespace's list changes from now on (a
   *   subscriber is made for it if there is none): the watch lasts while
   *   the subscriber polls, and ends with it.
   */
  async poll(
    subscriber: string,
    after: number,
    holdMs: number,
    signal?: AbortSignal,
    lists = false,
  ): Promise<{ updates: ResourceUpdate[]; held: number }> {
    if (lists) this.#subscriber(subscriber).watchesLists = true;
    const read = () => {
      const s = this.#subscribers.get(subscriber);
      if (!s) return { updates: [], held: 0 };
      s.lastPoll = this.#now();
      s.updates = s.updates.filter((u) => u.seq > after);
      return { updates: [...s.updates], held: s.held.size + (s.watchesLists ? 1 : 0) };
    };
    const now = read();
    const s = this.#subscribers.get(subscriber);
    if (!s || now.updates.length || signal?.aborted || holdMs <= 0) return now;
    await new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        signal?.removeEventListener("abort", done);
        s.waiters.delete(done);
        resolve();
      };
      const timer = setTimeout(done, Math.min(holdMs, UPDATES_HOLD_MAX_MS));
      signal?.addEventListener("abort", done, { once: true });
      s.waiters.add(done);
    });
    return read();
  }

  /** How many subscriptions are held on `instance` (for tests and status). */
  heldOn(instance: I): number {
    let n = 0;
    for (const who of this.#byInstance.get(instance)?.values() ?? []) n += who.size;
    return n;
  }

  /**
   * Asks the upstream for `uri`'s updates: `resources/subscribe` in the 2025
   * era, a `subscriptions/listen` stream of its own in the 2026-07-28 era
   * (the caller's signal is not the stream's: aborting it would end the
   * subscription with the request that made it).
   * @throws {McpxError} `unsupported` when the server acknowledges a listen
   *   without the URI; what the SDK throws when the server refuses.
   */
  async #open(instance: I, uri: string, options: SubscribeOptions): Promise<void> {
    if (instance.client?.getProtocolEra() !== "modern") {
      await instance.request("resources/subscribe", { uri }, options);
      return;
    }
    const stream = await instance.client.listen(
      { resourceSubscriptions: [uri] },
      options.timeoutMs !== undefined ? { timeout: options.timeoutMs } : {},
    );
    if (!stream.honoredFilter.resourceSubscriptions?.includes(uri)) {
      await stream.close().catch(() => {});
      throw new McpxError(
        "unsupported",
        `the server did not take a subscription to ${uri} (its subscriptions/listen ` +
          `acknowledgement leaves the URI out); it may not offer resource subscriptions`,
      );
    }
    let streams = this.#listens.get(instance);
    if (!streams) this.#listens.set(instance, streams = new Map());
    streams.set(uri, stream);
    // Everyone left while the stream opened: nothing holds it any more.
    if (!this.#byInstance.get(instance)?.get(uri)?.size) await this.#close(instance, uri);
  }

  /** Closes `uri`'s listen stream on `instance`; false when none is open (a 2025-era instance). */
  async #close(instance: I, uri: string): Promise<boolean> {
    const streams = this.#listens.get(instance);
    const stream = streams?.get(uri);
    if (!stream) return false;
    streams!.delete(uri);
    if (!streams!.size) this.#listens.delete(instance);
    await stream.close().catch(() => {});
    return true;
  }

  #subscriber(id: string): Subscriber<I> {
    let s = this.#subscribers.get(id);
    if (!s) {
      this.#subscribers.set(
        id,
        s = {
          held: new Map(),
          updates: [],
          waiters: new Set(),
          lastPoll: this.#now(),
          watchesLists: false,
        },
      );
    }
    return s;
  }

  async #release(subscriber: string, key: string): Promise<void> {
    const s = this.#subscribers.get(subscriber);
    const held = s?.held.get(key);
    if (!s || !held) return;
    s.held.delete(key);
    const uris = this.#byInstance.get(held.instance);
    const who = uris?.get(held.uri);
    who?.delete(subscriber);
    if (who?.size) return;
    uris?.delete(held.uri);
    if (uris && !uris.size) this.#byInstance.delete(held.instance);
    if (await this.#close(held.instance, held.uri)) return;
    if (held.instance.closed || held.instance.client?.getProtocolEra() === "modern") return;
    // The upstream's refusal changes nothing here: the subscription is no longer held.
    await held.instance.request("resources/unsubscribe", { uri: held.uri }).catch(() => {});
  }

  /** Forgets closed instances' subscriptions and subscribers gone quiet. */
  #sweep(): void {
    for (const [instance, uris] of this.#byInstance) {
      if (!instance.closed) continue;
      this.#byInstance.delete(instance);
      this.#listens.delete(instance);
      for (const [uri, who] of uris) {
        for (const id of who) {
          this.#subscribers.get(id)?.held.forEach((h, key) => {
            if (h.instance === instance && h.uri === uri) {
              this.#subscribers.get(id)!.held.delete(key);
            }
          });
        }
      }
    }
    const idle = this.#now() - SUBSCRIBER_IDLE_MS;
    for (const [id, s] of this.#subscribers) {
      if (s.waiters.size || s.lastPoll > idle) continue;
      void this.unsubscribe(id);
    }
  }
}

/** The daemon's table (one per daemon process). */
export const resourceSubscriptions: ResourceSubscriptions = new ResourceSubscriptions();

/**
 * Subscribes `subscriber` to `uri` of `namespace` on the instance leased for
 * `ctx` (as `resources/read` leases one: engine/server_request.ts), in the
 * daemon's table.
 *
 * @throws {McpxError} `unsupported` when the server does not declare
 *   `resources.subscribe`; {ServerError} when it refuses; what
 *   {@link serverRequest} throws.
 */
export async function subscribeResource(
  source: RequestSource,
  namespace: string,
  uri: string,
  subscriber: string,
  ctx: CallerContext,
  options: SubscribeOptions = {},
): Promise<void> {
  await serverRequest(
    source,
    namespace,
    ctx,
    { method: "resources/subscribe", target: uri },
    async (instance, run) => {
      const resources = instance.client.getServerCapabilities()?.resources as
        | { subscribe?: boolean }
        | undefined;
      if (!resources?.subscribe) {
        throw new McpxError(
          "unsupported",
          `${instance.spec.namespace} does not offer resource subscriptions ` +
            `(its server does not declare resources.subscribe)`,
        );
      }
      await resourceSubscriptions.subscribe(
        instance,
        instance.spec.namespace,
        uri,
        subscriber,
        run,
      );
    },
    options,
  );
}
