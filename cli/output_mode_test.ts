/**
 * The output mode is decided once, for an answer and an error alike, from the
 * flag, the environment and the configuration (issue 24: with
 * `MCPX_OUTPUT_JSON=yes` or `"output": { "json": true }` an answer was JSON and
 * an error was not).
 */
import assert from "node:assert/strict";
import { main } from "./main.ts";
import { memoryIo } from "../core/io.ts";

/** One way of asking for JSON: extra argv, variables, or a user configuration file. */
interface Mode {
  name: string;
  argv?: string[];
  env?: Record<string, string>;
  config?: unknown;
}

const MODES: Mode[] = [
  { name: "--json", argv: ["--json"] },
  { name: "MCPX_OUTPUT_JSON=1", env: { MCPX_OUTPUT_JSON: "1" } },
  { name: "MCPX_OUTPUT_JSON=yes", env: { MCPX_OUTPUT_JSON: "yes" } },
  { name: "MCPX_OUTPUT_JSON=true", env: { MCPX_OUTPUT_JSON: "true" } },
  { name: "MCPX_OUTPUT_FORMAT=json", env: { MCPX_OUTPUT_FORMAT: "json" } },
  { name: 'config "output": { "json": true }', config: { output: { json: true } } },
];

/** Runs `mcpx <argv>` in this process in a home of its own, with `mode` applied. */
async function run(mode: Mode, argv: string[]) {
  const home = await Deno.makeTempDir({ prefix: "mcpx-output-mode-" });
  try {
    await Deno.mkdir(`${home}/.config/mcpx`, { recursive: true });
    await Deno.writeTextFile(
      `${home}/.config/mcpx/config.json`,
      JSON.stringify({ ...mode.config as object, mcpServers: {} }),
    );
    const io = memoryIo();
    const env = {
      HOME: home,
      MCPX_STATE_DIR: `${home}/s`,
      MCPX_CACHE_DIR: `${home}/c`,
      ...mode.env,
    };
    const code = await main([...mode.argv ?? [], ...argv], io, env, home);
    return { code, stdout: io.stdout, stderr: io.stderr };
  } finally {
    await Deno.remove(home, { recursive: true });
  }
}

for (const mode of MODES) {
  Deno.test(`main() under ${mode.name} prints JSON for an answer and for an error`, async () => {
    const ok = await run(mode, ["ls"]);
    assert.equal(ok.code, 0, ok.stderr);
    assert.ok(Array.isArray(JSON.parse(ok.stdout).namespaces), ok.stdout);

    const failed = await run(mode, ["types", "nosuch"]);
    assert.equal(failed.code, 1, failed.stderr);
    const doc = JSON.parse(failed.stdout);
    assert.equal(doc.ok, false);
    assert.equal(doc.error.code, "not-found");
    assert.match(doc.error.message, /unknown namespace "nosuch"/);
    assert.match(failed.stderr, /^error: unknown namespace/m);

    // A command line that fails before it has a context is judged the same way.
    const usage = await run(mode, ["sarch"]);
    assert.equal(usage.code, 2);
    assert.equal(JSON.parse(usage.stdout).error.code, "usage");
  });
}

Deno.test("main() prints no JSON when the environment says no", async () => {
  const plain = await run({ name: "off", env: { MCPX_OUTPUT_JSON: "no" } }, ["types", "nosuch"]);
  assert.equal(plain.code, 1);
  assert.equal(plain.stdout, "");
});
