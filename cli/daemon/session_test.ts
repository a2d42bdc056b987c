import assert from "node:assert/strict";
import * as sessionCommand from "./session.ts";
import { runHandler } from "../outcome_render.ts";
import { memoryIo } from "../../core/io.ts";
import type { CliContext } from "../context.ts";
import { UsageError } from "../../core/errors.ts";

const ROW = {
  name: "login",
  createdAt: "2025-01-01T00:00:00.000Z",
  lastUsedAt: "2025-01-01T00:00:00.000Z",
  namespaces: [],
  live: [],
};

/** A context whose daemon answers each session route from `answers`. */
function fake(answers: Record<string, unknown>) {
  const io = memoryIo();
  const sent: [string, unknown][] = [];
  const ctx = {
    io,
    env: {},
    request: (route: string, params: unknown) => {
      sent.push([route, params]);
      return Promise.resolve(answers[route]);
    },
  } as unknown as CliContext;
  return { ctx, io, sent };
}

Deno.test("handle() answers the session made and the one ended; refuses a bad --ttl", async () => {
  const { ctx, sent } = fake({ sessionNew: ROW, sessionEnd: { stopped: 2 } });
  const made = await sessionCommand.handle(ctx, { action: "new", rest: [], name: "login" });
  assert.deepEqual(made, { kind: "ok", value: ROW });
  const ended = await sessionCommand.handle(ctx, { action: "end", rest: ["login"] });
  assert.deepEqual(ended, { kind: "ok", value: { name: "login", stopped: 2 } });
  assert.deepEqual(sent, [["sessionNew", { name: "login" }], ["sessionEnd", { name: "login" }]]);
  await assert.rejects(
    sessionCommand.handle(ctx, { action: "new", rest: [], ttl: "0s" }),
    (e: unknown) => e instanceof UsageError && /more than 0/.test(e.message),
  );
});

Deno.test("runHandler() prints new and end on one line under --json, their sentences otherwise", async () => {
  const { ctx, io } = fake({ sessionNew: ROW, sessionEnd: { stopped: 1 } });
  await runHandler(ctx, sessionCommand, { action: "new", rest: [] }, true);
  await runHandler(ctx, sessionCommand, { action: "end", rest: ["login"] }, true);
  assert.equal(io.stdout, JSON.stringify(ROW) + "\n" + '{"name":"login","stopped":1}\n');
  io.stdout = "";
  await runHandler(ctx, sessionCommand, { action: "new", rest: [] }, false);
  await runHandler(ctx, sessionCommand, { action: "end", rest: ["login"] }, false);
  assert.equal(io.stdout, "login\nsession login ended; 1 instance stopped\n");
});

Deno.test("runHandler() prints session ls indented under --json; text() renders its table", async () => {
  const dir = await Deno.makeTempDir({ prefix: "mcpx-session-" });
  try {
    const io = memoryIo();
    const ctx = {
      io,
      env: {},
      existingDaemonSocket: () => Promise.resolve(`${dir}/none.sock`),
      config: () => Promise.resolve({ fingerprint: "f", servers: [] }),
      paths: () => ({ stateDir: dir }),
    } as unknown as CliContext;
    assert.equal(await runHandler(ctx, sessionCommand, { action: "ls", rest: [] }, true), 0);
    assert.equal(io.stdout, '{\n  "sessions": []\n}\n');
    io.stdout = "";
    await runHandler(ctx, sessionCommand, { action: "ls", rest: [] }, false);
    assert.equal(io.stdout, "no named sessions; `mcpx session new --name <name>` makes one\n");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
  const text = sessionCommand.text({ sessions: [{ ...ROW, ttlMs: 60_000, live: ["fs"] }] });
  assert.match(
    text,
    /^NAME +AGE +TTL +SERVERS +LAST USED\nlogin +\S+ +1m \(ends in 0ms\) +fs +\S+ ago\n$/,
  );
});

Deno.test("session end takes the name as a word or as name (a tool's input), not two different ones", async () => {
  const sent: unknown[] = [];
  const ctx = {
    request: (op: string, body: unknown) => {
      sent.push([op, body]);
      return Promise.resolve({ stopped: 0 });
    },
  } as unknown as CliContext;
  const byName = await sessionCommand.handle(ctx, { action: "end", rest: [], name: "s1" });
  assert.deepEqual("value" in byName ? byName.value : byName, { name: "s1", stopped: 0 });
  assert.deepEqual(sent, [["sessionEnd", { name: "s1" }]]);
  await assert.rejects(
    sessionCommand.handle(ctx, { action: "end", rest: ["a"], name: "b" }),
    (e: unknown) => e instanceof UsageError && /two names/.test(e.message),
  );
});
