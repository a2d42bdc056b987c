import assert from "node:assert/strict";
import {
  buildBundle,
  bundledModules,
  bundleProblems,
  readableBundle,
  WARM_BUNDLE,
} from "./bundle.ts";
import { runsWarm, WARM_COMMANDS } from "./warm.ts";
import { COMMAND_FILES, COMMAND_MODULES } from "./commands.ts";

const ROOT = new URL("../", import.meta.url);

Deno.test("cli/mcpx.bundle.js is what `deno task gen` builds from the sources now", async () => {
  const written = await Deno.readTextFile(new URL(WARM_BUNDLE.path, ROOT));
  // Not assert.equal: a diff of two 450 KB texts helps no one.
  assert.ok(
    written === await buildBundle(ROOT, WARM_BUNDLE),
    "cli/mcpx.bundle.js is stale: run `deno task gen`",
  );
});

Deno.test("cli/mcpx.bundle.js imports nothing statically and no specifier literally", async () => {
  const shipped = await Deno.readTextFile(new URL(WARM_BUNDLE.path, ROOT));
  assert.deepEqual(bundleProblems(shipped, WARM_BUNDLE), []);
  // The shipped bundle is minified; the readable build names each module.
  const text = await readableBundle(ROOT, WARM_BUNDLE);
  assert.deepEqual(bundleProblems(text, WARM_BUNDLE), []);
  const modules = bundledModules(text);
  // The module comments the import.meta rule reads are there, so it cannot pass vacuously.
  assert.match(modules.get("core/root.ts") ?? "", /import\.meta\.url/);
  for (const name of Object.keys(WARM_COMMANDS)) {
    const file = `cli/${COMMAND_FILES[name].replace(/^\.\//, "")}`;
    assert.ok(modules.has(file), `${name}: ${file}`);
  }
  assert.ok(!modules.has("cli/main.ts") && !modules.has("cli/commands.ts"));
});

Deno.test("runsWarm() keeps warm commands in the bundle and hands the others to the sources", () => {
  for (const name of Object.keys(WARM_COMMANDS)) assert.ok(COMMAND_MODULES[name], name);
  const cases: [string[], boolean][] = [
    [["ls"], true],
    [["--json", "call", "everything.echo", "{}"], true],
    [["--config", "x.json", "types", "everything"], true],
    [["run", "./s.ts", "trust"], true],
    [[], true],
    [["--version"], true],
    [["bogus"], true],
    [["trust"], false],
    [["help", "config"], false],
    // A help topic: its text is read from docs/topics/ by the bundle (decision 0070).
    [["help", "slow-tools"], true],
    [["help"], true],
    [["--json", "stats", "calls"], false],
    [["daemon", "--mode", "auto"], false],
    // The browser is not in the bundle: `--tui` goes to the sources on a terminal or off one.
    [["--tui"], false],
    [["tui", "log"], false],
  ];
  for (const [argv, warm] of cases) assert.equal(runsWarm(argv, false), warm, argv.join(" "));
  // On a terminal, `mcpx` alone opens the browser; asking for help or the version does not.
  const onTerminal: [string[], boolean][] = [
    [[], false],
    [["--config", "x.json"], false],
    [["--help"], true],
    [["--version"], true],
    [["help"], true],
    [["ls"], true],
  ];
  for (const [argv, warm] of onTerminal) {
    assert.equal(runsWarm(argv, true), warm, `on a terminal: ${argv.join(" ")}`);
  }
});
