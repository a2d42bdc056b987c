import assert from "node:assert/strict";
import * as logCommand from "./log.ts";
import { runHandler } from "../outcome_render.ts";
import type { CliContext } from "../context.ts";
import { memoryIo } from "../../core/io.ts";

/** A context with only what `mcpx log` reads: a log folder holding `records`, the output mode. */
async function logWorld(records: Record<string, unknown>[], json = false) {
  const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "mcpx-log-" }));
  await Deno.writeTextFile(
    `${dir}/mcpx-2026-01-01.jsonl`,
    records.map((r) => JSON.stringify(r)).join("\n") + "\n",
  );
  const io = memoryIo();
  const limits: Record<string, number> = {
    "log.sqlTimeout": 10_000,
    "log.sqlMaxRows": 1000,
    "log.sqlMaxBytes": 1 << 20,
  };
  const ctx = {
    io,
    env: {},
    jsonFlag: json,
    json: () => Promise.resolve(json),
    logsDir: () => Promise.resolve(dir),
    sessionFlag: undefined,
    settingBesideConfig: (name: string) => Promise.resolve(limits[name]),
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

const RECORD = {
  time: "2026-01-01T10:00:00.000Z",
  level: "info",
  event: "daemon.start",
  msg: "daemon started",
  template: "daemon started",
  id: "rec-1",
  span: "dmn-1",
  attrs: {},
};

const INPUT = { args: [] as string[] };

Deno.test("log handle() answers { records } as data, and text() prints one line a record", async () => {
  await using w = await logWorld([RECORD]);
  const outcome = await logCommand.handle(w.ctx, INPUT);
  assert.equal(outcome.kind, "ok");
  const value = (outcome as { value: { records: { id: string }[] } }).value;
  assert.deepEqual(value.records.map((r) => r.id), ["rec-1"]);
  const code = await runHandler(w.ctx, logCommand, INPUT, false);
  assert.equal(code, 0);
  assert.match(w.io.stdout, /daemon started/);
  assert.equal(w.io.stdout.split("\n").length, 2);
});

Deno.test("log text() says on stderr that no record matched, naming the filter and the folder", async () => {
  await using w = await logWorld([RECORD]);
  const input = { ...INPUT, event: "nothing.*" };
  assert.equal(await runHandler(w.ctx, logCommand, input, false), 0);
  assert.equal(w.io.stdout, "");
  assert.equal(w.io.stderr, `No records matching --event nothing.* in ${w.dir}.\n`);
});

Deno.test("log sql --path is one JSON line under --json; the schema and rows are indented", async () => {
  await using w = await logWorld([RECORD], true);
  await runHandler(w.ctx, logCommand, { args: ["sql"], path: true }, true);
  assert.equal(w.io.stdout, JSON.stringify({ path: `${w.dir}/index.db` }) + "\n");
  const rows = { args: ["sql", "SELECT id FROM records"] };
  const outcome = await logCommand.handle(w.ctx, rows);
  assert.deepEqual((outcome as { value: unknown }).value, { columns: ["id"], rows: [["rec-1"]] });
  assert.equal(logCommand.jsonLine(rows), false);
});

Deno.test("log text() prints a sql answer as a table, no recent calls on stderr, the index's path", () => {
  const view = { input: INPUT, columns: 120, kind: "ok" as const, extra: { dir: "/logs" } };
  // A NULL is an empty cell; the table pads no last column.
  assert.equal(
    logCommand.text({ columns: ["id"], rows: [["rec-1"], [null]] }, view),
    "ID\nrec-1\n\n",
  );
  assert.deepEqual(logCommand.text({ calls: [] }, view), {
    err: "No calls recorded yet in /logs.\n",
  });
  assert.equal(logCommand.text({ path: "/logs/index.db" }, view), "/logs/index.db\n");
});
