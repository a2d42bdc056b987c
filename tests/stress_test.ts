/**
 * Stress: 8 concurrent callers over 4 sessions, 200 calls each, straight to
 * the daemon's socket (1,600 CLI processes would measure deno's start-up, not
 * the pool). The server keeps state per process, so an answer from another
 * session's process would show: every `remember` answers the text remembered
 * before it, which must be this session's. Afterwards the sessions end and
 * no instance or process is left (issue 4, "Tests and measurements").
 */
import assert from "node:assert/strict";
import { requestDaemon } from "../wire/daemon_request.ts";
import { eventually, fixtureServer, world } from "./_helpers.ts";

const SESSIONS = 4;
const CALLERS_PER_SESSION = 2;
const CALLS = 200;

interface CallResult {
  content: { type: string; text: string }[];
}

Deno.test({
  name:
    "8 callers over 4 sessions, 200 calls each: every answer is its own session's, nothing leaks",
  fn: async () => {
    await using w = await world();
    await w.writeConfig({
      mcpServers: {
        state: fixtureServer({ fixture: "stateful", mcpx: { scope: "session", max: SESSIONS } }),
      },
    });
    // One CLI call starts the daemon and lists the server.
    const first = await w.mcpx(["call", "state.whoami", "{}", "--session", "warm"]);
    assert.equal(first.code, 0, first.stderr);
    const { daemons } = await w.json<{ daemons: { socket: string; pid: number }[] }>(["daemons"]);
    assert.equal(daemons.length, 1);
    const socket = daemons[0].socket;
    const call = async (session: string, tool: string, args: Record<string, unknown>) => {
      const result = await requestDaemon<CallResult>(socket, "call", {
        target: `state.${tool}`,
        arguments: args,
        session,
      }, { timeoutMs: 30_000 });
      return result.content[0].text;
    };
    assert.deepEqual(await requestDaemon(socket, "endSession", { session: "warm" }), {
      stopped: 1,
    });

    const started = performance.now();
    const callers = [];
    for (let c = 0; c < SESSIONS * CALLERS_PER_SESSION; c++) {
      const session = `s${c % SESSIONS}`;
      callers.push((async () => {
        const strangers: string[] = [];
        for (let i = 0; i < CALLS; i++) {
          const previous = await call(session, "remember", { text: `${session}/c${c}/${i}` });
          if (previous !== "" && !previous.startsWith(`${session}/`)) strangers.push(previous);
        }
        return strangers;
      })());
    }
    const strangers = (await Promise.all(callers)).flat();
    const ms = performance.now() - started;
    assert.deepEqual(strangers, [], "no caller saw another session's state");
    for (let s = 0; s < SESSIONS; s++) {
      const all = JSON.parse(await call(`s${s}`, "recall", {})) as string[];
      assert.equal(all.length, CALLERS_PER_SESSION * CALLS, `session s${s} holds its own calls`);
      assert.ok(all.every((t) => t.startsWith(`s${s}/`)), `session s${s} holds only its own`);
    }
    console.log(
      `${SESSIONS * CALLERS_PER_SESSION * CALLS} calls in ${Math.round(ms)} ms ` +
        `(${Math.round((SESSIONS * CALLERS_PER_SESSION * CALLS) / (ms / 1000))} calls/s)`,
    );

    const status = await w.json<{ servers: { instances: { key: string }[] }[] }>(["status"]);
    assert.deepEqual(
      status.servers[0].instances.map((i) => i.key).sort(),
      ["session:s0", "session:s1", "session:s2", "session:s3"],
      "one instance per session, none extra",
    );
    for (let s = 0; s < SESSIONS; s++) {
      assert.deepEqual(await requestDaemon(socket, "endSession", { session: `s${s}` }), {
        stopped: 1,
      });
    }
    const left = await w.json<{ servers: { instances: unknown[] }[] }>(["status"]);
    assert.deepEqual(left.servers[0].instances, []);
    assert.ok(
      await eventually(() => w.processes().every((pid) => pid === daemons[0].pid)),
      `only the daemon is left, got ${w.processes()}`,
    );
    await w.mcpx(["stop"]);
    assert.ok(await eventually(() => w.processes().length === 0), `left: ${w.processes()}`);
  },
});
