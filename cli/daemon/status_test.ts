import assert from "node:assert/strict";
import * as statusCommand from "./status.ts";
import { runHandler } from "../outcome_render.ts";
import { CliContext } from "../context.ts";
import { memoryIo } from "../../core/io.ts";
import type { StatusOutput } from "../../ops/status.ts";

/** A context in a fresh directory holding `.mcp.json` with `servers`; no daemon runs. */
async function tempContext(servers: Record<string, unknown>) {
  const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "mcpx-status-" }));
  await Deno.writeTextFile(`${dir}/.mcp.json`, JSON.stringify({ mcpServers: servers }));
  const io = memoryIo();
  const env = { HOME: dir, MCPX_STATE_DIR: `${dir}/s`, MCPX_CACHE_DIR: `${dir}/c` };
  const ctx = new CliContext({ io, env, cwd: dir, flags: {} });
  return {
    ctx,
    io,
    dir,
    async [Symbol.asyncDispose]() {
      await ctx.close();
      await Deno.remove(dir, { recursive: true });
    },
  };
}

Deno.test("handle() answers each configured server's row from the files when no daemon runs", async () => {
  await using t = await tempContext({ fs: { command: "true" } });
  const outcome = await statusCommand.handle(t.ctx, {});
  assert.equal(outcome.kind, "ok");
  assert.equal(outcome.value.daemon, false);
  assert.equal(outcome.value.config, `${t.dir}/.mcp.json`);
  assert.deepEqual(outcome.value.servers.map((r) => [r.namespace, r.instances.length]), [
    ["fs", 0],
  ]);
  assert.equal(t.io.stdout + t.io.stderr, "", "the handler prints nothing");
});

Deno.test("runHandler() prints status's document under --json and its table otherwise", async () => {
  await using t = await tempContext({ fs: { command: "true" } });
  assert.equal(await runHandler(t.ctx, statusCommand, {}, true), 0);
  const document = JSON.parse(t.io.stdout);
  assert.equal(t.io.stdout, JSON.stringify(document, null, 2) + "\n");
  assert.equal(document.servers[0].namespace, "fs");
  t.io.stdout = "";
  assert.equal(await runHandler(t.ctx, statusCommand, {}, false), 0);
  assert.match(t.io.stdout, /^NAMESPACE +PID +KEY +SHARING/);
  assert.match(t.io.stdout, /\nfs +- +- +shared/);
});

Deno.test("text() lists a shared pool's instance once and explains a failed server", () => {
  const row = {
    server: "e",
    poolId: "p1",
    transport: "stdio",
    sharing: "shared",
    scope: "global",
    state: "live",
    instances: [{
      id: "i1",
      pid: 42,
      key: "global",
      holders: 1,
      uptimeMs: 65_000,
      calls: 3,
      protocol: "2025-06-18",
    }],
  };
  const output = {
    daemon: true,
    config: "/p/.mcp.json",
    servers: [
      { ...row, namespace: "everything", sharedWith: ["peek"] },
      { ...row, namespace: "peek", sharedWith: ["everything"] },
      {
        ...row,
        namespace: "bad",
        server: "bad",
        poolId: "p2",
        state: "error",
        instances: [],
        failure: { message: "exited 1", stderrTail: "boom", count: 2, retryInMs: 0 },
      },
    ],
  } as unknown as StatusOutput;
  const text = statusCommand.text(output);
  assert.equal(text.match(/everything,peek/g)?.length, 1, text);
  assert.match(text, /\nbad \(server "bad"\) failed:\n {2}exited 1\n {2}stderr tail:\n {4}boom\n$/);
});
