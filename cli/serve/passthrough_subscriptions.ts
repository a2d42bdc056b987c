/**
 * Resource subscriptions through `mcpx serve --passthrough` (decision 0048):
 * a client's `resources/subscribe` and `resources/unsubscribe` are held
 * upstream by the daemon for this connection (engine/resource_subscriptions.ts,
 * the routes of ops/subscription_routes.ts), and while the connection holds
 * any, this module long-polls the daemon's `resourceUpdates` and sends each
 * `notifications/resources/updated` on to the client (MCP 2025-11-25
 * "Resources", "Subscriptions"). The connection's subscriptions end when it
 * closes; a daemon that lost them (restarted) answers that none are held,
 * and the relay stops.
 *
 * @module
 */

import { ProtocolError, ProtocolErrorCode, type Server } from "@modelcontextprotocol/server";
import type { ServerContext } from "@modelcontextprotocol/server";
import type { CliContext } from "../context.ts";
import { McpxError } from "../../core/errors.ts";

/** How long each `resourceUpdates` poll is held, in ms. */
export const UPDATES_POLL_MS = 10_000;

/** Connections' subscriptions still being ended with the daemon. */
const closing = new Set<Promise<void>>();

/** Resolves once every closed connection's subscriptions are ended (await before exiting). */
export async function subscriptionsSettled(): Promise<void> {
  await Promise.all(closing);
}

/** What of the CLI context the subscriptions use: the daemon request. */
export type SubscriptionSource = Pick<CliContext, "request">;

/**
 * Answers `resources/subscribe` and `resources/unsubscribe` on `server` for
 * `namespace`'s upstream, as one subscriber: the connection `server` serves.
 *
 * @param caller The caller fields a request leases as (its mcpx session).
 * @returns `close`: ends the connection's subscriptions and its relay (call
 *   it when the connection closes; {@link subscriptionsSettled} waits for it).
 */
export function passthroughSubscriptions(
  ctx: SubscriptionSource,
  server: Server,
  namespace: string,
  caller: (sctx: ServerContext) => Record<string, unknown>,
): { close(): Promise<void> } {
  const subscriber = `passthrough-${crypto.randomUUID()}`;
  const uris = new Set<string>();
  let closed = false;
  let relay: Promise<void> | undefined;

  const run = async () => {
    let after = 0;
    while (!closed && uris.size) {
      const answer = await ctx.request<{ updates: { seq: number; uri: string }[]; held: number }>(
        "resourceUpdates",
        { subscriber, after, holdMs: UPDATES_POLL_MS },
      ).catch(() => undefined);
      if (!answer || answer.held === 0) {
        // The daemon holds none for this connection (it restarted, or dropped them): start over.
        uris.clear();
        break;
      }
      for (const update of answer.updates) {
        after = Math.max(after, update.seq);
        if (!closed && uris.has(update.uri)) {
          await server.sendResourceUpdated({ uri: update.uri }).catch(() => {});
        }
      }
    }
    relay = undefined;
  };

  server.setRequestHandler("resources/subscribe", async (request, sctx) => {
    const uri = request.params.uri;
    await daemonRequest(() =>
      ctx.request("resourceSubscribe", { ...caller(sctx), namespace, uri, subscriber })
    );
    uris.add(uri);
    relay ??= run();
    return {};
  });
  server.setRequestHandler("resources/unsubscribe", async (request, sctx) => {
    const uri = request.params.uri;
    uris.delete(uri);
    await daemonRequest(() =>
      ctx.request("resourceUnsubscribe", { ...caller(sctx), namespace, uri, subscriber })
    );
    return {};
  });

  const end = async () => {
    const held = uris.size;
    uris.clear();
    // Ending the subscriber answers its waiting poll at once.
    if (held) await ctx.request("resourceUnsubscribe", { subscriber }).catch(() => {});
    await relay;
  };
  return {
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
 * A daemon request answering a client's subscription request: an upstream
 * that offers no subscriptions is method-not-found (-32601), one that refused
 * the URI invalid params (-32602), anything else an internal error naming
 * what mcpx said.
 */
async function daemonRequest<T>(send: () => Promise<T>): Promise<T> {
  try {
    return await send();
  } catch (error) {
    if (!(error instanceof McpxError)) throw error;
    const data = (error as { data?: { code?: unknown; serverError?: { code?: unknown } } }).data;
    const code = data?.code ?? data?.serverError?.code;
    throw new ProtocolError(
      error.code === "unsupported"
        ? ProtocolErrorCode.MethodNotFound
        : code === ProtocolErrorCode.InvalidParams || code === -32002
        ? ProtocolErrorCode.InvalidParams
        : ProtocolErrorCode.InternalError,
      error.message,
    );
  }
}
