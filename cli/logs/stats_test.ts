import assert from "node:assert/strict";
import * as statsCommand from "./stats.ts";
import { runHandler } from "../outcome_render.ts";
import type { CliContext } from "../context.ts";
import { memoryIo } from "../../core/io.ts";

/** A context with only what `mcpx stats` reads: a log folder holding `records`. */
async function statsWorld(records: Record<string, unknown>[]) {
  const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "mcpx-stats-" }));
  await Deno.writeTextFile(
    `${dir}/mcpx-2026-01-01.jsonl`,
    records.map((r) => JSON.stringify(r)).join("\n") + "\n",
  );
  const io = memoryIo();
  const ctx = {
    io,
    env: {},
    json: () => Promise.resolve(false),
    logsDir: () => Promise.resolve(dir),
  } as unknown as CliContext;
  return {
    ctx,
    io,
    dir,
    async [Symbol.asyncDispose]() {
      await Deno.remove(dir, { recursive: true });
    },
  };
}

const START = {
  time: "2026-01-01T10:00:00.000Z",
  level: "info",
  event: "daemon.start",
  msg: "daemon started",
  template: "daemon started",
  id: "rec-1",
  span: "dmn-1",
  attrs: {},
};

Deno.test("stats handle() answers { view, rows }; text() says an empty view on stderr", async () => {
  await using w = await statsWorld([START]);
  const outcome = await statsCommand.handle(w.ctx, {});
  assert.deepEqual((outcome as { value: unknown }).value, { view: "calls", rows: [] });
  assert.equal(await runHandler(w.ctx, statsCommand, {}, false), 0);
  assert.equal(w.io.stdout, "");
  assert.equal(w.io.stderr, "Nothing recorded for `stats calls`.\n");
});

Deno.test("stats volume: the document holds hours and disk; the text names the log folder", async () => {
  await using w = await statsWorld([START]);
  const outcome = await statsCommand.handle(w.ctx, { view: "volume" });
  const value = (outcome as { value: Record<string, unknown> }).value;
  assert.deepEqual(Object.keys(value), ["view", "hours", "disk"]);
  await runHandler(w.ctx, statsCommand, { view: "volume" }, false);
  assert.match(w.io.stdout, /^HOUR \(UTC\)/);
  assert.match(w.io.stdout, new RegExp(`on disk: 1 log file, .*\\(${w.dir}\\)\\n$`));
});

Deno.test("stats text() ends slowest's table with the command that shows one call", () => {
  const view = { input: {}, columns: 120, kind: "ok" as const };
  const text = statsCommand.text({
    view: "slowest",
    rows: [{
      time: "2026-01-01T10:00:00.000Z",
      call: "c-1",
      namespace: "fs",
      tool: "read",
      ms: 12,
      ok: true,
    }],
  }, view) as string;
  assert.match(text, /^TIME +CALL +TOOL +MS +SESSION +OK\n/);
  assert.match(text, /c-1 +fs\.read +12 +- +ok\n/);
  assert.ok(text.endsWith("(`mcpx log --chain <call>` shows what led to one)\n"));
});
