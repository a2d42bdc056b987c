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
import { COMMAND_MODULES, loadCommand } from "../cli/commands.ts";
import { mcpxInProcess as mcpx } from "./_in_process.ts";
import { mcpxArgv, ROOT } from "./_helpers.ts";
import { serveTools } from "../cli/serve_tools.ts";
import { HANDLERS, ROUTE_SPECS } from "../ops/daemon_ops.ts";
import { openApiDocument } from "../ops/openapi.ts";

/**
 * The commands `mcpx serve` does not offer as tools, each with why: an op
 * with a command must be a tool or be here, so a new op cannot leave MCP
 * hosts without it unnoticed (spec 000, "A command for every operation").
 */
const NOT_SERVED: Record<string, string> = {
  schema: "a document for a consumer outside the conversation; an agent reads mcpx_types",
  tasks: "serve's own tasks are the client's (MCP tasks); mcpx's task ids are a shell's handle",
  prompts: "upstream prompts are served as MCP prompts, not as a tool",
  resources: "upstream resources are served as MCP resources, not as a tool",
  skills: "skills are resources; an MCP host reads them as such",
  scripts: "named scripts live on the caller's disk; mcpx_run runs one by name",
  client: "writes a file for a checked-in script on the caller's disk",
  session: "a serve session is the MCP client's own (decision 0044)",
  trust: "trusting a project's servers is the user's decision, never an agent's",
  untrust: "as trust",
  auth: "a browser sign-in is for the person at the machine",
  config: "the settings of the shell it runs in; serve's are fixed when it starts",
  serve: "serve itself",
  daemon: "runs a daemon in the foreground",
  daemons: "the daemons of every configuration on this machine, for the person running them",
  stop: "stops the daemon serve itself runs through",
  log: "the durable log is for the person at the machine; mcpx_status says what failed",
  stats: "as log",
  completion: "a shell's completion script",
  man: "a terminal's manual page",
  openapi: "the daemon's HTTP API, for an HTTP client",
  "completion-words": "the completion scripts' callback",
  registry: "adding a server is the user's decision: it prints the diff for them to apply",
  import: "reads other hosts' files and writes the user's configuration, the user's decision",
  doctor: "diagnoses the machine for the person who keeps it; mcpx_status says what failed",
  adapter: "`adapter serve` is what the daemon spawns; `adapter check` is for who declares them",
  api: "`api serve` is what the daemon spawns; `api tools|call` try a document from a shell",
};

const COMMANDS = OPS.filter((op) => op.cli !== undefined);

Deno.test("every op with a command has a command module, and every module an op", () => {
  const ops = COMMANDS.map((op) => op.name).sort();
  assert.deepEqual(Object.keys(COMMAND_MODULES).sort(), ops);
});

Deno.test("every command module loads and exports handle() or run()", async () => {
  for (const op of COMMANDS) {
    const module = await loadCommand(op.name);
    const entry = "handle" in module ? module.handle : module.run;
    assert.equal(typeof entry, "function", `${op.name}: no handle() or run()`);
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

Deno.test("every op with a command is an MCP tool of serve, or says why it is not", () => {
  const served = new Set(serveTools().map((t) => t.op.name));
  for (const op of COMMANDS) {
    const tool = served.has(op.name);
    const why = Object.hasOwn(NOT_SERVED, op.name);
    assert.ok(
      tool !== why,
      `${op.name}: ${tool ? "a tool and in NOT_SERVED" : "no tool, no reason"}`,
    );
  }
  for (const name of Object.keys(NOT_SERVED)) {
    assert.ok(COMMANDS.some((op) => op.name === name), `NOT_SERVED names no command: ${name}`);
  }
  // A tool runs as its command (cli/serve_call.ts), so each has a command module.
  for (const name of served) assert.ok(Object.hasOwn(COMMAND_MODULES, name), name);
});

Deno.test("every daemon route has its handler, its OpenAPI path, and a surface that sends it", () => {
  const paths = openApiDocument().paths as Record<string, unknown>;
  // The sources that send routes: the CLI, the scripts' client, the wire, the other surfaces.
  const senders = ["cli", "scripts", "wire", "engine", "daemon"].flatMap((dir) =>
    sourcesIn(`${ROOT}${dir}`)
  ).map((path) => Deno.readTextFileSync(path)).join("\n");
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
