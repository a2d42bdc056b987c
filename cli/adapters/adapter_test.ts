import assert from "node:assert/strict";
import { main } from "../main.ts";
import { type Io, memoryIo } from "../../core/io.ts";
import * as adapterCommand from "./adapter.ts";
import { runHandler } from "../outcome_render.ts";
import { CliContext } from "../context.ts";

Deno.test("mcpx adapter check exits 1 for a name a configured server has and for colliding tools", async () => {
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "mcpx-adapter-" }));
  try {
    await Deno.mkdir(`${root}/proj`);
    await Deno.writeTextFile(
      `${root}/proj/adapters.json`,
      JSON.stringify({
        adapters: [
          { name: "files", command: "ls", tools: [{ name: "list" }] },
          { name: "lsx", command: "ls", tools: [{ name: "get-x" }, { name: "get_x" }] },
          { name: "good", command: "ls", tools: [{ name: "list" }] },
        ],
      }),
    );
    await Deno.writeTextFile(
      `${root}/proj/.mcp.json`,
      JSON.stringify({
        mcpServers: { files: { command: "ls" } },
        paths: { adapters: ["./adapters.json"] },
      }),
    );
    let out = "";
    let err = "";
    const io: Io = {
      out: (text) => void (out += text),
      err: (text) => void (err += text),
      readStdin: () => Promise.resolve(""),
    };
    const env = {
      HOME: root,
      PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
      MCPX_SECURITY_TRUST_PROJECT_CONFIGS: "always",
    };
    const code = await main(["adapter", "check", "--json"], io, env, `${root}/proj`);
    assert.equal(code, 1, out + err);
    const rows = (JSON.parse(out) as { adapters: { name: string; problem?: string }[] }).adapters;
    const problem = (name: string) => rows.find((r) => r.name === name)?.problem ?? "";
    assert.match(
      problem("files"),
      /adapter "files" takes the name of the configured server "files"/,
    );
    assert.match(problem("lsx"), /tools "get-x" and "get_x" both become "get_x"/);
    assert.equal(problem("good"), "");
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("adapter check handle() answers { adapters }, failed when one is missing; text() tables it", async () => {
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "mcpx-adapter-" }));
  try {
    await Deno.writeTextFile(
      `${root}/adapters.json`,
      JSON.stringify({
        adapters: [
          { name: "good", command: "ls", tools: [{ name: "list" }] },
          { name: "gone", command: "no-such-program-x", tools: [{ name: "x" }] },
          { name: "bad", tools: 3 },
        ],
      }),
    );
    const io = memoryIo();
    const ctx = new CliContext({
      io,
      env: { HOME: root, PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin" },
      cwd: root,
      flags: {},
    });
    const input = { words: ["check"], from: "adapters.json" };
    const outcome = await adapterCommand.handle(ctx, input);
    assert.equal(outcome.kind, "failed");
    const { adapters } = (outcome as { value: adapterCommand.CheckOutput }).value;
    assert.deepEqual(adapters.map((a) => [a.name, a.installed]), [
      ["good", true],
      ["gone", false],
      ["bad", false],
    ]);
    assert.equal(io.stdout + io.stderr, "", "the handler printed");
    assert.equal(await runHandler(ctx, adapterCommand, input, false), 1);
    const lines = io.stdout.split("\n");
    assert.match(lines[0], /^NAME +PROGRAM +FOUND +TOOLS$/);
    assert.match(lines[2], /^gone +no-such-program-x +not installed +1$/);
    assert.match(lines[3], /^bad +invalid +0$/);
    assert.match(io.stderr, /^gone: no-such-program-x is not installed/m);
    assert.match(io.stderr, /^bad: /m);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
