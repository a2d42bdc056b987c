import assert from "node:assert/strict";
import { EventBus } from "./event_bus.ts";
import { SessionEvents } from "./session_events.ts";

Deno.test("SessionEvents opens a key once, closes it with why, and opens it again when used after", () => {
  const bus = new EventBus({ epoch: "e" });
  const sessions = new SessionEvents(bus);
  sessions.seen("alpha");
  sessions.seen("alpha");
  sessions.seen("");
  sessions.closed("alpha", "session-end", 2);
  sessions.seen("alpha", { named: true });
  const reader = bus.reader({ seq: 0 });
  const told = [reader.poll(), reader.poll(), reader.poll(), reader.poll()];
  assert.deepEqual(told.map((e) => e && [e.kind, e.session, e.data]), [
    ["session.opened", "alpha", {}],
    ["session.closed", "alpha", { why: "session-end", instances: 2 }],
    ["session.opened", "alpha", { named: true }],
    undefined,
  ]);
  assert.equal(sessions.size, 1);
});
