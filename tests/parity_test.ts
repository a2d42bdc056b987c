/**
 * The op table and what runs hold to each other, in each direction
 * (decision 0021, "Generated surfaces"): every op with a command has a
 * command module and every module an op; every declared command runs; a
 * command the table does not declare is refused; every op with a command is
 * an MCP tool of `mcpx serve` or says why not; every daemon route has its
 * handler, its OpenAPI path and a surface that sends it.
 */
import assert from "node:assert/strict";
import { OPS } from "../ops/table.ts";
import { COMMAND_FILES, COMMAND_MODULES, loadCommand } from "../cli/commands.ts";
import { mcpxInProcess as mcpx } from "./_in_process.ts";
import { mcpxArgv, ROOT } from "./_helpers.ts";
import { isCore, NOT_SERVED } from "../cli/serve/serve_tools.ts";
import { missingSurfaces, parityDocument, parityRows } from "../cli/parity_doc.ts";
import { HANDLERS, ROUTE_SPECS } from "../ops/daemon_ops.ts";
import { openApiDocument } from "../ops/openapi.ts";

const COMMANDS = OPS.filter((op) => op.cli !== undefined);

Deno.test("every op with a command has a command module, and every module an op", () => {
  const ops = COMMANDS.map((op) => op.name).sort();
  assert.deepEqual(Object.keys(COMMAND_MODULES).sort(), ops);
});

Deno.test("every command module loads and exports its handler", async () => {
  for (const op of COMMANDS) {
    const module = await loadCommand(op.name);
    const entry = module.handle;
    assert.equal(typeof entry, "function", `${op.name}: no handle()`);
  }
});

Deno.test("every declared command runs: `mcpx <command> --help` prints its usage", async () => {
  for (const op of COMMANDS) {
    const result = await mcpx([op.cli!.command, "--help"]);
    assert.equal(result.code, 0, `${op.cli!.command}: ${result.stderr}`);
    assert.ok(
      result.stdout.startsWith(`usage: ${op.cli!.usage}\n`),
      `${op.cli!.command}: ${result.stdout}`,
    );
  }
});

Deno.test("`mcpx --help` lists every command but the hidden ones", async () => {
  const { stdout } = await mcpx(["--help"]);
  for (const op of COMMANDS) {
    const listed = new RegExp(`^  ${op.cli!.command} +\\S`, "m").test(stdout);
    assert.equal(listed, !op.cli!.hidden, `${op.cli!.command}`);
  }
});

Deno.test("a command the table does not declare is refused with did-you-mean", async () => {
  // Through the real entry point, as a shell runs it.
  const [deno, ...args] = mcpxArgv(["statsu"]);
  const out = await new Deno.Command(deno, {
    args,
    stdout: "piped",
    stderr: "piped",
    signal: AbortSignal.timeout(60_000),
  }).output();
  assert.equal(out.code, 2);
  const stderr = new TextDecoder().decode(out.stderr);
  assert.match(stderr, /unknown command "statsu"; did you mean (stats|status)/);
  // Hidden commands run when named but are never suggested.
  const near = await mcpx(["completion-word"]);
  assert.equal(near.code, 2);
  assert.match(near.stderr, /unknown command "completion-word"; did you mean completion\?/);
});

Deno.test("every operation is rendered on every surface, or says why not (docs/parity.md)", () => {
  const rows = parityRows();
  assert.deepEqual(rows.map((r) => r.name), OPS.map((op) => op.name));
  for (const row of rows) assert.deepEqual(missingSurfaces(row), [], row.name);
  // Plain serve stays lean: the core set is the ops marked serve, a strict subset of all.
  const core = rows.filter((r) => r.core).map((r) => r.name);
  assert.deepEqual(core, OPS.filter(isCore).map((op) => op.name));
  assert.ok(rows.filter((r) => r.tool).length > core.length);
  for (const name of Object.keys(NOT_SERVED)) {
    assert.ok(COMMANDS.some((op) => op.name === name), `NOT_SERVED names no command: ${name}`);
  }
  // A tool runs its op's handler (cli/serve/serve_call.ts), so each has a command module.
  for (const row of rows) if (row.tool) assert.ok(Object.hasOwn(COMMAND_MODULES, row.name));
});

Deno.test("a surface that drops an operation is reported missing", () => {
  const row = parityRows().find((r) => r.name === "search")!;
  assert.deepEqual(missingSurfaces({ ...row, tool: undefined, man: false }), [
    "MCP tool",
    "man page",
  ]);
});

Deno.test("docs/parity.md is what `deno task gen` writes", () => {
  const path = new URL("../docs/parity.md", import.meta.url);
  assert.equal(Deno.readTextFileSync(path), parityDocument(), "stale: run `deno task gen`");
});

Deno.test("every daemon route has its handler, its OpenAPI path, and a surface that sends it", () => {
  const paths = openApiDocument().paths as Record<string, unknown>;
  // The sources that send routes: the CLI, the scripts' client, the wire, the other surfaces.
  const senders = ["cli", "client", "runner", "scripts", "wire", "engine", "daemon"].flatMap((
    dir,
  ) => sourcesIn(`${ROOT}${dir}`)).map((path) => Deno.readTextFileSync(path)).join("\n");
  for (const name of Object.keys(ROUTE_SPECS)) {
    assert.ok(Object.hasOwn(HANDLERS, name), `${name}: no handler`);
    assert.ok(`/v1/${name}` in paths, `${name}: no OpenAPI path`);
    assert.ok(senders.includes(`"${name}"`), `${name}: nothing sends it`);
  }
});

/** The non-test, non-generated TypeScript and JavaScript sources under `dir`. */
function sourcesIn(dir: string): string[] {
  const out: string[] = [];
  for (const entry of Deno.readDirSync(dir)) {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory) {
      if (entry.name !== "fixtures") out.push(...sourcesIn(path));
    } else if (/\.ts$/.test(entry.name) && !entry.name.endsWith("_test.ts")) out.push(path);
  }
  return out;
}

Deno.test("serve runs handlers: no serve module imports another command's module", () => {
  const cli = new URL("../cli/", import.meta.url);
  const serveModule = new URL(COMMAND_FILES.serve, cli);
  const folder = new URL("./", serveModule);
  const commandModules = new Set(
    Object.entries(COMMAND_FILES).filter(([name]) => name !== "serve")
      .map(([, file]) => new URL(file, cli).href),
  );
  const serveFiles = [...Deno.readDirSync(folder)]
    .filter((e) => /^serve.*\.ts$/.test(e.name) && !e.name.endsWith("_test.ts"))
    .map((e) => new URL(e.name, folder));
  assert.ok(serveFiles.length > 5, "the serve modules were not found");
  for (const file of serveFiles) {
    const text = Deno.readTextFileSync(file);
    for (const [, spec] of text.matchAll(/(?:from|import\()\s*"(\.{1,2}\/[^"]+)"/g)) {
      const target = new URL(spec, file).href;
      assert.ok(!commandModules.has(target), `${file.pathname} imports ${spec}, a command module`);
    }
  }
});
