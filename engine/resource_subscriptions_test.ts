import assert from "node:assert/strict";
import {
  ResourceSubscriptions,
  type ResourceUpdate,
  type SubscribedInstance,
  SUBSCRIBER_IDLE_MS,
} from "./resource_subscriptions.ts";

/** The URI of a resource update (a list change has none). */
const uriOf = (u: ResourceUpdate) => "uri" in u ? u.uri : undefined;

/** An instance that records the requests it is sent. */
function instance(refuse?: string): SubscribedInstance & { sent: string[]; closed: boolean } {
  const sent: string[] = [];
  return {
    closed: false,
    sent,
    request(method: string, params: Record<string, unknown>) {
      sent.push(`${method} ${params.uri}`);
      if (refuse && params.uri === refuse) return Promise.reject(new Error("no such resource"));
      return Promise.resolve({});
    },
  };
}

Deno.test("ResourceSubscriptions holds one upstream subscription per (instance, URI) for every subscriber, and queues its updates for each", async () => {
  const table = new ResourceSubscriptions();
  const a = instance();
  await table.subscribe(a, "ns", "test://w", "one");
  await table.subscribe(a, "ns", "test://w", "two");
  await table.subscribe(a, "ns", "test://w", "two");
  assert.deepEqual(a.sent, ["resources/subscribe test://w"], "asked upstream once");
  assert.equal(table.heldOn(a), 2);

  const waiting = table.poll("one", 0, 60_000);
  table.updated(a, "test://w");
  table.updated(a, "test://other");
  const first = await waiting;
  assert.deepEqual(first.updates.map(uriOf), ["test://w"]);
  assert.equal(first.held, 1);
  const two = await table.poll("two", 0, 0);
  assert.deepEqual(two.updates.map(uriOf), ["test://w"]);
  assert.deepEqual(
    (await table.poll("one", first.updates[0].seq, 0)).updates,
    [],
    "read: forgotten",
  );

  assert.equal(await table.unsubscribe("one", "ns", "test://w"), 1);
  assert.deepEqual(a.sent, ["resources/subscribe test://w"], "another subscriber still holds it");
  assert.equal(
    await table.unsubscribe("one", "ns", "test://w"),
    0,
    "again: nothing held, no error",
  );
  // A waiting poll is answered when its subscriber ends.
  const held = table.poll("two", two.updates[0].seq, 60_000);
  assert.equal(await table.unsubscribe("two"), 1);
  assert.deepEqual(await held, { updates: [], held: 0 });
  assert.deepEqual(a.sent, ["resources/subscribe test://w", "resources/unsubscribe test://w"]);
  assert.equal(table.heldOn(a), 0);
});

Deno.test("ResourceSubscriptions holds nothing the upstream refused, forgets a closed instance's, and drops a subscriber that stopped polling", async () => {
  let now = 0;
  const table = new ResourceSubscriptions(() => now);
  const a = instance("test://missing");
  await assert.rejects(table.subscribe(a, "ns", "test://missing", "s"), /no such resource/);
  assert.equal(table.heldOn(a), 0);

  await table.subscribe(a, "ns", "test://w", "s");
  a.closed = true;
  const b = instance();
  // The same subscriber on the instance that replaced it: asked anew, nothing sent to the closed one.
  await table.subscribe(b, "ns", "test://w", "s");
  assert.deepEqual(a.sent, ["resources/subscribe test://missing", "resources/subscribe test://w"]);
  assert.deepEqual(b.sent, ["resources/subscribe test://w"]);
  assert.equal(table.heldOn(a), 0);

  now += SUBSCRIBER_IDLE_MS + 1;
  table.updated(b, "test://w");
  await Promise.resolve();
  assert.deepEqual(b.sent, ["resources/subscribe test://w", "resources/unsubscribe test://w"]);
  assert.deepEqual(await table.poll("s", 0, 0), { updates: [], held: 0 });
});

/** A 2026-07-28 instance: no resources/subscribe; each listen stream is recorded, open or closed. */
function modernInstance(honour = true) {
  const sent: string[] = [];
  const instance = {
    closed: false,
    sent,
    request(method: string) {
      sent.push(method);
      return Promise.reject(new Error(`${method} is not supported (wire era 2026-07-28)`));
    },
    client: {
      getProtocolEra: () => "modern" as const,
      listen(filter: { resourceSubscriptions?: string[] }) {
        const uris = filter.resourceSubscriptions ?? [];
        sent.push(`listen ${uris.join(" ")}`);
        return Promise.resolve({
          honoredFilter: honour ? { resourceSubscriptions: uris } : {},
          closed: new Promise<never>(() => {}),
          close: () => {
            sent.push(`close ${uris.join(" ")}`);
            return Promise.resolve();
          },
        });
      },
    },
  };
  return instance as unknown as SubscribedInstance & { sent: string[]; closed: boolean };
}

Deno.test("ResourceSubscriptions holds a 2026-07-28 instance's subscription as one subscriptions/listen stream per URI, closed when its last subscriber leaves", async () => {
  const table = new ResourceSubscriptions();
  const a = modernInstance();
  await table.subscribe(a, "ns", "test://w", "one");
  await table.subscribe(a, "ns", "test://w", "two");
  await table.subscribe(a, "ns", "test://v", "two");
  assert.deepEqual(a.sent, ["listen test://w", "listen test://v"]);
  table.updated(a, "test://w");
  assert.deepEqual((await table.poll("one", 0, 0)).updates.map(uriOf), ["test://w"]);

  await table.unsubscribe("one", "ns", "test://w");
  assert.deepEqual(a.sent, ["listen test://w", "listen test://v"], "two still holds test://w");
  await table.unsubscribe("two");
  assert.deepEqual(a.sent.slice(2).sort(), ["close test://v", "close test://w"]);
  assert.equal(table.heldOn(a), 0);

  const refusing = modernInstance(false);
  await assert.rejects(table.subscribe(refusing, "ns", "test://w", "s"), /did not take/);
  assert.deepEqual(refusing.sent, ["listen test://w", "close test://w"]);
  assert.equal(table.heldOn(refusing), 0);
});

Deno.test("ResourceSubscriptions names each update's namespace, and queues list changes for a subscriber that polls with lists", async () => {
  const table = new ResourceSubscriptions();
  const a = instance();
  await table.subscribe(a, "ns", "test://w", "s");
  // Not watching yet: a list change is not queued.
  table.listChanged("ns", "prompts");
  assert.deepEqual(await table.poll("s", 0, 0), { updates: [], held: 1 });

  assert.deepEqual(await table.poll("s", 0, 0, undefined, true), { updates: [], held: 2 });
  table.updated(a, "test://w");
  table.listChanged("other", "resources");
  const { updates } = await table.poll("s", 0, 0);
  assert.deepEqual(updates.map(({ seq: _, ...u }) => u), [
    { namespace: "ns", uri: "test://w" },
    { namespace: "other", list: "resources" },
  ]);

  // A watcher that holds no subscription is made by its first poll, and kept while it polls.
  const waiting = table.poll("watcher", 0, 60_000, undefined, true);
  table.listChanged("ns", "tools");
  assert.deepEqual((await waiting).updates.map((u) => "list" in u && u.list), ["tools"]);
  assert.equal(await table.unsubscribe("watcher"), 0, "no subscription held, the watch ends");
  assert.deepEqual(await table.poll("watcher", 0, 0), { updates: [], held: 0 });
});

Deno.test("ResourceSubscriptions.hear() queues a bus's resource.updated for the instance it names, and its list.changed for list watchers", async () => {
  const { EventBus } = await import("./event_bus.ts");
  const bus = new EventBus({ epoch: "e" });
  const table = new ResourceSubscriptions();
  const a = { ...instance(), id: "i1" };
  const b = { ...instance(), id: "i2" };
  await table.subscribe(a, "ns", "test://w", "one");
  await table.subscribe(b, "ns", "test://w", "two");
  const off = bus.listen((event) => table.hear(event));
  bus.publish("resource.updated", { server: "ns", uri: "test://w", data: { localId: "i1" } });
  bus.publish("call.finished", { server: "ns", data: {} });
  assert.deepEqual((await table.poll("one", 0, 0)).updates.map(uriOf), ["test://w"]);
  assert.deepEqual((await table.poll("two", 0, 0)).updates, [], "another instance's URI");
  await table.poll("two", 0, 0, undefined, true);
  bus.publish("list.changed", { server: "ns", data: { list: "prompts", localId: "i2" } });
  bus.publish("list.changed", { server: "ns", data: { list: "nonsense" } });
  const lists = (await table.poll("two", 0, 0)).updates;
  assert.deepEqual(lists.map((u) => "list" in u ? u.list : u.uri), ["prompts"]);
  off();
  await table.unsubscribe("one");
  await table.unsubscribe("two");
});
