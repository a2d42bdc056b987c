/**
 * Servers that print garbage, hang, or crash mid-call get clear errors, and
 * the next call works (spec 000, "Honest failure reporting").
 */
import assert from "node:assert/strict";
import { fixtureServer, world } from "./_helpers.ts";

const fixture = (env: Record<string, string> = {}, mcpx: Record<string, unknown> = {}) =>
  fixtureServer({ env, mcpx });

Deno.test("a server that prints garbage on stdout still lists and answers", async () => {
  await using w = await world();
  await w.writeConfig({ mcpServers: { noisy: fixture({ MISBEHAVE_GARBAGE: "1" }) } });
  const ls = await w.json(["ls"]);
  assert.equal(ls.namespaces[0].state, "ready", JSON.stringify(ls));
  assert.equal(ls.namespaces[0].tools, 5); // echo, sleep, count, hang, crash
  const call = await w.mcpx(["call", "noisy.echo", '{"text":"still here"}']);
  assert.equal(call.code, 0, call.stderr);
  assert.equal(call.stdout, "still here\n");
  const status = await w.json(["status"]);
  const tail = status.servers[0].instances[0].stderrTail ?? "";
  assert.match(tail, /stdout: debug: echo still here/, "stray stdout lines are kept for diagnosis");
});

Deno.test("a hung call fails at its timeout, and the next call succeeds", async () => {
  await using w = await world();
  await w.writeConfig({ mcpServers: { slow: fixture({}, { callTimeout: "1s" }) } });
  const hung = await w.mcpx(["call", "slow.hang"]);
  assert.equal(hung.code, 1);
  assert.match(hung.stderr, /slow\.hang did not answer within 1000 ms \(callTimeout\)/);
  assert.doesNotMatch(hung.stderr, /^\s+at /m, "no stack trace");
  const next = await w.mcpx(["call", "slow.echo", '{"text":"ok"}']);
  assert.equal(next.code, 0, next.stderr);
  assert.equal(next.stdout, "ok\n");
});

Deno.test("--timeout overrides callTimeout for one call", async () => {
  await using w = await world();
  await w.writeConfig({ mcpServers: { slow: fixture() } });
  const result = await w.mcpx(["call", "--timeout", "300ms", "slow.sleep", '{"ms":5000}']);
  assert.equal(result.code, 1);
  assert.match(result.stderr, /did not answer within 300 ms \(--timeout\)/);
  assert.doesNotMatch(result.stderr, /callTimeout/, "the limit came from --timeout");
});

Deno.test("a server that crashes mid-call fails that call with its exit status and stderr; the next call gets a fresh instance", async () => {
  await using w = await world();
  await w.writeConfig({ mcpServers: { fragile: fixture() } });
  const first = await w.json(["status"]);
  assert.equal(first.servers[0].instances.length, 0);
  await w.mcpx(["call", "fragile.echo", '{"text":"warm"}']);
  const before = (await w.json(["status"])).servers[0].instances[0].pid;
  const crash = await w.mcpx(["call", "fragile.crash", '{"code":7}']);
  assert.equal(crash.code, 1);
  assert.match(crash.stderr, /fragile\.crash/);
  assert.match(crash.stderr, /about to crash on purpose/, crash.stderr);
  const next = await w.mcpx(["call", "fragile.echo", '{"text":"again"}']);
  assert.equal(next.code, 0, next.stderr);
  const after = (await w.json(["status"])).servers[0].instances[0].pid;
  assert.notEqual(after, before, "a fresh process serves the next call");
});
