import assert from "node:assert/strict";
import { main } from "../main.ts";
import { type Io, memoryIo } from "../../core/io.ts";
import { CliContext } from "../context.ts";
import * as lsCommand from "./ls.ts";
import type { LsOutput } from "../../ops/ls.ts";

/** Runs `mcpx <argv>` in a new directory holding `.mcp.json` = `config`, recording output in order. */
async function ls(argv: string[], config: unknown) {
  const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "mcpx-ls-" }));
  const events: { stream: "out" | "err"; text: string }[] = [];
  const io: Io = {
    out: (text) => void events.push({ stream: "out", text }),
    err: (text) => void events.push({ stream: "err", text }),
    readStdin: () => Promise.resolve(""),
  };
  try {
    await Deno.writeTextFile(`${dir}/.mcp.json`, JSON.stringify(config));
    // The file is a project's: its settings apply without `mcpx trust` only under `always`.
    const env = { HOME: dir, MCPX_SECURITY_TRUST_PROJECT_CONFIGS: "always" };
    const code = await main(argv, io, env, dir);
    const text = (stream: "out" | "err") =>
      events.filter((e) => e.stream === stream).map((e) => e.text).join("");
    return { code, events, stdout: text("out"), stderr: text("err"), file: `${dir}/.mcp.json` };
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("ls prints the configuration's warnings", async (t) => {
  const typo = { mcpServer: { fs: { command: "npx" } } };
  const budgt = { mcpServers: {}, catalog: { budgt: 5 } };

  await t.step("a misspelt mcpServers: warning first, then the no-servers message", async () => {
    const r = await ls(["ls"], typo);
    assert.equal(r.code, 0);
    assert.match(r.stderr, /^warning: config .*: mcpServer: unknown top-level key.*`mcpServers`/m);
    const warned = r.events.findIndex((e) => e.stream === "err" && /mcpServer:/.test(e.text));
    const empty = r.events.findIndex((e) => e.stream === "out" && /No servers in/.test(e.text));
    assert.ok(warned >= 0 && empty > warned, JSON.stringify(r.events));
  });

  await t.step("an unknown setting in a section is a warning with a suggestion", async () => {
    const r = await ls(["ls"], budgt);
    assert.equal(r.code, 0);
    assert.match(r.stderr, /^warning: config .*: catalog\.budgt: unknown setting.*`budget`/m);
  });

  await t.step("each warning is one `warning:` line on stderr", async () => {
    const r = await ls(["ls"], { ...typo, ...budgt, mcpServers: undefined });
    const lines = r.stderr.trimEnd().split("\n");
    assert.ok(lines.length >= 3, r.stderr);
    for (const line of lines) assert.match(line, /^warning: \S/);
  });

  await t.step("--json puts them on stderr and under warnings in the document", async () => {
    const r = await ls(["--json", "ls"], { ...budgt, mcpServer: {} });
    assert.equal(r.code, 0);
    const doc = JSON.parse(r.stdout);
    assert.ok(Array.isArray(doc.warnings), r.stdout);
    assert.ok(doc.warnings.some((w: string) => /catalog\.budgt/.test(w)), r.stdout);
    assert.ok(doc.warnings.some((w: string) => /mcpServer:/.test(w)), r.stdout);
    assert.equal(
      r.stderr,
      doc.warnings.map((w: string) => `warning: ${w}\n`).join(""),
    );
  });

  await t.step("a clean configuration prints no warning", async () => {
    const r = await ls(["ls"], { mcpServers: {} });
    assert.equal(r.stderr, "");
  });
});

/** A context in a new directory whose `.mcp.json` is `config`, and its cleanup. */
async function lsContext(config: unknown) {
  const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "mcpx-ls-handle-" }));
  await Deno.writeTextFile(`${dir}/.mcp.json`, JSON.stringify(config));
  const env = { HOME: dir, MCPX_SECURITY_TRUST_PROJECT_CONFIGS: "always" };
  const ctx = new CliContext({ io: memoryIo(), env, cwd: dir, flags: {} });
  return { ctx, dir, [Symbol.asyncDispose]: () => Deno.remove(dir, { recursive: true }) };
}

Deno.test("ls handle() answers the rows with the configuration's warnings as data", async () => {
  await using c = await lsContext({ mcpServers: {}, catalog: { budgt: 5 } });
  const outcome = await lsCommand.handle(c.ctx, {});
  assert.equal(outcome.kind, "ok");
  assert.deepEqual(outcome.value.namespaces, []);
  assert.equal(outcome.value.config, `${c.dir}/.mcp.json`);
  assert.equal(outcome.warnings?.length, 1);
  assert.match(outcome.warnings![0], /catalog\.budgt: unknown setting/);
  assert.deepEqual(outcome.warnings, outcome.value.warnings);
  assert.equal(
    lsCommand.text(outcome.value, { input: {}, columns: 120, kind: "ok", extra: outcome.extra }),
    `No servers in ${c.dir}/.mcp.json. Add one under "mcpServers".\n`,
  );
});

Deno.test("ls text(): the table, the problems on stderr, and what a failed direct server says", () => {
  const row = {
    namespace: "fs",
    tools: 2,
    sharing: "shared",
    scope: "global",
    live: 0,
    state: "ready",
    description: "Files",
  };
  const output = {
    namespaces: [row, { ...row, namespace: "web", state: "error", error: "boom", tools: 0 }],
    unselected: [],
    problems: ["fs.bad: no input schema", "web: listing failed"],
    warnings: [],
  } as unknown as LsOutput;
  const unusable = [{ server: "fs", tool: "bad", problem: "fs.bad: no input schema" }];
  const view = { input: {}, columns: 120, kind: "ok" as const, extra: { unusable, cwd: "/" } };
  const text = lsCommand.text(output, view) as { out: string; err: string };
  assert.match(text.out, /^NAMESPACE\s+TOOLS\s+SHARING\s+SCOPE\s+LIVE\s+STATE\s+DESCRIPTION\n/);
  assert.match(
    text.out,
    /\nNext: `mcpx search <words>`.* `mcpx status` shows why a server failed\.\n$/,
  );
  assert.equal(
    text.err,
    "warning: web: listing failed\n" +
      "note: 1 tool left out as unusable (fs.bad); `mcpx ls --json` says why\n",
  );
  const direct = { spelling: "https://x/mcp", fix: "check the address" };
  const failed = lsCommand.text(output, { ...view, extra: { unusable: [], cwd: "/", direct } });
  assert.deepEqual(
    (failed as { err: string }).err.split("\n").slice(-3),
    ["error: boom", "check the address", ""],
  );
  assert.doesNotMatch((failed as { out: string }).out, /Next:/);
});
