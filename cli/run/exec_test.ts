/**
 * `mcpx exec`'s handler in process: the usage it refuses before anything
 * runs, and the run's document it answers under `--json` (and so as serve's
 * `mcpx_exec`), with the daemon inline (`--inline`) and the script run by
 * deno as under `mcpx exec`.
 */

import assert from "node:assert/strict";
import * as execCommand from "./exec.ts";
import { CliContext } from "../context.ts";
import { runHandler } from "../outcome_render.ts";
import { runServeTool } from "../serve/serve_call.ts";
import { serveTools } from "../serve/serve_tools.ts";
import { memoryIo } from "../../core/io.ts";
import { UsageError } from "../../core/errors.ts";
import type { CommandModule } from "../commands.ts";

const NO_FLAGS = { args: [] };

/** A temporary directory with an empty configuration, and the environment that keeps mcpx in it. */
async function place(): Promise<{ dir: string; env: Record<string, string> } & AsyncDisposable> {
  const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "mcpx-exec-" }));
  await Deno.writeTextFile(`${dir}/.mcpx.json`, JSON.stringify({ servers: {} }));
  return {
    dir,
    env: {
      HOME: dir,
      PATH: Deno.env.get("PATH") ?? "",
      MCPX_STATE_DIR: `${dir}/s`,
      MCPX_CACHE_DIR: `${dir}/c`,
    },
    [Symbol.asyncDispose]: () => Deno.remove(dir, { recursive: true }),
  };
}

Deno.test("handle() refuses no code and empty code before anything runs", async (t) => {
  // What the handler reads before it refuses: stdin, and the setting that bounds it.
  const ctx = {
    io: memoryIo("  \n"),
    setting: () => Promise.resolve(1024),
  } as unknown as CliContext;
  const cases: [string, string | undefined, RegExp][] = [
    ["no code", undefined, /give the code: `mcpx exec '<code>'`/],
    ["blank code", "  ", /the code is empty/],
    ["a blank program on stdin", "-", /stdin held no program/],
  ];
  for (const [name, code, message] of cases) {
    await t.step(name, async () => {
      await assert.rejects(execCommand.handle(ctx, { ...NO_FLAGS, code }), (error) => {
        assert.ok(error instanceof UsageError);
        assert.match(error.message, message);
        return true;
      });
    });
  }
});

Deno.test({
  name:
    "handle() answers the run's document under --json: ok for exit 0, failed for exit 1, printed once",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn(t) {
    await using home = await place();
    const cases: [string, string, string, number][] = [
      ["the last expression's value", "1 + 1", "ok", 0],
      ["a script that exits 1", "console.log('no'); Deno.exit(1)", "failed", 1],
    ];
    for (const [name, code, kind, exitCode] of cases) {
      await t.step(name, async () => {
        const io = memoryIo();
        const ctx = new CliContext({
          io,
          env: home.env,
          cwd: home.dir,
          flags: { "output.json": true, "daemon.inline": true },
        });
        try {
          const outcome = await execCommand.handle(ctx, { ...NO_FLAGS, code });
          assert.equal(outcome.kind, kind);
          assert.equal(io.stdout, "", "the handler printed");
          const value = (outcome as { value: Record<string, unknown> }).value;
          assert.equal(value.exitCode, exitCode);
          assert.equal(value.ok, exitCode === 0);
          if (exitCode === 0) assert.equal(value.result, 2);
          else assert.equal(value.stdout, "no\n");
          // The command line prints it on one line, as the runner did.
          const printed = memoryIo();
          const rendered = await runHandler(
            { io: printed } as unknown as CliContext,
            { handle: () => Promise.resolve(outcome), jsonLine: execCommand.jsonLine },
            {},
            true,
          );
          assert.equal(rendered, exitCode);
          assert.equal(printed.stdout, JSON.stringify(value) + "\n");
        } finally {
          await ctx.close();
        }
      });
    }
  },
});

Deno.test({
  name: "serve's mcpx_exec answers the run's document, and only the code of a script that exits 3",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn(t) {
    await using home = await place();
    const tool = serveTools().find((tool) => tool.name === "mcpx_exec")!;
    // The exec module, its context's inline daemon closed after each call.
    const load = (): Promise<CommandModule> =>
      Promise.resolve({
        handle: async (ctx: CliContext, input: unknown) => {
          try {
            return await execCommand.handle(ctx, input as Parameters<typeof execCommand.handle>[1]);
          } finally {
            await ctx.close();
          }
        },
      });
    const base = {
      io: memoryIo(),
      env: home.env,
      cwd: home.dir,
      flags: { "daemon.inline": true },
    };
    const signal = new AbortController().signal;
    await t.step("exit 0: the document as text and structured content", async () => {
      const r = await runServeTool(base, tool, { code: "6 * 7" }, { signal }, load);
      assert.equal(r.isError, undefined, JSON.stringify(r));
      const envelope = r.structuredContent as Record<string, unknown>;
      assert.equal(envelope.ok, true);
      assert.equal(envelope.result, 42);
      assert.equal(r.content[0].text, JSON.stringify(envelope, null, 2));
    });
    await t.step("exit 3: the code alone, as before runs answered data", async () => {
      const r = await runServeTool(base, tool, { code: "Deno.exit(3)" }, { signal }, load);
      assert.deepEqual(r, {
        content: [{ type: "text", text: "(exit 3, nothing printed)" }],
        isError: true,
      });
    });
  },
});
