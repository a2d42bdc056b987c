/**
 * The wire checker (engine/wire_check.ts) end to end: `world()` turns it on
 * for every process test and fails the test on any line, so this test shows
 * a line does appear when a server sends a frame its revision does not allow.
 * The unit tests beside the checker cover what mcpx sends.
 */

import assert from "node:assert/strict";
import { fixtureServer, world } from "./_helpers.ts";

Deno.test("a frame the revision refuses lands in the wire-check file, and the call still answers", async () => {
  await using w = await world();
  await w.writeConfig({
    mcpServers: { bad: fixtureServer({ env: { MISBEHAVE_BAD_FRAME: "1" } }) },
  });
  const r = await w.mcpx(["call", "bad.echo", '{"text":"hi"}']);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stdout, "hi\n");
  const file = w.env.MCPX_WIRE_CHECK;
  const lines = (await Deno.readTextFile(file)).trim().split("\n").map((l) => JSON.parse(l));
  assert.equal(lines.length, 1, JSON.stringify(lines));
  assert.equal(lines[0].server, "bad");
  assert.equal(lines[0].direction, "received");
  assert.equal(lines[0].method, "notifications/message");
  assert.equal(lines[0].revision, "2025-11-25");
  assert.match(lines[0].error, /level/);
  // The line was expected: empty the file so disposing the world does not fail the test.
  await Deno.writeTextFile(file, "");
});
