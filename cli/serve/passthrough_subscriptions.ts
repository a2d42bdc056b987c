/**
 * Resource subscriptions through `mcpx serve --passthrough` (decision 0048):
 * a client's `resources/subscribe` and `resources/unsubscribe` are held
 * upstream by the daemon for this connection, and each
 * `notifications/resources/updated` is sent on to the client under the
 * upstream's own URI (MCP 2025-11-25 "Resources", "Subscriptions"). The
 * machinery is cli/serve/subscription_relay.ts, which plain serve uses too.
 *
 * @module
 */

import type { Server, ServerContext } from "@modelcontextprotocol/server";
import {
  protocolErrorOf,
  subscriptionRelay,
  type SubscriptionSource,
} from "./subscription_relay.ts";

export { subscriptionsSettled, UPDATES_POLL_MS } from "./subscription_relay.ts";
export type { SubscriptionSource } from "./subscription_relay.ts";

/**
 * Answers `resources/subscribe` and `resources/unsubscribe` on `server` for
 * `namespace`'s upstream, as one subscriber: the connection `server` serves.
 * An upstream without subscriptions answers method-not-found (-32601).
 *
 * @param caller The caller fields a request leases as (its mcpx session).
 * @returns `close`: ends the connection's subscriptions and its relay (call
 *   it when the connection closes; `subscriptionsSettled` waits for it).
 */
export function passthroughSubscriptions(
  ctx: SubscriptionSource,
  server: Server,
  namespace: string,
  caller: (sctx: ServerContext) => Record<string, unknown>,
): { close(): Promise<void> } {
  const relay = subscriptionRelay(ctx, {
    resourceUpdated: (_namespace, uri) => server.sendResourceUpdated({ uri }),
  });
  const answer = async (send: () => Promise<void>) => {
    try {
      await send();
    } catch (error) {
      throw protocolErrorOf(error);
    }
    return {};
  };
  server.setRequestHandler(
    "resources/subscribe",
    (request, sctx) => answer(() => relay.subscribe(namespace, request.params.uri, caller(sctx))),
  );
  server.setRequestHandler(
    "resources/unsubscribe",
    (request, sctx) => answer(() => relay.unsubscribe(namespace, request.params.uri, caller(sctx))),
  );
  return { close: () => relay.close() };
}
