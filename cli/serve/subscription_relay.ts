/**
 * What the daemon's table of resource subscriptions (engine/resource_subscriptions.ts)
 * tells one client connection of `mcpx serve`, passed on to that client:
 * the connection is one subscriber of the table; its `resources/subscribe`
 * and `resources/unsubscribe` are held upstream by the daemon
 * (`resourceSubscribe`, `resourceUnsubscribe`), and while it holds any, or
 * watches the lists, this module long-polls the daemon's `resourceUpdates`
 * and hands each update to the connection: a resource that changed
 * (`notifications/resources/updated`), or a namespace's list that changed
 * (`notifications/{prompts,resources}/list_changed` of serve's merged
 * lists). `--passthrough` (decision 0048) and plain serve (decision 0073)
 * both use it: one machinery, two ways of naming a resource.
 *
 * The connection's subscriptions end when it closes; a daemon that lost them
 * (it restarted) answers that fewer are held, and the relay forgets them.
 *
 * @module
 */

import { ProtocolError, ProtocolErrorCode } from "@modelcontextprotocol/server";
import type { CliContext } from "../context.ts";
import { McpxError } from "../../core/errors.ts";
import type { ChangedList } from "../../engine/server_notifications.ts";

/** How long each `resourceUpdates` poll is held, in ms. */
export const UPDATES_POLL_MS = 10_000;

/** Connections' subscriptions still being ended with the daemon. */
const closing = new Set<Promise<void>>();

/** Resolves once every closed connection's subscriptions are ended (await before exiting). */
export async function subscriptionsSettled(): Promise<void> {
  await Promise.all(closing);
}

/** What of the CLI context the relay uses: the daemon request. */
export type SubscriptionSource = Pick<CliContext, "request">;

/** Where the relay hands what the daemon says changed (each awaited in order). */
export interface RelayTarget {
  /** A resource of `namespace` the connection subscribed to changed (`uri` is the upstream's). */
  resourceUpdated(namespace: string, uri: string): Promise<void>;
  /** `list` of `namespace` changed (only once {@link SubscriptionRelay.watchLists} was called). */
  listChanged?(namespace: string, list: ChangedList): Promise<void>;
}

/** One connection's subscriptions and watch, as one subscriber of the daemon's table. */
export interface SubscriptionRelay {
  /**
   * Holds `uri` of `namespace` upstream for this connection.
   * @param caller The caller fields the request leases as (its mcpx session).
   * @throws What the daemon's `resourceSubscribe` throws (see {@link protocolErrorOf}).
   */
  subscribe(namespace: string, uri: string, caller: Record<string, unknown>): Promise<void>;
  /** Ends this connection's subscription to `uri` of `namespace` (none held: nothing happens). */
  unsubscribe(namespace: string, uri: string, caller: Record<string, unknown>): Promise<void>;
  /** Hears every namespace's list changes from now on, until the connection closes. */
  watchLists(): void;
  /** Ends the connection's subscriptions, its watch and its relay ({@link subscriptionsSettled} waits). */
  close(): Promise<void>;
}

/** A poll's update, as the `resourceUpdates` route answers it. */
type Update =
  & { seq: number; namespace: string }
  & ({ uri: string } | { list: ChangedList });

/**
 * The relay of one client connection, a subscriber of its own in the
 * daemon's table.
 */
export function subscriptionRelay(ctx: SubscriptionSource, target: RelayTarget): SubscriptionRelay {
  const subscriber = `serve-${crypto.randomUUID()}`;
  /** `namespace\0uri` of what the connection holds. */
  const held = new Set<string>();
  let watching = false;
  let closed = false;
  let relay: Promise<void> | undefined;

  const run = async () => {
    let after = 0;
    while (!closed && (held.size || watching)) {
      const answer = await ctx.request<{ updates: Update[]; held: number }>(
        "resourceUpdates",
        { subscriber, after, holdMs: UPDATES_POLL_MS, ...(watching ? { lists: true } : {}) },
      ).catch(() => undefined);
      if (!answer) {
        // No daemon answers: the subscriptions are gone with it; the next listing watches again.
        held.clear();
        watching = false;
        break;
      }
      // The daemon holds fewer than this connection asked for (it restarted): they are gone.
      if (answer.held < held.size + (watching ? 1 : 0)) held.clear();
      for (const update of answer.updates) {
        after = Math.max(after, update.seq);
        if (closed) break;
        if ("uri" in update) {
          if (held.has(`${update.namespace}\0${update.uri}`)) {
            await target.resourceUpdated(update.namespace, update.uri).catch(() => {});
          }
        } else if (watching) {
          await target.listChanged?.(update.namespace, update.list).catch(() => {});
        }
      }
    }
    relay = undefined;
  };

  const end = async () => {
    const had = held.size || watching;
    held.clear();
    watching = false;
    // Ending the subscriber answers its waiting poll at once.
    if (had) await ctx.request("resourceUnsubscribe", { subscriber }).catch(() => {});
    await relay;
  };

  return {
    async subscribe(namespace, uri, caller) {
      await ctx.request("resourceSubscribe", { ...caller, namespace, uri, subscriber });
      if (closed) return;
      held.add(`${namespace}\0${uri}`);
      relay ??= run();
    },
    async unsubscribe(namespace, uri, caller) {
      held.delete(`${namespace}\0${uri}`);
      await ctx.request("resourceUnsubscribe", { ...caller, namespace, uri, subscriber });
    },
    watchLists() {
      if (closed || watching) return;
      watching = true;
      relay ??= run();
    },
    close() {
      if (closed) return Promise.resolve();
      closed = true;
      const ending = end();
      closing.add(ending);
      return ending.finally(() => closing.delete(ending));
    },
  };
}

/**
 * A daemon's refusal of a subscription request as the client hears it: an
 * upstream that offers no subscriptions (`unsupported`) is `unsupported`'s
 * code, one that refused the URI invalid params (-32602), anything else an
 * internal error naming what mcpx said. Anything not from the daemon is
 * thrown as it is.
 *
 * @param unsupported The code for an upstream without subscriptions: the
 *   passthrough, whose one upstream has none, answers method-not-found;
 *   plain serve, where another namespace may have them, invalid params.
 */
export function protocolErrorOf(
  error: unknown,
  unsupported: number = ProtocolErrorCode.MethodNotFound,
): unknown {
  if (!(error instanceof McpxError)) return error;
  const data = (error as { data?: { code?: unknown; serverError?: { code?: unknown } } }).data;
  const code = data?.code ?? data?.serverError?.code;
  return new ProtocolError(
    error.code === "unsupported"
      ? unsupported
      : code === ProtocolErrorCode.InvalidParams || code === -32002
      ? ProtocolErrorCode.InvalidParams
      : ProtocolErrorCode.InternalError,
    error.message,
  );
}
