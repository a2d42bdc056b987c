/**
 * A name a server or a configuration chooses is just a name, whatever it is
 * (decision 0025): tools named `toString`, `constructor`, `valueOf`,
 * `hasOwnProperty` and `__proto__` go through `ls`, `search`, `types`, `call`
 * and a script like any other, without breaking the other servers of the
 * configuration; a tool named `then` does not make its namespace a promise.
 * Also: what a script prints describes images, `search` needs words, and
 * `refresh` says when it listed through a process already running.
 */

import assert from "node:assert/strict";
import { fixtureServer, world } from "./_helpers.ts";
import { IMAGE_DATA, ODD_NAMES } from "./fixtures/servers/odd_names.ts";

/** Tools of the fixture besides {@link ODD_NAMES}. */
const OTHER_TOOLS = ["ok_tool", "image", "odd_schema"];

/**
 * The fixture with ordinary tool names only, for tests of other things (so they
 * fail before their own fix, not because odd names broke everything).
 */
function plainServer(env: Record<string, string> = {}) {
  return fixtureServer({ fixture: "odd_names", env: { ODD_NAMES_ONLY: "ok_tool,image", ...env } });
}

Deno.test("tools named like Object.prototype's members work through ls, search, types, call and a script", async (t) => {
  await using w = await world();
  await w.writeConfig({
    mcpServers: {
      odd: fixtureServer({
        fixture: "odd_names",
        mcpx: { toolTags: { toString: ["odd-tag"], constructor: ["odd-tag"] } },
      }),
      echo: fixtureServer(),
    },
  });

  await t.step("ls lists both servers", async () => {
    const ls = await w.json<{ namespaces: { namespace: string; tools: number; state: string }[] }>(
      ["ls"],
    );
    const odd = ls.namespaces.find((n) => n.namespace === "odd");
    assert.equal(odd?.tools, ODD_NAMES.length + OTHER_TOOLS.length, JSON.stringify(ls));
    assert.equal(ls.namespaces.find((n) => n.namespace === "echo")?.state, "ready");
  });

  await t.step("search finds them, and toolTags keyed by them tag only them", async () => {
    const found = await w.json<{ hits: { function: string }[] }>(["search", "-n", "50", "tool"]);
    const fns = found.hits.map((h) => h.function);
    for (const name of ODD_NAMES) assert.ok(fns.includes(`odd.${name}`), fns.join(" "));
    const tagged = await w.json<{ hits: { function: string }[] }>(["search", "--tag", "odd-tag"]);
    assert.deepEqual(tagged.hits.map((h) => h.function).sort(), [
      "odd.constructor",
      "odd.toString",
    ]);
  });

  await t.step("types renders every signature, {} as unknown", async () => {
    const types = await w.mcpx(["types", "odd"]);
    assert.equal(types.code, 0, types.stderr);
    for (const name of ODD_NAMES) assert.match(types.stdout, new RegExp(`function ${name}\\(`));
    assert.match(types.stdout, /In a script: `<namespace>\.then\.call\(args\)`/);
    assert.match(types.stdout, /anything: unknown/);
    assert.match(types.stdout, /"\*\/"\?: boolean/);
    assert.match(types.stdout, /__proto__\?: string/);
    assert.match(types.stdout, /constructor\?: number/);
    assert.doesNotMatch(types.stdout, /not rendered/);
  });

  await t.step("call reaches each of them, and the other server", async () => {
    for (const name of ODD_NAMES) {
      const r = await w.mcpx(["call", `odd.${name}`, '{"x":"1"}']);
      assert.equal(r.code, 0, r.stderr);
      assert.equal(r.stdout.trim(), `called ${name} with {"x":"1"}`);
    }
    const args = '{"anything":[1],"__proto__":"p","constructor":2}';
    const odd = await w.mcpx(["call", "odd.odd_schema", args]);
    assert.equal(odd.code, 0, odd.stderr);
    assert.equal(
      odd.stdout.trim(),
      `called odd_schema with ${args}`,
      "argument names pass as given",
    );
    const echo = await w.mcpx(["call", "echo.echo", '{"text":"hi"}']);
    assert.equal(echo.code, 0, echo.stderr);
    assert.equal(echo.stdout.trim(), "hi");
    const restart = await w.mcpx(["restart", "odd"]);
    assert.equal(restart.code, 0, restart.stderr);
  });

  await t.step("a script calls each of them; then is ns.then.call(), not a thenable", async () => {
    const code = [
      "const out = [];",
      `for (const name of ${JSON.stringify(ODD_NAMES.filter((n) => n !== "then"))}) {`,
      "  out.push(String(await odd[name]({ x: name })));",
      "}",
      'out.push(String(await odd.then.call({ x: "then" })));',
      'out.push(String(await odd["constructor"]({})), String(odd), typeof odd.then);',
      'out.push(describe("odd.__proto__").includes("function __proto__("));',
      "out.push(String(await tools.odd.toString({})));",
      'out.join("\\n")',
    ].join("\n");
    const r = await w.mcpx(["exec", code], { timeoutMs: 60_000 });
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(r.stdout.trim().split("\n"), [
      ...ODD_NAMES.map((name) => `called ${name} with {"x":"${name}"}`),
      "called constructor with {}",
      "[namespace odd]",
      "object",
      "true",
      "called toString with {}",
    ]);
  });

  await t.step("a namespace with a tool named then is a value, not a promise", async () => {
    // Awaiting it (as exec does with its last value) must not call the tool.
    const r = await w.mcpx(["exec", "const ns = await odd; Object.keys(ns).length"], {
      timeoutMs: 60_000,
    });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout.trim(), String(ODD_NAMES.length + OTHER_TOOLS.length));
  });
});

Deno.test("a script's printed value describes an image as mcpx call does; .raw keeps the data", async () => {
  await using w = await world();
  await w.writeConfig({ mcpServers: { odd: plainServer() } });
  const call = await w.mcpx(["call", "odd.image"]);
  assert.equal(call.code, 0, call.stderr);
  assert.match(call.stdout, /^\[image: image\/png, 5 bytes; /);

  const printed = await w.mcpx(["exec", "odd.image({})"]);
  assert.equal(printed.code, 0, printed.stderr);
  assert.match(printed.stdout, /^\[image: image\/png, 5 bytes; not printed[^\n]*\]\ncaption\n$/);
  const nested = await w.mcpx(["exec", "({ shot: (await odd.image({})).content[0] })"]);
  assert.equal(nested.code, 0, nested.stderr);
  assert.match(nested.stdout, /"shot": "\[image: image\/png, 5 bytes; not printed/);
  const emitted = await w.mcpx(["exec", "emit(await odd.image({}))"]);
  assert.equal(emitted.code, 0, emitted.stderr);
  for (const out of [printed.stdout, nested.stdout, emitted.stdout]) {
    assert.ok(!out.includes(IMAGE_DATA), out);
  }

  const raw = await w.mcpx(["exec", "(await odd.image({})).raw.content[0].data"]);
  assert.equal(raw.code, 0, raw.stderr);
  assert.equal(raw.stdout.trim(), IMAGE_DATA);
});

Deno.test("search without words is a usage error naming what to type", async () => {
  await using w = await world();
  await w.writeConfig({ mcpServers: { odd: plainServer() } });
  const r = await w.mcpx(["search"]);
  assert.equal(r.code, 2, r.stdout);
  assert.equal(r.stdout, "");
  assert.match(r.stderr, /error: say what the tool should do, e\.g\. `mcpx search screenshot`/);
  const tagged = await w.json<{ hits: unknown[] }>(["search", "--tag", "none-such"]);
  assert.deepEqual(tagged.hits, [], "--tag alone still lists by tag");
});

Deno.test("refresh says a listing came from a process already running; restart then refresh lists the new code", async () => {
  await using w = await world();
  const extra = `${w.dir}/extra-tools`;
  await Deno.writeTextFile(extra, "");
  await w.writeConfig({
    mcpServers: { odd: plainServer({ ODD_NAMES_EXTRA: extra }) },
  });
  const before = 2;
  type Refresh = { servers: Record<string, { tools: number; listedBy?: { startedAt: string } }> };
  const first = await w.json<Refresh>(["refresh"]);
  assert.equal(first.servers.odd.tools, before);
  assert.equal(first.servers.odd.listedBy, undefined, "a fresh process");

  // The server's code changes while its process runs.
  await Deno.writeTextFile(extra, "new_tool\n");
  const stale = await w.mcpx(["refresh", "odd"]);
  assert.equal(stale.code, 0, stale.stderr);
  assert.match(stale.stdout, /odd: listed by its running process \(pid \d+, started [^)]+\)/);
  assert.match(stale.stdout, /`mcpx restart odd` then `mcpx refresh odd`/);
  assert.ok((await w.json<Refresh>(["refresh"])).servers.odd.listedBy?.startedAt);

  assert.equal((await w.mcpx(["restart", "odd"])).code, 0);
  const fresh = await w.json<Refresh>(["refresh", "odd"]);
  assert.equal(fresh.servers.odd.tools, before + 1);
  assert.equal(fresh.servers.odd.listedBy, undefined);
});

Deno.test("editing how a server is pooled does not start it again to list it", async () => {
  await using w = await world();
  const starts = `${w.dir}/starts`;
  const server = plainServer({ ODD_NAMES_STARTS: starts });
  await w.writeConfig({ mcpServers: { odd: server } });
  assert.equal((await w.mcpx(["ls"])).code, 0);
  assert.equal((await w.mcpx(["stop", "--all"])).code, 0);
  const startsBefore = (await Deno.readTextFile(starts)).trim().split("\n").length;

  await w.writeConfig({
    mcpServers: {
      odd: { ...server, mcpx: { sharing: "exclusive", callTimeout: "5m", leaseTimeout: "1m" } },
    },
  });
  const ls = await w.json<{ namespaces: { namespace: string; tools: number }[] }>(["ls"]);
  assert.equal(ls.namespaces[0].tools, 2);
  const startsAfter = (await Deno.readTextFile(starts)).trim().split("\n").length;
  assert.equal(startsAfter, startsBefore, "listed from the cache, not by a new start");

  await w.writeConfig({
    mcpServers: { odd: { ...server, args: [...server.args, "--changed"] } },
  });
  assert.equal((await w.mcpx(["ls"])).code, 0);
  const startsChanged = (await Deno.readTextFile(starts)).trim().split("\n").length;
  assert.equal(startsChanged, startsBefore + 1, "other arguments: listed again");
});
