import assert from "node:assert/strict";
import * as daemonsCommand from "./daemons.ts";
import { runHandler } from "../outcome_render.ts";
import { memoryIo } from "../../core/io.ts";
import type { CliContext } from "../context.ts";

Deno.test("handle() answers no daemons in an empty state directory; runHandler() says so", async () => {
  const dir = await Deno.makeTempDir({ prefix: "mcpx-daemons-" });
  try {
    const io = memoryIo();
    const ctx = { io, env: {}, paths: () => ({ stateDir: dir }) } as unknown as CliContext;
    assert.deepEqual(await daemonsCommand.handle(ctx), { kind: "ok", value: { daemons: [] } });
    assert.equal(await runHandler(ctx, daemonsCommand, {}, true), 0);
    assert.equal(io.stdout, '{\n  "daemons": []\n}\n');
    io.stdout = "";
    await runHandler(ctx, daemonsCommand, {}, false);
    assert.equal(io.stdout, "No daemon is running. Any command that needs one starts it.\n");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("text() shows a daemon's pid, version, mode, start and configuration", () => {
  const text = daemonsCommand.text(
    {
      daemons: [{
        fingerprint: "f",
        pid: 9,
        socket: "/s",
        configPath: null,
        version: "1.2.3",
        mode: "auto",
        startedAt: "2025-01-01T00:00:00.000Z",
      }],
    } as Parameters<typeof daemonsCommand.text>[0],
  );
  assert.match(
    text,
    /^PID +VERSION +MODE +STARTED +CONFIG\n9 +1\.2\.3 +auto +2025-01-01T00:00:00\.000Z +\(none\)\n$/,
  );
});
