/**
 * What a server that asks mcpx for an elicitation and a sampling hears when
 * both are declined (decision 0040, which replaced 0036's standing answers
 * now that questions are stored): elicitation `decline`, sampling an error
 * (the protocol has no decline result for it), and each routing decision
 * logged with its reason. A fixture server of our own
 * (tests/fixtures/servers/asks.ts) asks both in one call.
 */

import assert from "node:assert/strict";
import { fixtureServer, world } from "./_helpers.ts";

Deno.test("declined questions reach the server as decline and an error, and each route is logged", async () => {
  await using w = await world();
  await w.writeConfig({ mcpServers: { asks: fixtureServer({ fixture: "asks" }) } });
  const r = await w.mcpx(["call", "asks.ask", "{}"]);
  assert.equal(r.code, 75, r.stderr);
  const first = r.stderr.match(/question (elc-[0-9a-f]{8})/)![1];
  assert.match(r.stderr, /Which branch\?/);
  assert.match(r.stderr, /branch: string/);
  // Declining the elicitation lets the call go on to its sampling request: exit 75 again.
  const d1 = await w.mcpx(["elicit", "decline", first, "--wait"]);
  assert.equal(d1.code, 75, d1.stderr);
  const second = d1.stderr.match(/question (elc-[0-9a-f]{8})/)![1];
  assert.notEqual(second, first);
  assert.match(d1.stderr, /\(sampling, for you/);
  const d2 = await w.mcpx(["elicit", "decline", second, "--wait"]);
  assert.equal(d2.code, 0, d2.stderr);
  const { elicitation, sampling } = JSON.parse(d2.stdout);
  assert.deepEqual(elicitation, { action: "decline" });
  assert.equal(sampling.error.code, -1);
  assert.match(sampling.error.message, /the sampling request was declined/);

  const { records } = await w.json(["log", "--event", "question.asked", "-n", "10"]);
  const asked = records.map((x: { attrs: Record<string, unknown> }) => [
    x.attrs.kind,
    x.attrs.route,
    x.attrs.reason,
    x.attrs.message,
  ]);
  assert.deepEqual(asked.sort(), [
    [
      "elicitation",
      "agent",
      "the agent made the call and has the context to answer",
      "Which branch?",
    ],
    [
      "sampling",
      "agent",
      "a sampling request asks for a model's answer, and the agent driving mcpx has one",
      "Summarise the diff",
    ],
  ]);
});
