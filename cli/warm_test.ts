import assert from "node:assert/strict";
import { runsWarm, WARM_COMMANDS } from "./warm.ts";
import { COMMAND_MODULES } from "./commands.ts";

Deno.test("each warm command is the command cli/commands.ts runs, from the same module", async () => {
  for (const [name, load] of Object.entries(WARM_COMMANDS)) {
    assert.ok(Object.hasOwn(COMMAND_MODULES, name), `${name} is warm but no command`);
    assert.equal(await load(), await COMMAND_MODULES[name](), name);
  }
});

Deno.test("runsWarm() keeps warm commands, no command and unknown words; hands the rest on", () => {
  for (const argv of [["ls"], ["--json", "search", "x"], [], ["--version"], ["no-such"]]) {
    assert.equal(runsWarm(argv, false), true, argv.join(" "));
  }
  for (const argv of [["log"], ["--json", "stats", "calls"], ["trust"]]) {
    assert.equal(runsWarm(argv, false), false, argv.join(" "));
  }
});

Deno.test("cli/_warm.gen.ts is what `deno task gen` writes from the ops declared warm", async () => {
  const { warmModule } = await import("../ops/gen.ts");
  const path = new URL("./_warm.gen.ts", import.meta.url);
  assert.equal(Deno.readTextFileSync(path), warmModule(), "stale: run `deno task gen`");
});
