/**
 * The three bounds on a caller's wait (issue 8): the wait for an instance
 * others hold (`leaseTimeout`), the start (`startTimeout`), and the call
 * (`callTimeout`); a caller's `--timeout` covers its wait and its call
 * together, and every timeout names its bound and setting as data.
 *
 * @module
 */

import assert from "node:assert/strict";
import { eventually, fixtureServer, STACK_LINE, world } from "./_helpers.ts";
import { requestDaemon } from "../wire/daemon_request.ts";
import { TimeoutError } from "../core/errors.ts";

interface Outcome {
  ms: number;
  error?: TimeoutError;
}

Deno.test("three queued calls with a 2 s timeout on a busy exclusive instance each end within their own 2 s", async () => {
  await using w = await world();
  await w.writeConfig({
    mcpServers: { slow: fixtureServer({ mcpx: { sharing: "exclusive", max: 1 } }) },
  });
  const warm = await w.mcpx(["call", "slow.echo", '{"text":"warm"}']);
  assert.equal(warm.code, 0, warm.stderr);
  const { daemons } = await w.json<{ daemons: { socket: string }[] }>(["daemons"]);
  const socket = daemons[0].socket;

  // Each asks for 10 s of work with 2 s to spare; the server never finishes in time.
  const call = async (): Promise<Outcome> => {
    const started = performance.now();
    try {
      await requestDaemon(socket, "call", {
        target: "slow.sleep",
        arguments: { ms: 10_000 },
        timeout: 2000,
        timeoutSetting: "--timeout",
      }, { timeoutMs: 30_000 });
      return { ms: performance.now() - started };
    } catch (error) {
      return { ms: performance.now() - started, error: error as TimeoutError };
    }
  };
  const outcomes = await Promise.all([call(), call(), call()]);
  // Before: 2, 4 and 6 s, each queued call getting a fresh 2 s once it had the instance.
  assert.deepEqual(
    outcomes.filter((o) => o.ms >= 3500).map((o) => Math.round(o.ms)),
    [],
    "calls with 2 s to spare that returned after 3.5 s",
  );
  for (const { error } of outcomes) {
    assert.ok(error instanceof TimeoutError, `a timeout, got ${error}`);
    assert.equal(error.setting, "--timeout", error.message);
    assert.ok(error.bound === "leaseTimeout" || error.bound === "callTimeout", error.bound);
  }
  // The first call to get the instance runs until its 2 s are spent. A queued one that gets it
  // with a little of its 2 s left (its holder was cancelled just before) spends that on the call,
  // so under load two may end as callTimeout; none gets a fresh 2 s.
  assert.ok(
    outcomes.some((o) => o.error?.bound === "callTimeout"),
    "one call ran and was cancelled; the others ran out of time waiting",
  );
});

Deno.test("call: every timeout names its bound and setting; on an exclusive instance it says how to recover", async (t) => {
  await using w = await world();
  await w.writeConfig({
    mcpServers: {
      slow: fixtureServer({
        mcpx: {
          sharing: "exclusive",
          scope: "session",
          callTimeout: "1s",
          leaseTimeout: "1s",
        },
      }),
    },
  });

  await t.step("callTimeout: named, with `mcpx restart <ns> --session <key>`", async () => {
    const r = await w.mcpx(["--json", "call", "--session", "s1", "slow.hang", "{}"]);
    assert.equal(r.code, 1, r.stdout);
    const { error } = JSON.parse(r.stdout);
    assert.equal(error.code, "timeout");
    assert.equal(error.bound, "callTimeout");
    assert.equal(error.setting, "callTimeout");
    assert.equal(error.ms, 1000);
    assert.match(error.message, /slow\.hang did not answer within 1000 ms \(callTimeout\)/);
    assert.match(error.message, /`mcpx restart slow --session s1`/);
  });

  await t.step(
    "--timeout: the setting named is the caller's, as data, not a rewritten message",
    async () => {
      const r = await w.mcpx(["call", "--session", "s2", "--timeout", "500ms", "slow.hang", "{}"]);
      assert.equal(r.code, 1);
      assert.match(r.stderr, /did not answer within 500 ms \(--timeout\)/);
      assert.match(r.stderr, /mcpx restart slow --session s2/);
      assert.doesNotMatch(r.stderr, STACK_LINE);
    },
  );

  await t.step(
    "leaseTimeout: a second caller of a held session waits 1 s and is told who holds it",
    async () => {
      const holder = w.mcpx([
        "call",
        "--session",
        "s3",
        "--timeout",
        "20s",
        "slow.sleep",
        '{"ms":5000}',
      ]);
      // Wait until the first call holds the instance (its lease shows in status).
      const held = await eventually(async () => {
        const { servers } = await w.json<{
          servers: { instances: { key: string; holders: number }[] }[];
        }>(["status"]);
        return servers[0].instances.some((x) => x.key === "session:s3" && x.holders > 0);
      }, 30_000);
      assert.ok(held, "the first call never took its lease");
      const r = await w.mcpx(["--json", "call", "--session", "s3", "slow.echo", '{"text":"x"}']);
      assert.equal(r.code, 1, r.stdout);
      const { error } = JSON.parse(r.stdout);
      assert.equal(error.bound, "leaseTimeout");
      assert.equal(error.setting, "leaseTimeout");
      assert.match(error.message, /no instance for key session:s3 became free within 1000 ms/);
      assert.match(error.message, /held by a call \(pid \d+\) since \d{4}-/);
      assert.match(error.message, /raise leaseTimeout/);
      assert.match(
        r.stderr,
        /note: waiting: slow \(session:s3\) is exclusive and held by a call \(pid \d+\) since \S+; waiting up to 1000 ms \(leaseTimeout\)/,
        "the waiting call says what it waits for",
      );
      await holder;
    },
  );
});
