/**
 * A project for the trust commands' tests: a temporary home holding
 * `proj/.mcp.json` with one stdio server `fs`, a context in that project
 * (its own state and cache folders), and the clean up.
 *
 * @module
 */

import { CliContext } from "../context.ts";
import { memoryIo } from "../../core/io.ts";

/** The project, its context and memory `Io`, and its configuration file's path. */
export async function trustProject() {
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
