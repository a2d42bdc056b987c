import assert from "node:assert/strict";
import { taskMode } from "./call_as_task.ts";
import { isTerminal, POLL_BOUNDS_MS, pollInterval } from "./task_call.ts";
import { UsageError } from "../core/errors.ts";

Deno.test("taskMode() waits for a task-only tool, hands out a task only where one is allowed", () => {
  const cases = [
    [undefined, false, "call"],
    ["forbidden", false, "call"],
    ["optional", false, "call"],
    ["required", false, "wait"],
    ["optional", true, "handle"],
    ["required", true, "handle"],
  ] as const;
  for (const [support, asTask, mode] of cases) {
    assert.equal(taskMode("ns.tool", support, asTask), mode, `${support} ${asTask}`);
  }
  for (const support of [undefined, "forbidden"] as const) {
    assert.throws(() => taskMode("ns.tool", support, true), (e: unknown) => {
      assert.ok(e instanceof UsageError);
      assert.match(
        e.message,
        /^ns\.tool cannot run as a task: .*"forbidden"; call it without --task$/,
      );
      return true;
    });
  }
});

Deno.test("pollInterval() takes the server's suggestion within the bounds", () => {
  assert.equal(pollInterval({}), POLL_BOUNDS_MS.absent);
  assert.equal(pollInterval({ pollInterval: 0 }), POLL_BOUNDS_MS.min);
  assert.equal(pollInterval({ pollInterval: 750.4 }), 750);
  assert.equal(pollInterval({ pollInterval: 3_600_000 }), POLL_BOUNDS_MS.max);
  assert.equal(pollInterval({ pollInterval: NaN }), POLL_BOUNDS_MS.absent);
});

Deno.test("isTerminal() ends a task on completed, failed and cancelled only", () => {
  assert.deepEqual(
    (["working", "input_required", "completed", "failed", "cancelled"] as const).filter(isTerminal),
    ["completed", "failed", "cancelled"],
  );
});
