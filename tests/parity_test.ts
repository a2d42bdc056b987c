/**
 * The op table and what runs hold to each other, in each direction
 * (decision 0021, "Generated surfaces"): every op with a command has a
 * command module and every module an op; every declared command runs; a
 * command the table does not declare is refused. (The daemon's routes and
 * their ops get their own parity checks beside these.)
 */
import assert from "node:assert/strict";
import { OPS } from "../ops/table.ts";
import { COMMAND_MODULES, loadCommand } from "../cli/commands.ts";
import { mcpxInProcess as mcpx } from "./_in_process.ts";
import { mcpxArgv } from "./_helpers.ts";

const COMMANDS = OPS.filter((op) => op.cli !== undefined);

Deno.test("every op with a command has a command module, and every module an op", () => {
  const ops = COMMANDS.map((op) => op.name).sort();
  assert.deepEqual(Object.keys(COMMAND_MODULES).sort(), ops);
});

Deno.test("every command module loads and exports run()", async () => {
  for (const op of COMMANDS) {
    const module = await loadCommand(op.name);
    assert.equal(typeof module.run, "function", `${op.name}: no run()`);
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
