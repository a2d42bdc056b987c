/**
 * Damaged state never breaks more than itself, and nothing readable is lost
 * (issue 9): a sessions file with a null entry, a numeric name or a cut-off
 * tail; a schema cache whose `servers` is null, read by `ls` and, as a
 * sibling, by another configuration's daemon; an index.db with pages
 * overwritten, read by `mcpx log` and `mcpx stats`.
 */

import assert from "node:assert/strict";
import { fixtureServer, STACK_LINE, stdioServer, type World, world } from "./_helpers.ts";

/** The one file in `dir` whose name matches, as a path. */
function only(dir: string, pattern: RegExp): string {
  const names = [...Deno.readDirSync(dir)].map((e) => e.name).filter((n) => pattern.test(n));
  assert.equal(names.length, 1, `${pattern} in ${dir}: ${names.join(", ")}`);
  return `${dir}/${names[0]}`;
}

const sessionsDir = (w: World) => `${w.dir}/.state/mcpx/sessions`;

async function sessionNames(w: World): Promise<string[]> {
  const listed = await w.json<{ sessions: { name: string }[] }>(["session", "ls"]);
  return listed.sessions.map((s) => s.name).sort();
}

async function makeSessions(w: World, names: string[]): Promise<string> {
  for (const name of names) {
    const made = await w.mcpx(["session", "new", "--name", name]);
    assert.equal(made.code, 0, made.stderr);
  }
  assert.equal((await w.mcpx(["stop"])).code, 0);
  return only(sessionsDir(w), /^[0-9a-f]+\.json$/);
}

Deno.test("a null entry or a numeric name in the sessions file is skipped with a warning naming the file", async () => {
  await using w = await world();
  await w.writeConfig({ mcpServers: { fx: fixtureServer() } });
  const file = await makeSessions(w, ["keep"]);
  const { configPath, sessions } = JSON.parse(Deno.readTextFileSync(file));
  const numeric = { ...sessions[0], name: 123 };
  Deno.writeTextFileSync(
    file,
    JSON.stringify({ configPath, sessions: [null, numeric, ...sessions] }),
  );

  // Before: the daemon could not start, and every command waited 10 s for it.
  const made = await w.mcpx(["session", "new", "--name", "more"], { timeoutMs: 8000 });
  assert.equal(made.code, 0, made.stderr);
  assert.ok(
    made.stderr.includes(
      `warning: sessions file ${file}: skipped entry 1: null is not a session record`,
    ),
    made.stderr,
  );
  assert.ok(made.stderr.includes(`skipped entry 2: "name" must be a string, got 123`), made.stderr);
  assert.doesNotMatch(made.stderr, STACK_LINE);
  assert.deepEqual(await sessionNames(w), ["keep", "more"]);
  const copy = only(sessionsDir(w), /\.damaged-/);
  assert.equal(JSON.parse(Deno.readTextFileSync(copy)).sessions[0], null, "the original is kept");
});

Deno.test("a sessions file cut short keeps the sessions before the cut", async () => {
  await using w = await world();
  await w.writeConfig({ mcpServers: { fx: fixtureServer() } });
  const file = await makeSessions(w, ["first", "second", "third"]);
  const text = Deno.readTextFileSync(file);
  Deno.writeTextFileSync(file, text.slice(0, text.indexOf('"third"') + 4));

  // Before: the file read as no sessions, and `session new` wrote only its own.
  const made = await w.mcpx(["session", "new", "--name", "fourth"], { timeoutMs: 8000 });
  assert.equal(made.code, 0, made.stderr);
  assert.match(made.stderr, /is damaged \(it is not whole JSON\); kept the 2 sessions/);
  assert.deepEqual(await sessionNames(w), ["first", "fourth", "second"]);
  assert.equal(
    Deno.readTextFileSync(only(sessionsDir(w), /\.damaged-/)),
    text.slice(0, text.indexOf('"third"') + 4),
  );
});

Deno.test('a schema cache with "servers": null is a cold cache, for ls and for another configuration\'s daemon', async (t) => {
  await using w = await world();
  const config = { mcpServers: { fx: fixtureServer() } };
  await w.writeConfig(config);
  assert.equal((await w.mcpx(["ls"])).code, 0);
  const cacheDir = `${w.dir}/.cache/mcpx`;
  const cache = only(cacheDir, /^schemas-[0-9a-f]+\.json$/);
  const nulled = JSON.stringify({ ...JSON.parse(Deno.readTextFileSync(cache)), servers: null });

  await t.step("ls lists the server again", async () => {
    Deno.writeTextFileSync(cache, nulled);
    const ls = await w.json<{ namespaces: { namespace: string; tools: number }[] }>(["ls"]);
    assert.deepEqual(ls.namespaces.map((n) => [n.namespace, n.tools]), [["fx", 5]]);
  });

  await t.step(
    "a sibling cache with servers null keeps no other daemon from starting",
    async () => {
      assert.equal((await w.mcpx(["stop"])).code, 0);
      // The newest sibling a daemon for the edited file reads (seedFromSiblings).
      Deno.writeTextFileSync(`${cacheDir}/schemas-00000000000000ff.json`, nulled);
      await w.writeConfig({ ...config, pool: {} });
      const call = await w.mcpx(["call", "fx.echo", '{"text":"still here"}'], { timeoutMs: 8000 });
      assert.equal(call.code, 0, call.stderr);
      assert.equal(call.stdout.trim(), "still here");
      const ls = await w.mcpx(["ls"]);
      assert.equal(ls.code, 0, ls.stderr);
    },
  );
});

Deno.test("a damaged server file in the schema cache costs that server a listing, and an old single-file cache is cold", async (t) => {
  await using w = await world();
  await w.writeConfig({ mcpServers: { fx: fixtureServer() } });
  assert.equal((await w.mcpx(["ls"])).code, 0);
  const cacheDir = `${w.dir}/.cache/mcpx`;
  const index = only(cacheDir, /^schemas-[0-9a-f]+\.json$/);
  const entry = only(index.replace(/\.json$/, ""), /^s-[0-9a-f]+\.json$/);

  await t.step("types lists the server again and the file is whole again", async () => {
    // No daemon may rewrite the entry after it is garbled: on a cold Deno cache the type
    // generator adds declarations late, and that write raced this one (fresh-machine run).
    assert.equal((await w.mcpx(["stop"])).code, 0);
    Deno.writeTextFileSync(entry, '{"version":2,"server":{"tools":nul');
    const types = await w.mcpx(["types", "fx"]);
    assert.equal(types.code, 0, types.stderr);
    // The one rule (decision 0019): the damaged file is moved aside, with a warning naming it.
    const copy = only(index.replace(/\.json$/, ""), /^s-[0-9a-f]+\.json\.damaged-/);
    assert.equal(Deno.readTextFileSync(copy), '{"version":2,"server":{"tools":nul');
    assert.ok(
      types.stderr.includes(`warning: the schema cache file ${entry} was damaged`),
      types.stderr,
    );
    assert.match(types.stdout, /declare namespace fx \{/);
    assert.equal(JSON.parse(Deno.readTextFileSync(entry)).server.tools.length, 5);
  });

  await t.step("a cache of the single-file layout is read as cold and written anew", async () => {
    // As after an upgrade: the daemon that held the cache is gone (a running one answers `ls`
    // from its memory, decision 0030), and the next one finds the old layout on disk.
    const stopped = await w.mcpx(["stop"]);
    assert.equal(stopped.code, 0, stopped.stderr);
    const v1 = { version: 1, mcpxVersion: "0.0.0", configPath: null, servers: {} };
    Deno.writeTextFileSync(index, JSON.stringify(v1));
    const ls = await w.json<{ namespaces: { namespace: string; tools: number; state: string }[] }>(
      ["ls"],
    );
    assert.deepEqual(ls.namespaces.map((n) => [n.namespace, n.tools, n.state]), [
      ["fx", 5, "ready"],
    ]);
    assert.equal(JSON.parse(Deno.readTextFileSync(index)).version, 2);
  });
});

/** Overwrites pages (1-based) of an SQLite file with bytes from a fixed-seed generator. */
function overwritePages(path: string, pages: number[]): void {
  const bytes = Deno.readFileSync(path);
  const pageSize = (bytes[16] << 8) | bytes[17];
  let seed = 12345;
  for (const page of pages) {
    for (let i = (page - 1) * pageSize; i < page * pageSize && i < bytes.length; i++) {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      bytes[i] = seed >>> 24;
    }
  }
  Deno.writeFileSync(path, bytes);
}

Deno.test("an index.db with pages overwritten is rebuilt from the log files by log and stats", async (t) => {
  await using w = await world();
  await w.writeConfig({ mcpServers: { fx: fixtureServer() } });
  // Forty calls in one script: each is a call record, as forty `mcpx call`s would be.
  const run = await w.mcpx([
    "exec",
    "for (let i = 0; i < 40; i++) await fx.echo({ text: `call ${i}` });",
  ]);
  assert.equal(run.code, 0, run.stderr);
  const calls = async () =>
    (await w.json<{ rows: { calls: number }[] }>(["stats", "calls"])).rows[0].calls;
  assert.equal(await calls(), 40);
  const index = `${w.dir}/.state/mcpx/logs/index.db`;
  const good = Deno.readFileSync(index);
  const pages = good.length / ((good[16] << 8) | good[17]);
  assert.ok(pages >= 12, `${pages} pages`);
  const damage: [string, number[]][] = [
    ["a few pages in the middle", [Math.floor(pages / 3), Math.floor(pages / 2), pages - 3]],
    ["the last page", [pages]],
    ["every page after the first", Array.from({ length: pages - 1 }, (_, i) => i + 2)],
  ];
  const commands = [
    ["log", "--limit", "5"],
    ["log", "--chain"],
    // Run in a child process (logs/sql_bounded.ts), which reports SQLite's result code.
    ["log", "sql", "SELECT count(*), max(length(attrs)) FROM records"],
    ...["calls", "slowest", "servers", "instances", "errors", "sessions", "volume"].map((
      view,
    ) => ["stats", view]),
  ];
  for (const [what, overwritten] of damage) {
    await t.step(what, async () => {
      for (const command of commands) {
        Deno.writeFileSync(index, good);
        overwritePages(index, overwritten);
        const run = await w.mcpx(command);
        assert.equal(run.code, 0, `mcpx ${command.join(" ")}: ${run.stderr}`);
        assert.doesNotMatch(run.stderr, /bug in mcpx|^error:/m);
        // The one rule (decision 0019): moved aside, with a warning naming it, when the
        // command met the damage (one that reads no damaged page has nothing to say).
        if (what.startsWith("every page") || run.stderr.includes("warning: the log index")) {
          assert.match(
            run.stderr,
            /warning: the log index .*index\.db was damaged \(.*\); it is moved aside as .*index\.db\.damaged-/,
          );
        }
      }
      Deno.writeFileSync(index, good);
      overwritePages(index, overwritten);
      assert.equal(await calls(), 40, "the rebuilt index counts every call");
    });
  }
});

Deno.test("a garbled questions.db: the daemon moves it aside, says so, and its servers still ask questions", async () => {
  await using w = await world();
  await w.writeConfig({ mcpServers: { everything: stdioServer("everything", ["stdio"]) } });
  const logs = `${w.dir}/.state/mcpx/logs`;
  Deno.mkdirSync(logs, { recursive: true, mode: 0o700 });
  Deno.writeTextFileSync(`${logs}/questions.db`, "not a database ".repeat(300), { mode: 0o600 });

  // Before: the daemon could not open the store, so no server was told mcpx answers questions
  // (the tools that ask vanished from listings) and nothing said why.
  const r = await w.mcpx(["call", "everything.trigger_elicitation_request", "{}"]);
  assert.equal(r.code, 75, r.stderr);
  assert.match(r.stderr, /question elc-[0-9a-f]{8}/);
  const copy = only(logs, /^questions\.db\.damaged-/);
  assert.ok(
    r.stderr.includes(
      `warning: the questions store ${logs}/questions.db was damaged (file is not a database); ` +
        `it is moved aside as ${copy}`,
    ),
    r.stderr,
  );
  const { questions } = await w.json<{ questions: { state: string }[] }>(["elicit", "list"]);
  assert.deepEqual(questions.map((q) => q.state), ["open"]);
  // And the daemon's log has it (decision 0019).
  const { rows } = await w.json<{ rows: string[][] }>([
    "log",
    "sql",
    "SELECT attrs ->> 'copy' FROM log WHERE event = 'state.damaged'",
  ]);
  assert.deepEqual(rows, [[copy]]);
});
