import * as assert from "node:assert/strict";
import { type ParentWatchHost, watchParent } from "./parent_watch.ts";

/** A host whose parent, timers and signals the test drives by hand. */
function fakeHost(ppid: number) {
  const log: string[] = [];
  const state = { ppid, tick: undefined as (() => void) | undefined, later: [] as (() => void)[] };
  const host: ParentWatchHost = {
    ppid: () => state.ppid,
    every: (_ms, fn) => void (state.tick = fn),
    after: (_ms, fn) => void state.later.push(fn),
    terminate: () => void log.push("SIGTERM"),
    exit: (code) => void log.push(`exit ${code}`),
  };
  return { host, log, state };
}

Deno.test("watchParent() sends SIGTERM once the parent is gone, then ends the runtime after the grace", () => {
  const { host, log, state } = fakeHost(4242);
  assert.equal(watchParent(4242, host), true);
  state.tick!();
  assert.deepEqual(log, [], "the parent is still mcpx");
  state.ppid = 1;
  state.tick!();
  state.tick!();
  assert.deepEqual(log, ["SIGTERM"], "one SIGTERM, however many ticks follow");
  for (const fn of state.later) fn();
  assert.deepEqual(log, ["SIGTERM", "exit 143"]);
});

Deno.test("watchParent() does not start when the parent is not the mcpx that set MCPX_PID", () => {
  // The sandbox (bwrap is the parent), a program the script started, or no mcpx at all.
  assert.equal(watchParent(4242, fakeHost(1).host), false);
  assert.equal(watchParent(undefined, fakeHost(4242).host), false);
});
