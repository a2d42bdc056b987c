import assert from "node:assert/strict";
import type { Server, ServerContext } from "@modelcontextprotocol/server";
import { passthroughSubscriptions, subscriptionsSettled } from "./passthrough_subscriptions.ts";
import { ResourceSubscriptions } from "../../engine/resource_subscriptions.ts";

Deno.test("passthroughSubscriptions() holds the client's subscriptions upstream through the daemon's table, passes each update on, and ends them when the connection closes", async () => {
  const upstream = {
    closed: false,
    sent: [] as string[],
    request(method: string, params: Record<string, unknown>) {
      this.sent.push(`${method} ${params.uri}`);
      return Promise.resolve({});
    },
  };
  const table = new ResourceSubscriptions();
  // The daemon's subscription routes (ops/daemon_subscriptions.ts) over one instance.
  const ctx = {
    request<T>(operation: string, params: Record<string, unknown> = {}): Promise<T> {
      const p = params as { uri?: string; subscriber: string; after: number; holdMs: number };
      switch (operation) {
        case "resourceSubscribe":
          return table.subscribe(upstream, "ns", p.uri!, p.subscriber).then(() => ({}) as T);
        case "resourceUnsubscribe":
          return table.unsubscribe(p.subscriber, "ns", p.uri).then((ended) => ({ ended }) as T);
        case "resourceUpdates":
          return table.poll(p.subscriber, p.after, p.holdMs) as Promise<T>;
      }
      throw new Error(`unexpected ${operation}`);
    },
  };
  const handlers = new Map<string, (r: unknown, s: ServerContext) => Promise<unknown>>();
  let heard = Promise.withResolvers<string>();
  const server = {
    setRequestHandler: (method: string, h: (r: unknown, s: ServerContext) => Promise<unknown>) =>
      handlers.set(method, h),
    sendResourceUpdated: ({ uri }: { uri: string }) => {
      heard.resolve(uri);
      return Promise.resolve();
    },
  } as unknown as Server;
  const subscriptions = passthroughSubscriptions(ctx, server, "ns", () => ({ session: "s" }));
  const ask = (method: string, uri: string) =>
    handlers.get(method)!({ params: { uri } }, {} as ServerContext);

  assert.deepEqual(await ask("resources/subscribe", "test://w"), {});
  assert.deepEqual(await ask("resources/subscribe", "test://v"), {});
  table.updated(upstream, "test://w");
  assert.equal(await heard.promise, "test://w");
  heard = Promise.withResolvers<string>();
  assert.deepEqual(await ask("resources/unsubscribe", "test://w"), {});
  table.updated(upstream, "test://v");
  assert.equal(await heard.promise, "test://v");
  assert.deepEqual(upstream.sent, [
    "resources/subscribe test://w",
    "resources/subscribe test://v",
    "resources/unsubscribe test://w",
  ]);
  await subscriptions.close();
  await subscriptionsSettled();
  assert.deepEqual(upstream.sent.at(-1), "resources/unsubscribe test://v", "closing ends the rest");
});
