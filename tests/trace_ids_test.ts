/**
 * `MCPX_TRACE_IDS`: the pairs a harness sets land on every record the caller
 * causes, as `id.<key>`, in the daemon (carried by each request) and in a
 * script run, and cannot overwrite what mcpx established (spec 000, "The
 * harness knows what the agent does not"; spec 004).
 */

import assert from "node:assert/strict";
import { fixtureServer, STACK_LINE, world } from "./_helpers.ts";

interface Rec {
  event: string;
  span: string;
  attrs: Record<string, unknown>;
}

const IDS = JSON.stringify([
  ["session_id", "abc"],
  ["worktree", "/p"],
  ["session", "forged"],
  ["ancestry", "p1", "p2"],
]);

Deno.test("MCPX_TRACE_IDS lands on the caller's records as id.<key>", async (t) => {
  await using w = await world();
  await w.writeConfig({ mcpServers: { fx: fixtureServer() } });
  const env = { MCPX_TRACE_IDS: IDS };
  const records = async (event: string) =>
    (await w.json<{ records: Rec[] }>(["log", "--event", event, "--limit", "50"])).records;

  await t.step(
    "a call's records carry the pairs; the leased session is not rewritten",
    async () => {
      const r = await w.mcpx(["--session", "real", "call", "fx.echo", '{"text":"hi"}'], { env });
      assert.equal(r.code, 0, r.stderr);
      const [start] = await records("call.start");
      const [end] = await records("call.end");
      for (const record of [start, end]) {
        assert.equal(record.attrs["id.session_id"], "abc", JSON.stringify(record));
        assert.equal(record.attrs["id.worktree"], "/p");
        assert.deepEqual(record.attrs["id.ancestry"], ["p1", "p2"]);
        assert.equal(record.attrs["id.session"], "real", "mcpx's session wins over the pair");
        assert.equal(record.attrs.session, "real");
      }
    },
  );

  await t.step("a run's own records and its calls' records carry them too", async () => {
    await Deno.writeTextFile(
      `${w.dir}/s.ts`,
      `log.info("working");\nconsole.log(String(await fx.echo({ text: "from run" })));\n`,
    );
    const r = await w.mcpx(["run", "./s.ts"], { env });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /from run/);
    const [runStart] = await records("run.start");
    assert.equal(runStart.attrs["id.session_id"], "abc", JSON.stringify(runStart));
    assert.equal(runStart.attrs["id.run"], runStart.span);
    const logged = (await records("log")).find((x) => x.span === runStart.span);
    assert.equal(logged?.attrs["id.worktree"], "/p", JSON.stringify(logged));
    const call = (await records("call.end")).find((x) => x.attrs.run === runStart.span);
    assert.ok(call, "the run's call is recorded");
    assert.equal(call.attrs["id.session_id"], "abc", JSON.stringify(call));
    assert.equal(call.attrs["id.run"], runStart.span);
  });

  await t.step("a malformed value is an error naming the variable", async () => {
    const r = await w.mcpx(["call", "fx.echo", '{"text":"hi"}'], {
      env: { MCPX_TRACE_IDS: '[["lonely"]]' },
    });
    assert.equal(r.code, 1);
    assert.match(r.stderr, /^error: config environment: MCPX_TRACE_IDS: entry \["lonely"\]/);
    assert.doesNotMatch(r.stderr, STACK_LINE);
  });
});
