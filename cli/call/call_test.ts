import assert from "node:assert/strict";
import { main } from "../main.ts";
import { memoryIo } from "../../core/io.ts";
import * as callCommand from "./call.ts";
import { runHandler } from "../outcome_render.ts";
import type { CliContext } from "../context.ts";
import { NotFoundError } from "../../core/errors.ts";

/** Runs `mcpx <argv>` in a fresh directory with no configuration. */
async function run(argv: string[], stdin = "", files: Record<string, string> = {}) {
  const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "mcpx-call-" }));
  const io = memoryIo(stdin);
  try {
    for (const [name, text] of Object.entries(files)) {
      await Deno.writeTextFile(`${dir}/${name}`, text);
    }
    const code = await main(argv, io, {
      HOME: dir,
      MCPX_STATE_DIR: `${dir}/s`,
      MCPX_CACHE_DIR: `${dir}/c`,
    }, dir);
    return { code, stdout: io.stdout, stderr: io.stderr, dir };
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("call --timeout must be more than 0 and at most 24 days", async (t) => {
  const cases: [string[], RegExp][] = [
    [["--timeout", "0"], /--timeout must be more than 0, got "0"/],
    [["--timeout", "0ms"], /--timeout must be more than 0, got "0ms"/],
    [["--timeout=-5s"], /--timeout must be more than 0, got "-5s"/],
    [["--timeout", "30d"], /--timeout: .*"30d".*24d \(2073600000 ms\)/],
  ];
  for (const [flags, message] of cases) {
    await t.step(`mcpx call x.y ${flags.join(" ")} is a usage error`, async () => {
      const result = await run(["call", "x.y", ...flags]);
      assert.equal(result.code, 2, result.stderr);
      assert.match(result.stderr, message);
    });
  }
});

Deno.test("call with an empty @ is a usage error naming the problem", async () => {
  const result = await run(["call", "x.y", "@"]);
  assert.equal(result.code, 2, result.stderr);
  assert.match(result.stderr, /error: "@" names no file; write @<file>/);
});

Deno.test("call with empty stdin or an empty file says so, not that the text is not JSON", async () => {
  for (
    const [args, stdin, files, where] of [
      [["-"], "", {}, "stdin"],
      [["@args.json"], "", { "args.json": "\uFEFF \n" }, "args.json"],
    ] as [string[], string, Record<string, string>, string][]
  ) {
    const result = await run(["call", "x.y", ...args], stdin, files);
    assert.equal(result.code, 2, result.stderr);
    assert.match(
      result.stderr,
      new RegExp(`error: ${where} held no arguments; give a JSON object`),
    );
  }
});

Deno.test("call ignores a UTF-8 byte order mark before @file or stdin arguments", async (t) => {
  // With no configuration the arguments are read, then the command says none was found (exit 1);
  // arguments that were not JSON would have been a usage error (exit 2).
  const cases: [string, string[], string, Record<string, string>][] = [
    ["@file", ["@args.json"], "", { "args.json": '\uFEFF{"a": 1}' }],
    ["stdin", ["-"], '\uFEFF{"a": 1}', {}],
  ];
  for (const [name, args, stdin, files] of cases) {
    await t.step(name, async () => {
      const result = await run(["call", "x.y", ...args], stdin, files);
      assert.doesNotMatch(result.stderr, /not JSON/);
      assert.equal(result.code, 1, result.stderr);
      assert.match(result.stderr, /no configuration file found/);
    });
  }
});

/**
 * A command context for `run()` of cli/call/call.ts with one configured server,
 * whose schema cache may not be read: a call resolves its name in the daemon.
 */
function daemonOnly(answer: (params: Record<string, unknown>) => Promise<unknown>) {
  const sent: [string, Record<string, unknown>][] = [];
  const unread = () => Promise.reject(new Error("the schema cache was read"));
  const spec = {
    name: "everything",
    namespace: "everything",
    pool: { sharing: "shared", scope: "global" },
    tags: [],
  };
  const ctx = {
    cwd: "/",
    env: {},
    io: memoryIo(""),
    config: () => Promise.resolve({ path: "/p/.mcp.json", servers: [spec] }),
    // The configuration alone names the server (cli/context.ts configuredServer).
    configuredServer: (name: string) => Promise.resolve(name === spec.namespace ? spec : undefined),
    settings: () => Promise.resolve({ values: {} }),
    setting: (name: string) => Promise.resolve(name === "tasks.ttl" ? 300_000 : undefined),
    namespaces: unread,
    schemaCache: unread,
    json: () => Promise.resolve(false),
    request: (operation: string, params: Record<string, unknown>) => {
      sent.push([operation, params]);
      return answer(params);
    },
  };
  return { ctx: ctx as unknown as CliContext, sent, io: ctx.io };
}

Deno.test("handle() sends the name as given to the daemon, which resolves it, reading no schema cache", async () => {
  const { ctx, sent, io } = daemonOnly(() =>
    Promise.resolve({ content: [{ type: "text", text: "3" }] })
  );
  const code = await runHandler(ctx, callCommand, {
    target: "everything.get_sum",
    arguments: { a: 1, b: 2 },
    raw: false,
    extra: [],
  });
  assert.equal(code, 0, io.stderr);
  assert.equal(io.stdout, "3\n");
  // The op's input as given, its settings filled in, what only the command line has left out.
  assert.deepEqual(sent, [[
    "call",
    { target: "everything.get_sum", arguments: { a: 1, b: 2 }, taskTtlMs: 300_000 },
  ]]);
});

Deno.test("handle() passes on the daemon's answer to a typo, with its suggestions", async () => {
  const { ctx } = daemonOnly(() =>
    Promise.reject(
      new NotFoundError(
        'unknown tool "everything.ech"; did you mean everything.echo? ' +
          "Run `mcpx search <words>` to find a tool.",
        ["everything.echo"],
      ),
    )
  );
  await assert.rejects(
    callCommand.handle(ctx, { target: "everything.ech", arguments: undefined, extra: [] }),
    (e: unknown) => e instanceof NotFoundError && e.suggestions[0] === "everything.echo",
  );
});
