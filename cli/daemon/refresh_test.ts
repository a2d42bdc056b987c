import assert from "node:assert/strict";
import * as refreshCommand from "./refresh.ts";
import { runHandler } from "../outcome_render.ts";
import { memoryIo } from "../../core/io.ts";
import type { CliContext } from "../context.ts";

/** A context whose daemon answers `list` with `answer`; the configuration names server `e` as `ev`. */
function fake(answer: Record<string, unknown>) {
  const io = memoryIo();
  const ctx = {
    io,
    env: {},
    request: () => Promise.resolve(answer),
    config: () => Promise.resolve({ servers: [{ name: "e", namespace: "ev" }] }),
  } as unknown as CliContext;
  return { ctx, io };
}

Deno.test("handle() answers failed with the same document when a listing failed", async () => {
  const { ctx } = fake({ e: { tools: 3 }, f: { error: "exited 1" } });
  const outcome = await refreshCommand.handle(ctx, { namespaces: [] });
  assert.equal(outcome.kind, "failed");
  assert.deepEqual(outcome.value, { servers: { e: { tools: 3 }, f: { error: "exited 1" } } });
});

Deno.test("runHandler() prints refresh's table and, for a running process, its namespace's restart", async () => {
  const listedBy = { pid: 7, startedAt: "2025-01-01T00:00:00.000Z" };
  const { ctx, io } = fake({ e: { tools: 3, listedBy } });
  assert.equal(await runHandler(ctx, refreshCommand, { namespaces: ["ev"] }, false), 0);
  assert.equal(
    io.stdout,
    "SERVER  TOOLS  RESULT\ne       3      ok\n" +
      "e: listed by its running process (pid 7, started 2025-01-01T00:00:00.000Z), which answers " +
      "as the code it started with; if the server changed since, `mcpx restart ev` then " +
      "`mcpx refresh ev` lists the new one.\n",
  );
  io.stdout = "";
  assert.equal(await runHandler(ctx, refreshCommand, { namespaces: ["ev"] }, true), 0);
  assert.equal(
    io.stdout,
    JSON.stringify({ servers: { e: { tools: 3, listedBy } } }, null, 2) + "\n",
  );
});
