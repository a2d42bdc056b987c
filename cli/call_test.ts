import assert from "node:assert/strict";
import { main } from "./main.ts";
import { memoryIo } from "../core/io.ts";

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
