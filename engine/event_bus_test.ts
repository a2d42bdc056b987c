import assert from "node:assert/strict";
import { EventBus, eventMatches, parseEventPosition } from "./event_bus.ts";

function fill(bus: EventBus, n: number) {
  for (let i = 0; i < n; i++) bus.publish("call.finished", { server: i % 2 ? "a" : "b" });
}

Deno.test("EventBus numbers events from 1 and ids carry the epoch", () => {
  const bus = new EventBus({ epoch: "e1", now: () => 5 });
  const first = bus.publish("server.started", { server: "fs" });
  assert.deepEqual(first, {
    id: "e1-1",
    seq: 1,
    kind: "server.started",
    at: 5,
    server: "fs",
    data: {},
  });
  assert.deepEqual(bus.publish("server.stopped").seq, 2);
});

Deno.test("EventBus.reader() with no position is live only; seq 0 replays all kept", () => {
  const bus = new EventBus({ epoch: "e" });
  fill(bus, 3);
  const live = bus.reader();
  const all = bus.reader({ seq: 0 });
  assert.deepEqual(live.poll(), undefined);
  assert.deepEqual([all.poll()?.seq, all.poll()?.seq, all.poll()?.seq, all.poll()], [
    1,
    2,
    3,
    undefined,
  ]);
  fill(bus, 1);
  assert.deepEqual(live.poll()?.seq, 4);
});

Deno.test("EventBus.reader() from a position older than the ring starts with a gap", () => {
  const bus = new EventBus({ epoch: "e", retention: 5 });
  fill(bus, 12);
  const reader = bus.reader({ epoch: "e", seq: 3 });
  const gap = reader.poll();
  assert.deepEqual([gap?.kind, gap?.seq, gap?.data.missed, gap?.data.reason], [
    "gap",
    7,
    4,
    "retention",
  ]);
  assert.deepEqual(reader.poll()?.seq, 8);
});

Deno.test("EventBus.reader() from another daemon's epoch gets a gap, then everything kept", () => {
  const bus = new EventBus({ epoch: "new", retention: 5 });
  fill(bus, 3);
  const reader = bus.reader({ epoch: "old", seq: 900 });
  assert.deepEqual([reader.poll()?.data.reason, reader.poll()?.seq], ["epoch", 1]);
});

Deno.test("EventReader that lags past the ring counts what it missed; publish never waits", () => {
  const bus = new EventBus({ epoch: "e", retention: 4 });
  const reader = bus.reader({ seq: 0 });
  fill(bus, 10);
  const gap = reader.poll();
  assert.deepEqual([gap?.data.reason, gap?.data.missed, reader.missed], ["behind", 6, 6]);
  assert.deepEqual([7, 8, 9, 10].map(() => reader.poll()?.seq), [7, 8, 9, 10]);
});

Deno.test("EventReader.next() waits for the next matching event and stops on abort", async () => {
  const bus = new EventBus({ epoch: "e" });
  const reader = bus.reader(undefined, { servers: ["a"] });
  const next = reader.next();
  fill(bus, 2); // b, then a
  assert.deepEqual((await next)?.server, "a");
  const controller = new AbortController();
  const waiting = reader.next(controller.signal);
  controller.abort();
  assert.deepEqual(await waiting, undefined);
});

Deno.test("eventMatches() matches a kind family, servers and sessions", () => {
  const bus = new EventBus({ epoch: "e" });
  const event = bus.publish("server.crashed", { server: "fs", session: "s1" });
  assert.deepEqual(eventMatches(event, { kinds: ["server"] }), true);
  assert.deepEqual(eventMatches(event, { kinds: ["serv"] }), false);
  assert.deepEqual(eventMatches(event, { kinds: ["call"], servers: ["fs"] }), false);
  assert.deepEqual(eventMatches(event, { servers: ["fs"], sessions: ["s2"] }), false);
});

Deno.test("parseEventPosition() reads Last-Event-ID and since forms", () => {
  assert.deepEqual(parseEventPosition("ab12-40"), { epoch: "ab12", seq: 40 });
  assert.deepEqual(parseEventPosition("0"), { seq: 0 });
  assert.deepEqual(parseEventPosition("x"), undefined);
  assert.deepEqual(parseEventPosition("ab-"), undefined);
});

Deno.test("EventBus refuses a retention that is not a positive integer", () => {
  assert.throws(() => new EventBus({ retention: 0 }), {
    name: "RangeError",
    message: /events\.retention/,
  });
});

Deno.test("EventBus.publish() goes on when a listener throws", () => {
  const bus = new EventBus();
  const heard: number[] = [];
  bus.listen(() => {
    throw new Error("boom");
  });
  bus.listen((e) => heard.push(e.seq));
  bus.publish("config.reloaded");
  assert.deepEqual(heard, [1]);
});
