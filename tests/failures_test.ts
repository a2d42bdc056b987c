/**
 * Honest failure reporting: a server whose command does not exist and one
 * that exits at start with a message on stderr are reported by `ls`,
 * `status` and `call` with their reasons, never a stack trace, while the
 * other servers keep working.
 */

import assert from "node:assert/strict";
import { SERVERS, STACK_LINE, stdioServer, world } from "./_helpers.ts";

interface LsRow {
  namespace: string;
  state: string;
  tools: number;
  error?: string;
}

interface StatusRow {
  namespace: string;
  state: string;
  instances: unknown[];
  failure?: { message: string; count: number; stderrTail?: string };
  cacheError?: { message: string; stderr?: string };
}

Deno.test("ls, status and call report servers that fail to start", async (t) => {
  await using w = await world();
  await w.writeConfig({
    mcpServers: {
      everything: stdioServer("everything", ["stdio"]),
      missing: { command: `${w.dir}/no-such-server`, args: ["--stdio"] },
      crashing: { command: "sh", args: ["-c", "echo 'fatal: missing API_KEY' >&2; exit 3"] },
    },
  });

  await t.step("ls shows state error with the reason and lists the healthy server", async () => {
    const { namespaces } = await w.json<{ namespaces: LsRow[] }>(["ls"]);
    const row = (ns: string) => namespaces.find((n) => n.namespace === ns)!;
    assert.equal(row("everything").state, "ready");
    assert.ok(row("everything").tools > 0);
    assert.equal(row("missing").state, "error");
    assert.match(row("missing").error!, /command "[^"]*no-such-server" was not found/);
    assert.equal(row("crashing").state, "error");
    assert.match(row("crashing").error!, /exited with code 3/);
    assert.match(row("crashing").error!, /fatal: missing API_KEY/);

    const human = await w.mcpx(["ls"]);
    assert.equal(human.code, 0);
    assert.match(human.stdout, /^crashing\s.*\berror\b/m);
    assert.match(human.stdout, /`mcpx status` shows why a server failed/);
  });

  await t.step("status --json has the full message and the stderr tail", async () => {
    const { servers } = await w.json<{ servers: StatusRow[] }>(["status"]);
    const crashing = servers.find((s) => s.namespace === "crashing")!;
    assert.equal(crashing.state, "error");
    assert.ok(crashing.failure, JSON.stringify(crashing));
    assert.match(crashing.failure.message, /server "crashing": exited with code 3/);
    assert.match(crashing.failure.stderrTail ?? "", /fatal: missing API_KEY/);
    const missing = servers.find((s) => s.namespace === "missing")!;
    assert.equal(missing.state, "error");
    assert.match(
      missing.failure!.message,
      /was not found; install it or fix mcpServers\.missing\.command/,
    );

    const human = await w.mcpx(["status"]);
    assert.equal(human.code, 0);
    assert.match(human.stdout, /crashing \(server "crashing"\) failed:/);
    assert.match(human.stdout, /fatal: missing API_KEY/);
  });

  await t.step("call of a failed server exits 1 with a clear message", async () => {
    for (
      const [ref, reason] of [
        ["crashing.anything", /fatal: missing API_KEY/],
        ["missing.anything", /no-such-server" was not found/],
      ] as const
    ) {
      const r = await w.mcpx(["call", ref, "{}"]);
      assert.equal(r.code, 1, `${ref}: ${r.stderr}`);
      assert.equal(r.stdout, "");
      assert.match(r.stderr, /^error: server "(crashing|missing)"/);
      assert.match(r.stderr, reason);
      assert.doesNotMatch(r.stderr, STACK_LINE);
      assert.doesNotMatch(r.stderr, /this is a bug in mcpx/);
    }
  });

  await t.step("the healthy server keeps working beside the failed ones", async () => {
    const r = await w.mcpx(["call", "everything.echo", '{"message":"still here"}']);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, "Echo: still here\n");
    const { servers } = await w.json<{ servers: StatusRow[] }>(["status"]);
    assert.equal(servers.find((s) => s.namespace === "everything")!.state, "live");
  });

  await t.step("refresh reports the failures and exits 1", async () => {
    const r = await w.mcpx(["--json", "refresh"]);
    assert.equal(r.code, 1);
    const { servers } = JSON.parse(r.stdout);
    assert.ok(servers.everything.tools > 0);
    assert.match(servers.crashing.error, /exited with code 3|failed to start/);
    assert.match(servers.missing.error, /was not found/);
  });
});

Deno.test("ls reports a cached server that no longer starts as error, not ready", async () => {
  await using w = await world();
  const script = `${w.dir}/server.sh`;
  const [command, ...args] = SERVERS.everything;
  await Deno.writeTextFile(script, `#!/bin/sh\nexec ${command} ${args.join(" ")} stdio\n`);
  await Deno.chmod(script, 0o755);
  await w.writeConfig({ mcpServers: { ev: { command: script } } });
  assert.equal((await w.json(["ls"])).namespaces[0].state, "ready");
  await w.mcpx(["restart", "ev"]);
  await Deno.writeTextFile(script, `#!/bin/sh\necho 'fatal: broken now' >&2\nexit 1\n`);
  const call = await w.mcpx(["call", "ev.echo", '{"message":"x"}']);
  assert.equal(call.code, 1);
  const row = (await w.json(["ls"])).namespaces[0];
  assert.equal(row.state, "error", JSON.stringify(row));
  assert.match(row.error, /exited with code 1/);
});
