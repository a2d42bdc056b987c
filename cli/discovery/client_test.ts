import assert from "node:assert/strict";
import { memoryIo } from "../../core/io.ts";
import type { CliContext } from "../context.ts";
import * as clientCommand from "./client.ts";
import { runHandler } from "../outcome_render.ts";
import { UsageError } from "../../core/errors.ts";

Deno.test("client handle() writes the client once and says so; text() and --json say the same", async () => {
  const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "mcpx-client-" }));
  try {
    const io = memoryIo();
    const ctx = {
      io,
      cwd: dir,
      env: {},
      namespaces: () => Promise.resolve({ namespaces: [], disabled: [] }),
      paths: () => ({ cacheDir: `${dir}/cache` }),
    } as unknown as CliContext;
    const first = await clientCommand.handle(ctx, { output: "out/" });
    const path = `${dir}/out/mcpx-client.ts`;
    assert.deepEqual(first.value, { path, written: true, namespaces: 0 });
    assert.equal(clientCommand.text(first.value), `wrote ${path} (0 namespaces)\n`);
    assert.equal(await runHandler(ctx, clientCommand, { output: "out" }, true), 0);
    assert.equal(io.stdout, JSON.stringify({ path, written: false, namespaces: 0 }) + "\n");
    await assert.rejects(clientCommand.handle(ctx, {}), UsageError);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
