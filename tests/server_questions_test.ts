/**
 * What a server that asks mcpx for an elicitation or a sampling it did not
 * declare is told (decision 0036): elicitation cancelled, sampling refused
 * with an error saying mcpx has no model, each logged as `server.asked`.
 * A fixture server of our own (tests/fixtures/servers/asks.ts): no real
 * server sends either to a client that did not declare it.
 */

import assert from "node:assert/strict";
import { fixtureServer, world } from "./_helpers.ts";

Deno.test("a server asking for elicitation or sampling hears cancel and no-model, logged", async () => {
  await using w = await world();
  await w.writeConfig({ mcpServers: { asks: fixtureServer({ fixture: "asks" }) } });
  const r = await w.mcpx(["call", "asks.ask", "{}"]);
  assert.equal(r.code, 0, r.stderr);
  const { elicitation, sampling } = JSON.parse(r.stdout);
  assert.deepEqual(elicitation, { action: "cancel" });
  assert.equal(sampling.error.code, -1);
  assert.match(sampling.error.message, /mcpx has no model to sample with yet/);

  const { records } = await w.json(["log", "--event", "server.asked", "-n", "10"]);
  const asked = records.map((x: { level: string; attrs: Record<string, unknown> }) => [
    x.level,
    x.attrs.method,
    x.attrs.answer,
    x.attrs.message,
  ]);
  assert.deepEqual(asked.sort(), [
    ["warn", "elicitation/create", "cancel", "Which branch?"],
    ["warn", "sampling/createMessage", "no-model", "Summarise the diff"],
  ]);
});
