import assert from "node:assert/strict";
import { commandLine, EXPLORE_COMMANDS, exploreAction, exploreHelp } from "./explore_line.ts";
import { OP_ROWS } from "../../ops/_table.gen.ts";

const NAMESPACES = ["fs", "everything", "chrome_devtools", "chrome-devtools"];
const known = () => Promise.resolve(NAMESPACES);

Deno.test("exploreAction() reads each kind of line as the mcpx command line it stands for", async () => {
  const cases: [string, string[]][] = [
    ["ls", ["ls"]],
    ["fs", ["types", "fs"]],
    ["fs.read_file", ["types", "fs.read_file"]],
    ["chrome-devtools", ["types", "chrome-devtools"]],
    ["everything fs", ["types", "everything", "fs"]],
    ["chain", ["log", "--chain"]],
    ["chain cal-9f3c", ["log", "--chain", "cal-9f3c"]],
    ["search read file -n 3", ["search", "read", "file", "-n", "3"]],
    ["types fs.read_file", ["types", "fs.read_file"]],
    [`call fs.read '{"path": "a b"}'`, ["call", "fs.read", `{"path": "a b"}`]],
    // JSON typed bare, spaces and all, is the one argument it would be if quoted.
    [`call fs.read {"path": "a b"}`, ["call", "fs.read", `{"path": "a b"}`]],
    [`$ mcpx call fs.many [1, 2]`, ["call", "fs.many", "[1, 2]"]],
    ["log --since 1h", ["log", "--since", "1h"]],
    ["status", ["status"]],
    ["help chain", ["help", "log"]],
    ["help types", ["help", "types"]],
    // A command pasted back from a footer, or from anywhere.
    ["mcpx types fs", ["types", "fs"]],
    ["$ mcpx types fs", ["types", "fs"]],
    ["  ls  ", ["ls"]],
  ];
  for (const [line, argv] of cases) {
    assert.deepEqual(await exploreAction(line, known), { kind: "run", argv }, line);
  }
});

Deno.test("exploreAction() leaves, helps and skips blank lines", async () => {
  for (const line of ["quit", "exit", " quit "]) {
    assert.deepEqual(await exploreAction(line, known), { kind: "quit" }, line);
  }
  for (const line of ["help", "?"]) {
    assert.deepEqual(await exploreAction(line, known), { kind: "help" }, line);
  }
  for (const line of ["", "   ", "\t"]) {
    assert.deepEqual(await exploreAction(line, known), { kind: "blank" }, JSON.stringify(line));
  }
});

Deno.test("exploreAction() refuses an unknown word naming the nearest command or namespace", async () => {
  const refusal = async (line: string) => {
    const action = await exploreAction(line, known);
    assert.equal(action.kind, "refused", line);
    return (action as { message: string }).message;
  };
  assert.match(
    await refusal("tyeps fs"),
    /unknown command or namespace "tyeps"; did you mean types\?/,
  );
  assert.match(await refusal("everthing"), /did you mean everything\?/);
  assert.match(await refusal("fss.read"), /unknown command or namespace "fss.read"/);
  assert.match(await refusal("zzzzzz"), /^unknown command or namespace "zzzzzz"\. \(`help` lists/);
  // Another mcpx command: said to be one, with the line to run at a shell.
  assert.match(
    await refusal("run x.ts --flag"),
    /explore does not run `run`; .*mcpx run x\.ts --flag/,
  );
  assert.match(await refusal("help nope"), /no command "nope" here/);
  assert.match(await refusal(`call fs.read '{"a":1}`), /never closes/);
});

Deno.test("exploreAction() asks for the namespaces only when the first word is no command", async () => {
  let asked = 0;
  const counting = () => {
    asked++;
    return Promise.resolve(["ls", "fs"]);
  };
  // A namespace called like a command: the command wins (`types ls` reaches the namespace).
  assert.deepEqual(await exploreAction("ls", counting), { kind: "run", argv: ["ls"] });
  await exploreAction("chain", counting);
  await exploreAction("quit", counting);
  assert.equal(asked, 0);
  assert.deepEqual(await exploreAction("fs", counting), { kind: "run", argv: ["types", "fs"] });
  assert.equal(asked, 1);
});

Deno.test("commandLine() is the footer's command, each word quoted as a shell reads it back", () => {
  assert.equal(commandLine(["types", "fs"]), "mcpx types fs");
  assert.equal(
    commandLine(["--config", "/p q/.mcp.json", "call", "fs.read", `{"path":"it's"}`]),
    `mcpx --config '/p q/.mcp.json' call fs.read '{"path":"it'\\''s"}'`,
  );
});

Deno.test("exploreHelp() lists every command with its op's own summary", () => {
  const help = exploreHelp();
  for (const command of EXPLORE_COMMANDS) {
    assert.match(help, new RegExp(`^  ${command.word}\\b`, "m"), command.word);
    const summary = command.summary ??
      OP_ROWS.find((op) => op.name === command.op)!.cli!.summary;
    assert.ok(help.includes(summary), `${command.word}: ${summary}`);
  }
  assert.match(help, /<namespace>\[\.<tool>\] +its signatures/);
  assert.match(help, /quit, exit +leave/);
});
