import assert from "node:assert/strict";
import * as trustCommand from "./trust.ts";
import * as untrustCommand from "./untrust.ts";
import { runHandler } from "../outcome_render.ts";
import { NotFoundError } from "../../core/errors.ts";
import { CliContext } from "../context.ts";
import { memoryIo } from "../../core/io.ts";

/**
 * A project directory holding `.mcp.json` with one server `fs`, its context,
 * and a clean up.
 */
async function project() {
  const home = await Deno.realPath(await Deno.makeTempDir({ prefix: "mcpx-trust-" }));
  const dir = `${home}/proj`;
  await Deno.mkdir(dir);
  const file = `${dir}/.mcp.json`;
  await Deno.writeTextFile(
    file,
    JSON.stringify({ mcpServers: { fs: { command: "fs-server", args: ["--root", "."] } } }),
  );
  const io = memoryIo();
  const env = { HOME: home, MCPX_STATE_DIR: `${home}/s`, MCPX_CACHE_DIR: `${home}/c` };
  const ctx = new CliContext({ io, env, cwd: dir, flags: {} });
  return {
    ctx,
    io,
    file,
    async [Symbol.asyncDispose]() {
      await ctx.close();
      await Deno.remove(home, { recursive: true });
    },
  };
}

Deno.test("untrust handle() removes the record, then refuses a file not trusted", async () => {
  await using p = await project();
  await trustCommand.handle(p.ctx, {});
  assert.equal(await runHandler(p.ctx, untrustCommand, {}, true), 0);
  assert.equal(
    p.io.stdout,
    JSON.stringify({ file: p.file, realPath: p.file, removed: true }, null, 2) + "\n",
  );
  await assert.rejects(
    untrustCommand.handle(p.ctx, {}),
    (e: unknown) => e instanceof NotFoundError,
  );
  assert.equal(
    untrustCommand.text({ file: "/p/.mcp.json", realPath: "/p/.mcp.json", removed: true }),
    "untrusted /p/.mcp.json: mcpx starts none of its servers and refuses calls to them until it " +
      "is trusted again; running ones stop when idle, or now with `mcpx stop`.\n",
  );
});
