/**
 * `mcpx restart <ns> --session <key>` stops only that session's instances
 * (spec 000, "Per-session restart"); without the flag, MCPX_SESSION_ID does
 * not narrow a restart.
 */
import assert from "node:assert/strict";
import { fixtureServer, world } from "./_helpers.ts";

interface StatusJson {
  servers: { namespace: string; instances: { key: string; pid: number }[] }[];
}

Deno.test("restart --session stops that session's instance and leaves another session's alive", async (t) => {
  await using w = await world();
  await w.writeConfig({
    mcpServers: {
      sess: fixtureServer({ mcpx: { scope: "session" } }),
    },
  });
  const instances = async () =>
    (await w.json<StatusJson>(["status"])).servers.find((s) => s.namespace === "sess")!.instances;
  const keys = async () => (await instances()).map((i) => i.key).sort();
  const call = async (session: string) => {
    const r = await w.mcpx(["call", "sess.echo", '{"text":"hi"}', "--session", session]);
    assert.equal(r.code, 0, r.stderr);
  };

  await call("a");
  await call("b");
  assert.deepEqual(await keys(), ["session:a", "session:b"]);
  const pidB = (await instances()).find((i) => i.key === "session:b")!.pid;

  await t.step("--session a stops only session a's, even under MCPX_SESSION_ID=b", async () => {
    const restarted = await w.json(["restart", "sess", "--session", "a"], {
      env: { MCPX_SESSION_ID: "b" },
    });
    assert.deepEqual(restarted, { namespace: "sess", session: "a", stopped: 1 });
    const left = await instances();
    assert.deepEqual(left.map((i) => i.key), ["session:b"]);
    assert.equal(left[0].pid, pidB, "session b keeps its process");
  });

  await t.step("the output says how many of that session's instances stopped", async () => {
    const r = await w.mcpx(["restart", "sess", "--session", "nobody"]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(
      r.stdout,
      "sess: stopped 0 instances of session nobody; its next call starts a fresh one\n",
    );
    assert.deepEqual(await keys(), ["session:b"]);
  });

  await t.step(
    "without --session, MCPX_SESSION_ID does not narrow: every instance stops",
    async () => {
      await call("a");
      const restarted = await w.json(["restart", "sess"], { env: { MCPX_SESSION_ID: "b" } });
      assert.deepEqual(restarted, { namespace: "sess", stopped: 2 });
      assert.deepEqual(await keys(), []);
    },
  );
});
