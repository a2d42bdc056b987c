import assert from "node:assert/strict";
import * as runCommand from "./run.ts";
import { CliContext } from "../context.ts";
import { memoryIo } from "../../core/io.ts";
import { NotFoundError, UsageError } from "../../core/errors.ts";

Deno.test("handle() refuses a run that names no script", async () => {
  const ctx = { io: memoryIo() } as unknown as CliContext;
  await assert.rejects(
    runCommand.handle(ctx, { script: undefined, args: [] }),
    (error) => error instanceof UsageError && /name a script/.test(error.message),
  );
});

Deno.test({
  name: "handle() answers a named script's run document under --json, printing nothing",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "mcpx-run-" }));
    const io = memoryIo();
    const ctx = new CliContext({
      io,
      env: {
        HOME: dir,
        PATH: Deno.env.get("PATH") ?? "",
        MCPX_STATE_DIR: `${dir}/s`,
        MCPX_CACHE_DIR: `${dir}/c`,
      },
      cwd: dir,
      flags: { "output.json": true, "daemon.inline": true },
    });
    try {
      await Deno.writeTextFile(`${dir}/.mcpx.json`, JSON.stringify({ servers: {} }));
      await Deno.mkdir(`${dir}/.mcpx/scripts`, { recursive: true });
      await Deno.writeTextFile(
        `${dir}/.mcpx/scripts/hello.ts`,
        "export default (args: string[]) => ({ hello: args[0] });\n",
      );
      await assert.rejects(
        runCommand.handle(ctx, { script: "nope", args: [] }),
        (error) => error instanceof NotFoundError,
      );
      const outcome = await runCommand.handle(ctx, { script: "hello", args: ["you"] });
      assert.equal(outcome.kind, "ok", JSON.stringify(outcome));
      const value = (outcome as { value: Record<string, unknown> }).value;
      assert.deepEqual(value.result, { hello: "you" });
      assert.equal(value.exitCode, 0);
      assert.equal(io.stdout, "");
      assert.equal(runCommand.jsonLine, true);
    } finally {
      await ctx.close();
      await Deno.remove(dir, { recursive: true });
    }
  },
});
