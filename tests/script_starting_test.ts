/**
 * A script run never waits silently for a server still starting (issue 24,
 * decision 0010): with one server hanging on its first start, `mcpx exec`
 * calls another server at once; a namespace whose server is still starting
 * passes any tool name through to the daemon, which waits for that start as
 * `mcpx call` does; one note on stderr says which servers are starting; and
 * the run after a server is listed gets its real tools.
 *
 * The world's MCPX_DISCOVERY_WAIT (tests/_helpers.ts) is set back to the
 * default here, so these commands run as a user's would.
 */
import assert from "node:assert/strict";
import {
  fixtureServer,
  hangingServer,
  SERVERS,
  SHIPPED_DISCOVERY_WAIT,
  world,
} from "./_helpers.ts";

const DEFAULT = SHIPPED_DISCOVERY_WAIT;

Deno.test("exec calls a ready server while another hangs on its first start, a starting namespace's call waits for its start, and the next run has its real tools", async () => {
  await using w = await world();
  const [command, ...args] = SERVERS.everything;
  await w.writeConfig({
    mcpServers: {
      everything: { command, args },
      // Never answers initialize (before this fix, what waited for it failed at its 40s bound).
      hang: hangingServer(),
      // Starts a few seconds late: past the 1s grace, well within its allowance.
      slow: fixtureServer({ env: { MISBEHAVE_START_DELAY_MS: "5000" } }),
    },
  });
  const refreshed = await w.mcpx(["refresh", "everything"]);
  assert.equal(refreshed.code, 0, refreshed.stderr);

  const run = await w.mcpx([
    "exec",
    'const a = await everything.echo({ message: "x" }); ' +
    'const b = await slow.echo({ text: "from slow" }); [a, b]',
  ], { env: DEFAULT, timeoutMs: 30_000 });
  assert.equal(run.code, 0, run.stderr);
  assert.match(run.stdout, /Echo: x/, run.stdout);
  assert.match(run.stdout, /from slow/, run.stdout);
  const notes = run.stderr.split("\n").filter((l) => l.startsWith("note: "));
  assert.equal(notes.length, 1, run.stderr);
  assert.match(
    notes[0],
    /^note: hang, slow are starting \(\d+s so far; a first start may take up to \w+[^)]*\): the script's calls to them wait for their start/,
  );

  // Once listed, slow's tools are real: a typo gets the CLI's "did you mean".
  const listed = await w.mcpx(["types", "slow", "--wait=30s"], { env: DEFAULT });
  assert.equal(listed.code, 0, listed.stderr);
  const typo = await w.mcpx(["exec", 'await slow.echox({ text: "y" })'], {
    env: DEFAULT,
    timeoutMs: 30_000,
  });
  assert.notEqual(typo.code, 0);
  assert.match(typo.stderr, /unknown tool "slow\.echox"; did you mean slow\.echo/, typo.stderr);
  assert.match(typo.stderr, /^note: hang is starting \(/m, typo.stderr);
  assert.doesNotMatch(typo.stderr, /slow(, \w+)? (is|are) starting/, typo.stderr);
});
