/**
 * What a server tells mcpx on its own, end to end through `mcpx` commands
 * (spec 000, "The rest of the protocol"; decision 0034): server-everything
 * (stdio, its messages copied on their way in) asked for its log messages
 * with `logLevel`, which `mcpx log` shows under the call they arrived
 * during; its long-running operation's progress, logged at a bounded rate,
 * and extending a call's deadline under `resetTimeoutOnProgress` but never
 * past `--timeout`; a `--timeout` or Ctrl-C that cancels the call upstream;
 * and a fixture whose tools change on demand (server-everything changes its
 * list only at start): the daemon lists it again and records what was added
 * and removed, and records the cancellation of a request the server sent.
 * One world and one warm daemon.
 */

import assert from "node:assert/strict";
import {
  backgroundMcpx,
  eventually,
  fixtureServer,
  onTerminal,
  SERVERS,
  world,
} from "./_helpers.ts";

type Rec = { event: string; span: string; parent?: string; attrs: Record<string, any> };

Deno.test("mcpx hears a real server's log messages, progress and list changes", async (t) => {
  await using w = await world();
  // Debug records too: a server's debug message is a debug record (logging.level filters it).
  w.env.MCPX_LOGGING_LEVEL = "debug";
  const stdinLog = `${w.dir}/everything-stdin.jsonl`;
  const [npx, ...args] = SERVERS.everything;
  // What server-everything reads, copied on its way in: the server itself is unchanged.
  const everything = {
    command: "sh",
    args: ["-c", 'tee -a "$STDIN_LOG" | "$@"', "sh", npx, ...args, "stdio"],
    env: { STDIN_LOG: stdinLog },
  };
  await w.writeConfig({
    mcpServers: {
      everything: { ...everything, mcpx: { logLevel: "debug" } },
      patient: {
        command: npx,
        args: [...args, "stdio"],
        mcpx: { callTimeout: "1500ms", resetTimeoutOnProgress: true },
      },
      changing: fixtureServer({ fixture: "changing" }),
    },
  });
  const received = async (): Promise<Record<string, any>[]> => {
    const text = await Deno.readTextFile(stdinLog).catch(() => "");
    return text.split("\n").filter(Boolean).map((line) => JSON.parse(line));
  };
  const records = async (event: string): Promise<Rec[]> =>
    (await w.json(["log", "--event", event, "-n", "1000"])).records;

  await t.step(
    "logLevel asks for log messages, and mcpx log shows them under the call",
    async () => {
      const r = await w.mcpx(["call", "everything.toggle_simulated_logging", "{}"]);
      assert.equal(r.code, 0, r.stderr);
      const setLevel = (await received()).find((m) => m.method === "logging/setLevel");
      assert.deepEqual(setLevel?.params, { level: "debug" });
      let messages: Rec[] = [];
      assert.ok(
        await eventually(
          async () => (messages = await records("server.message")).length > 0,
          15_000,
        ),
        "a server.message record",
      );
      const [call] = (await records("call.end")).filter((c) =>
        c.attrs.tool === "toggle-simulated-logging"
      );
      const first = messages[0];
      assert.equal(first.attrs.server, "everything");
      assert.match(first.attrs.text, /-level message|level-message/);
      assert.ok(["debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"]
        .includes(first.attrs.serverLevel));
      // Sent while the toggle call ran, alone on its instance: the call's span, and said so.
      assert.equal(first.attrs.during, "call", JSON.stringify(first));
      assert.equal(first.span, call.span);
      const text = (await w.mcpx(["log", "--event", "server.message"])).stdout;
      assert.match(text, /everything: .*-level message|everything: .*level-message/);
      // Off again: the server stops sending.
      assert.equal((await w.mcpx(["call", "everything.toggle_simulated_logging", "{}"])).code, 0);
    },
  );

  await t.step(
    "every call carries a progress token; progress is logged at a bounded rate",
    async () => {
      const r = await w.mcpx([
        "call",
        "everything.trigger_long_running_operation",
        '{"duration":2,"steps":4}',
      ]);
      assert.equal(r.code, 0, r.stderr);
      const calls = (await received()).filter((m) => m.method === "tools/call");
      assert.ok(calls.every((m) => m.params._meta?.progressToken !== undefined), "a token on each");
      const [end] = (await records("call.end")).filter((c) =>
        c.attrs.tool === "trigger-long-running-operation"
      );
      const progress = (await records("call.progress")).filter((p) => p.span === end.span);
      // Four steps 500 ms apart, at most one record a second: the first at once, then fewer than
      // one each, every record counting those passed over since the one before it. (The last can be
      // lost: the SDK hands a notification on a microtask after the answer read with it.)
      const seen = progress.map((p) => [p.attrs.progress, p.attrs.count, p.attrs.skipped]);
      assert.deepEqual(seen[0], [1, 1, 0], JSON.stringify(seen));
      assert.ok(seen.length >= 2 && seen.length < 4, JSON.stringify(seen));
      for (let i = 1; i < seen.length; i++) {
        assert.equal(seen[i][1] - seen[i][2] - 1, seen[i - 1][1], JSON.stringify(seen));
      }
      assert.equal(progress[0].attrs.total, 4);
    },
  );

  await t.step("on a terminal, mcpx call shows the progress line and erases it", async () => {
    const { code, text } = await onTerminal(w, [
      "call",
      "everything.trigger_long_running_operation",
      '{"duration":2,"steps":4}',
    ]);
    assert.equal(code, 0, text);
    const ERASE = "\r\x1b[K";
    assert.ok(text.includes(`${ERASE}everything.trigger_long_running_operation: 1/4 (25%)`), text);
    assert.doesNotMatch(text, /\\u001b/, "mcpx's own terminal control is written as is");
    // Erased before the answer is printed.
    assert.ok(text.includes(`${ERASE}Long running operation completed`), text);
  });

  await t.step(
    "resetTimeoutOnProgress lets a call run past callTimeout while progress arrives",
    async () => {
      // 3 s in six steps against a 1.5 s callTimeout.
      const ok = await w.mcpx([
        "call",
        "patient.trigger_long_running_operation",
        '{"duration":3,"steps":6}',
      ]);
      assert.equal(ok.code, 0, ok.stderr);
      assert.match(ok.stdout, /Long running operation completed/);
      // --timeout stays a hard bound, progress or not.
      const bounded = await w.mcpx([
        "call",
        "--timeout",
        "2s",
        "patient.trigger_long_running_operation",
        '{"duration":4,"steps":8}',
      ]);
      assert.equal(bounded.code, 1, bounded.stdout);
      assert.match(bounded.stderr, /within 2000 ms \(--timeout\)/);
    },
  );

  await t.step("a --timeout and a Ctrl-C cancel the call upstream", async () => {
    const cancelledFor = async (id: unknown) =>
      (await received()).some((m) =>
        m.method === "notifications/cancelled" && m.params.requestId === id
      );
    const lastLongCall = async () =>
      (await received()).filter((m) =>
        m.method === "tools/call" && m.params.name === "trigger-long-running-operation"
      ).at(-1);
    const timedOut = await w.mcpx([
      "call",
      "--timeout",
      "1s",
      "everything.trigger_long_running_operation",
      '{"duration":30,"steps":3}',
    ]);
    assert.equal(timedOut.code, 1);
    const first = await lastLongCall();
    assert.ok(await eventually(() => cancelledFor(first!.id), 5000), "cancelled after --timeout");

    await using interrupted = backgroundMcpx(w, [
      "call",
      "everything.trigger_long_running_operation",
      '{"duration":30,"steps":3}',
    ]);
    assert.ok(await eventually(async () => (await lastLongCall())?.id !== first!.id, 15_000));
    const second = await lastLongCall();
    Deno.kill(interrupted.pid, "SIGINT");
    await interrupted.status;
    assert.ok(await eventually(() => cancelledFor(second!.id), 5000), "cancelled after Ctrl-C");
  });

  await t.step("list_changed lists the server again and records what changed", async () => {
    const grow = await w.mcpx(["call", "changing.grow", '{"name":"fresh"}']);
    assert.equal(grow.code, 0, grow.stderr);
    let changed: Rec[] = [];
    assert.ok(
      await eventually(async () =>
        (changed = (await records("catalog.changed")).filter((c) =>
          c.attrs.added?.includes("fresh")
        )).length > 0
      ),
      "a catalog.changed record adding fresh",
    );
    assert.deepEqual(changed[0].attrs.removed, []);
    const fresh = await w.mcpx(["call", "changing.fresh", "{}"]);
    assert.equal(fresh.code, 0, fresh.stderr);
    assert.equal(fresh.stdout, "fresh\n");
    assert.equal((await w.mcpx(["call", "changing.shrink", '{"name":"fresh"}'])).code, 0);
    assert.ok(
      await eventually(async () =>
        (await records("catalog.changed")).some((c) => c.attrs.removed?.includes("fresh"))
      ),
      "a catalog.changed record removing fresh",
    );
    const gone = await w.mcpx(["call", "changing.fresh", "{}"]);
    assert.equal(gone.code, 1);
  });

  await t.step("a server's cancellation of its own request is recorded", async () => {
    const r = await w.mcpx(["call", "changing.cancel_own_request", "{}"]);
    assert.equal(r.code, 0, r.stderr);
    let cancelled: Rec[] = [];
    assert.ok(
      await eventually(async () => (cancelled = await records("server.cancelled")).length > 0),
    );
    assert.equal(cancelled[0].attrs.server, "changing");
    assert.equal(cancelled[0].attrs.reason, "changed its mind");
  });
});
