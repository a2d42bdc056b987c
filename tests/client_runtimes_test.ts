/**
 * The runtime half of the generated client, bundled the way client/generate.ts
 * bundles it, runs unchanged under deno, bun and node (spec 000, "Runtime
 * portability"): a script calls a tool on a fake daemon, and the caller's
 * session reaches the daemon from every runtime.
 *
 * @module
 */

import { deepStrictEqual as deepEqual, ok } from "node:assert/strict";
import { join } from "node:path";
import { runtimeSource } from "../client/generate.ts";
import { scriptArgv } from "./_runtimes.ts";

/**
 * The client as client/generate.ts builds it: the runtime bundled by
 * client/bundle.ts (so a module the runtime starts importing is inlined here
 * too), then the generated part.
 */
async function bundleClient(generated: string): Promise<string> {
  return `${await runtimeSource()}\n// ---- generated\n${generated}`;
}

const GENERATED = `
configureClient({
  version: "0.0.0-test",
  tools: [
    { namespace: "everything", server: "every-thing", tool: "add", fn: "add",
      description: "Adds two numbers", tags: [], inputSchema: { required: ["a", "b"] } },
    { namespace: "everything", server: "every-thing", tool: "get-env", fn: "get_env",
      description: "Returns an environment variable", tags: [], inputSchema: {} },
  ],
  declarations: {
    "everything.add": "function add(args: { a: number; b: number }): Promise<unknown>;",
    "everything.get_env": "function get_env(args: {}): Promise<unknown>;",
  },
});

export const everything = {
  add(args: { a: number; b: number }, options?: CallOptions): Promise<unknown> {
    return callTool("every-thing", "everything", "add", args, options);
  },
  get_env(args: Record<string, never>, options?: CallOptions): Promise<unknown> {
    return callTool("every-thing", "everything", "get-env", args, options);
  },
};

const tools = { everything };
export default tools;
`;

const SCRIPT = `
import tools, { launcher, log, ToolError } from "./mcpx-client.ts";

launcher.installGlobals(tools);
launcher.captureConsole();
const g = globalThis as any;
const sum = await g.everything.add({ a: 2, b: 3 });
const text = await tools.everything.get_env({});
let failed = "";
try {
  await tools.everything.add({ a: -1, b: 0 });
} catch (error) {
  failed = error instanceof g.ToolError && error instanceof ToolError ? error.message : "wrong";
}
function named() {
  return g.captureFrames()[0].function;
}
const frames = g.errorFrames(new Error("x"));
log.info("called {n} tools", { n: 3 });
console.info("%s is %d", "sum", sum.sum);
launcher.printResult({
  sum,
  text: String(text),
  raw: (text as any).raw.content[0].type,
  failed,
  hit: g.search("add numbers")[0]?.tool,
  frame: named(),
  framesHaveFile: frames.length > 0 && typeof frames[0].file === "string",
});
`;

async function fakeDaemon() {
  const dir = await Deno.makeTempDir({ prefix: "mcpx-rt-daemon-" });
  const path = join(dir, "d.sock");
  const sessions: string[] = [];
  const server = Deno.serve({ transport: "unix", path, onListen() {} }, async (request) => {
    const body = await request.json();
    sessions.push(body.session);
    const args = body.arguments as { a: number; b: number };
    const result = body.target === "everything.add"
      ? args.a < 0
        ? { isError: true, content: [{ type: "text", text: "a must be positive" }] }
        : { content: [{ type: "text", text: JSON.stringify({ sum: args.a + args.b }) }] }
      : { content: [{ type: "text", text: `session ${body.session}` }] };
    return Response.json({ ok: true, result });
  });
  return {
    path,
    sessions,
    async [Symbol.asyncDispose]() {
      await server.shutdown();
      await Deno.remove(dir, { recursive: true });
    },
  };
}

async function runScript(
  command: string[],
  dir: string,
  env: Record<string, string>,
): Promise<{ code: number; stdout: string; stderr: string }> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), 60_000);
  try {
    const out = await new Deno.Command(command[0], {
      args: command.slice(1),
      cwd: dir,
      env: { NO_COLOR: "1", ...env },
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
      signal: controller.signal,
    }).output();
    return {
      code: out.code,
      stdout: new TextDecoder().decode(out.stdout),
      stderr: new TextDecoder().decode(out.stderr),
    };
  } finally {
    clearTimeout(timer);
  }
}

Deno.test("the bundled client calls a tool under deno, bun and node with the caller's session", async (t) => {
  const dir = await Deno.makeTempDir({ prefix: "mcpx-rt-client-" });
  await using daemon = await fakeDaemon();
  try {
    await Deno.writeTextFile(join(dir, "mcpx-client.ts"), await bundleClient(GENERATED));
    await Deno.writeTextFile(join(dir, "main.ts"), SCRIPT);
    await Deno.writeTextFile(join(dir, "package.json"), '{ "type": "module" }\n');

    for (const name of ["deno", "bun", "node"] as const) {
      await t.step(name, async () => {
        const argv = await scriptArgv(name, "main.ts");
        ok(argv, `no ${name} could be found or installed (tests/_runtimes.ts)`);
        const session = `sess-${name}`;
        const before = daemon.sessions.length;
        const run = await runScript(argv, dir, {
          MCPX_SOCKET: daemon.path,
          MCPX_SESSION: session,
          MCPX_RUN: "run-0123456789ab",
        });
        deepEqual(run.code, 0, `${name} failed:\n${run.stderr}`);
        deepEqual(JSON.parse(run.stdout), {
          sum: { sum: 5 },
          text: `session ${session}`,
          raw: "text",
          failed: "a must be positive",
          hit: "add",
          frame: "named",
          framesHaveFile: true,
        });
        deepEqual(daemon.sessions.slice(before), [session, session, session]);
        const records = run.stderr.split("\n").filter((l) => l.startsWith("\u001e"))
          .map((l) => JSON.parse(l.slice(1)));
        deepEqual(
          records.map((r) => [r.msg, r.span]),
          [["called 3 tools", "run-0123456789ab"], ["sum is 5", "run-0123456789ab"]],
          run.stderr,
        );
      });
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
