import assert from "node:assert/strict";
import { askingCall } from "./asking_call.ts";
import { PendingCall } from "./pending_call.ts";

const a = new PendingCall("s.a", "alice");
const b = new PendingCall("s.b", "bob");
const c = new PendingCall("s.c", "carol");

Deno.test("askingCall() tells the one call that can have asked, and none while several can", () => {
  const cases: [string, PendingCall[], PendingCall[], PendingCall[], PendingCall | undefined][] = [
    ["the only call in flight", [a], [a], [], a],
    ["the only one, though it waits on a question of its own", [a], [a], [a], a],
    ["two free calls: either may have asked", [a, b], [a, b], [], undefined],
    ["the other ended", [a, b], [a], [], a],
    ["the other waits on its own question", [a, b], [a, b], [b], a],
    ["both wait on their own questions", [a, b], [a, b], [a, b], undefined],
    ["a call that started after the question is no candidate", [a, b], [a, c], [], a],
    ["no candidate is in flight", [a, b], [c], [], undefined],
  ];
  for (const [what, candidates, inFlight, waiting, told] of cases) {
    assert.equal(askingCall(candidates, new Set(inFlight), new Set(waiting)), told, what);
  }
});
