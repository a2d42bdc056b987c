/**
 * The handlers of the subscription routes (ops/subscription_routes.ts),
 * spread into ops/daemon_ops.ts's table: each reaches the daemon's table of
 * resource subscriptions (engine/resource_subscriptions.ts, decision 0048).
 *
 * @module
 */

import type { RouteHandler } from "./route_handler.ts";
import type { SUBSCRIPTION_ROUTES } from "./subscription_routes.ts";
import { callerOf } from "./caller_schema.ts";
import { resourceSubscriptions, subscribeResource } from "../engine/resource_subscriptions.ts";

type Routes = typeof SUBSCRIPTION_ROUTES;

/** The subscription routes' handlers, by route name. */
export const SUBSCRIPTION_HANDLERS: { [K in keyof Routes]: RouteHandler<Routes[K]> } = {
  resourceSubscribe: async (d, p, signal) => {
    await subscribeResource(d.requests, p.namespace, p.uri, p.subscriber, callerOf(p), {
      signal,
      ...(p.timeoutMs !== undefined ? { timeoutMs: p.timeoutMs } : {}),
    });
    return { subscribed: true as const };
  },
  resourceUnsubscribe: async (_d, p) => ({
    ended: await resourceSubscriptions.unsubscribe(p.subscriber, p.namespace, p.uri),
  }),
  resourceUpdates: (_d, p, signal) =>
    resourceSubscriptions.poll(p.subscriber, p.after, p.holdMs, signal, p.lists),
};
