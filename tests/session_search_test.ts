/**
 * `mcpx session search <words>` (issue 29): sessions found by name, server,
 * tool and trace id over the log index and the named sessions' records.
 */
import assert from "node:assert/strict";
import { fixtureServer, world } from "./_helpers.ts";

interface Hit {
  session: string;
  kind: string;
  tools: string[];
  matched: string[];
}

Deno.test("session search finds sessions by name, tool and trace id, best first", async () => {
  await using w = await world();
  await w.writeConfig({
    mcpServers: {
      counter: fixtureServer({ fixture: "counter", mcpx: { scope: "session" } }),
      misc: fixtureServer({ mcpx: { scope: "session" } }),
    },
  });
  await w.json(["session", "new", "--name", "login-flow"]);
  for (
    const [session, target, args] of [
      ["login-flow", "counter.bump", '{"key":"a"}'],
      ["other", "misc.echo", '{"text":"hi"}'],
    ]
  ) {
    const r = await w.mcpx(["call", "--session", session, target, args], {
      env: { MCPX_TRACE_IDS: JSON.stringify([["ticket", `T-${session}`]]) },
    });
    assert.equal(r.code, 0, r.stderr);
  }
  const search = async (...words: string[]) =>
    (await w.json<{ hits: Hit[] }>(["session", "search", ...words])).hits;

  const byName = await search("login-flow");
  assert.equal(byName[0].session, "login-flow");
  assert.equal(byName[0].kind, "named");
  assert.deepEqual(byName[0].tools, ["counter.bump"]);

  assert.deepEqual((await search("echo")).map((h) => h.session), ["other"]);
  assert.deepEqual((await search("T-other")).map((h) => [h.session, h.matched]), [
    ["other", ["T-other: trace id"]],
  ]);
  assert.deepEqual((await search("counter", "login")).map((h) => h.session), ["login-flow"]);
  assert.deepEqual(await search("nothing-like-this"), []);
  const usage = await w.mcpx(["session", "search"]);
  assert.equal(usage.code, 2);
});
