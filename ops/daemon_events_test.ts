import assert from "node:assert/strict";
import { eventFilter, eventPosition, eventStream } from "./daemon_events.ts";
import { emptyDaemon } from "../engine/_empty_daemon.ts";
import type { BusEvent } from "../engine/event_bus.ts";

Deno.test("eventPosition() reads a number or an id, none as live only, and names a bad value", () => {
  assert.equal(eventPosition(undefined), undefined);
  assert.deepEqual(eventPosition("0"), { seq: 0 });
  assert.deepEqual(eventPosition("a1b2-17"), { epoch: "a1b2", seq: 17 });
  assert.throws(() => eventPosition("abc"), /since must be a sequence number .* got "abc"/);
});

Deno.test("eventFilter() takes kinds and families and names the nearest for a typo", () => {
  assert.deepEqual(eventFilter({ kind: ["server", "call.finished"], server: ["fs"] }), {
    kinds: ["server", "call.finished"],
    servers: ["fs"],
  });
  assert.deepEqual(eventFilter({}), {});
  assert.throws(
    () => eventFilter({ kind: ["sever"] }),
    /"sever" is no event kind; did you mean server/,
  );
  assert.deepEqual(eventFilter({ server: ["fs"] }, ["fs", "git"]), { servers: ["fs"] });
  assert.throws(
    () => eventFilter({ server: ["gti"] }, ["fs", "git"]),
    /"gti" is no namespace of this configuration; did you mean git/,
  );
});

/** Everything `stream` yields until it ends. */
async function drain(stream: AsyncIterable<BusEvent>): Promise<BusEvent[]> {
  const out: BusEvent[] = [];
  for await (const event of stream) out.push(event);
  return out;
}

Deno.test("eventStream() replays from a position, follows until its signal aborts, and ends at shutdown", async () => {
  const { daemon, dir } = await emptyDaemon();
  try {
    daemon.events.publish("call.started", { server: "a" });
    daemon.events.publish("call.finished", { server: "b" });
    const never = new AbortController().signal;
    // Not following: what is retained after the position, then the end.
    const all = await drain(eventStream(daemon, { since: "0", follow: false }, never));
    assert.deepEqual(all.map((e) => e.seq), [1, 2]);
    const filtered = await drain(
      eventStream(daemon, { since: "0", follow: false, kind: ["call.finished"] }, never),
    );
    assert.deepEqual(filtered.map((e) => e.kind), ["call.finished"]);
    assert.deepEqual(await drain(eventStream(daemon, { follow: false }, never)), [], "live only");
    // Last-Event-ID is the position when since is absent.
    const resumed = await drain(
      eventStream(daemon, { follow: false }, never, `${daemon.events.epoch}-1`),
    );
    assert.deepEqual(resumed.map((e) => e.seq), [2]);
    // Following: a new event arrives; the client leaving ends it.
    const left = new AbortController();
    const iterator = eventStream(daemon, {}, left.signal)[Symbol.asyncIterator]();
    const next = iterator.next();
    daemon.events.publish("session.opened", { session: "s" });
    assert.equal((await next).value?.kind, "session.opened");
    const waiting = iterator.next();
    left.abort();
    assert.equal((await waiting).done, true);
    // The daemon shutting down ends every stream.
    const open = eventStream(daemon, {}, never)[Symbol.asyncIterator]().next();
    await daemon.shutdown();
    assert.equal((await open).done, true);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
