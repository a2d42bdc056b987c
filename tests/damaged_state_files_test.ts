/**
 * One rule for every state file mcpx cannot read (issue 24, "Damaged state is
 * never a bug in mcpx"; decision 0019): the command that reads it moves it
 * aside as `<file>.damaged-<time>`, warns naming the file and what was lost,
 * works on a new empty one, and `mcpx doctor` reports it (reading, never
 * repairing). Run in this process (cli/main.ts), in a home of its own.
 */

import assert from "node:assert/strict";
import { entryPath } from "../engine/oauth_store.ts";
import { home } from "./_home.ts";

/** The files in `dir` whose names match. */
function matching(dir: string, pattern: RegExp): string[] {
  return [...Deno.readDirSync(dir)].map((e) => e.name).filter((n) => pattern.test(n));
}

const GARBAGE = new TextEncoder().encode(
  "not a database, overwritten by something else\n".repeat(200),
);

Deno.test("a garbled questions.db: elicit list moves it aside, warns, lists none, and doctor says so", async () => {
  await using h = await home();
  const logs = `${h.state}/logs`;
  Deno.mkdirSync(logs, { recursive: true, mode: 0o700 });
  Deno.writeFileSync(`${logs}/questions.db`, GARBAGE, { mode: 0o600 });

  const before = await h.doctor();
  const failed = before.find((f) => f.status === "fail");
  assert.ok(failed, JSON.stringify(before));
  assert.match(
    failed.message,
    /the questions store .*questions\.db is damaged \(file is not a database\)/,
  );
  assert.deepEqual(matching(logs, /\.damaged-/), [], "doctor reads, it does not repair");

  // Before: `error: file is not a database (this is a bug in mcpx; …)`, exit 1.
  const list = await h.run(["elicit", "list", "--json"]);
  assert.equal(list.code, 0, list.stderr);
  assert.doesNotMatch(list.stderr, /bug in mcpx/);
  const [copy] = matching(logs, /^questions\.db\.damaged-/);
  assert.ok(copy, list.stderr);
  assert.ok(
    list.stderr.includes(
      `warning: the questions store ${logs}/questions.db was damaged (file is not a database); ` +
        `it is moved aside as ${logs}/${copy} and started again empty: the questions it held are lost`,
    ),
    list.stderr,
  );
  assert.deepEqual(Deno.readFileSync(`${logs}/${copy}`), GARBAGE, "the original bytes are kept");
  assert.equal(Deno.statSync(`${logs}/${copy}`).mode! & 0o777, 0o600);

  const again = await h.run(["elicit", "list"]);
  assert.equal(again.code, 0, again.stderr);
  assert.equal(again.stderr, "", "the new store reads clean");

  const after = await h.doctor();
  assert.deepEqual(after.map((f) => f.status), ["warn"], JSON.stringify(after));
  assert.equal(after[0].subject, `${logs}/${copy}`);
  assert.match(after[0].message, /questions\.db was found damaged; its bytes are kept as/);
});

Deno.test("a damaged OAuth token file: auth ls moves it aside and names the server to sign in again", async () => {
  await using h = await home();
  const url = "http://127.0.0.1:9/mcp";
  Deno.writeTextFileSync(
    `${h.dir}/.mcp.json`,
    JSON.stringify({ mcpServers: { prot: { url } } }),
  );
  const path = await entryPath(h.state, { configPath: `${h.dir}/.mcp.json`, server: "prot", url });
  const dir = path.slice(0, path.lastIndexOf("/"));
  Deno.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const cut = `{"version":1,"configPath":"${h.dir}/.mcp.json","server":"prot","url":"${url}",` +
    `"tokens":{"access_token":"abc`;
  Deno.writeTextFileSync(path, cut, { mode: 0o600 });

  const before = await h.doctor();
  assert.deepEqual(before.map((f) => [f.status, f.subject]), [["fail", path]]);
  assert.match(before[0].message, /the OAuth token file .* is damaged \(it is not whole JSON\)/);

  // Before: read as "no tokens", without a word.
  const ls = await h.run(["auth", "ls"]);
  assert.equal(ls.code, 0, ls.stderr);
  const [copy] = matching(dir, /\.json\.damaged-/);
  assert.ok(copy, ls.stderr);
  assert.ok(
    ls.stderr.includes(
      `warning: the OAuth token file ${path} was damaged (it is not whole JSON); it is moved ` +
        `aside as ${dir}/${copy} and started again empty: the tokens in it for server "prot" ` +
        "are lost; sign in again with `mcpx auth prot`",
    ),
    ls.stderr,
  );
  assert.equal(Deno.readTextFileSync(`${dir}/${copy}`), cut);
  assert.ok(!matching(dir, /\.json$/).length, "read as no tokens from here on");

  const after = await h.doctor();
  assert.deepEqual(after.map((f) => [f.status, f.subject]), [["warn", `${dir}/${copy}`]]);
});

Deno.test("a garbled log index: log moves it aside with a warning that nothing is lost, and rebuilds it", async () => {
  await using h = await home();
  const logs = `${h.state}/logs`;
  Deno.mkdirSync(logs, { recursive: true, mode: 0o700 });
  Deno.writeFileSync(`${logs}/index.db`, GARBAGE, { mode: 0o600 });

  const log = await h.run(["log", "--limit", "1"]);
  assert.equal(log.code, 0, log.stderr);
  const [copy] = matching(logs, /^index\.db\.damaged-/);
  assert.ok(copy, log.stderr);
  assert.match(
    log.stderr,
    /warning: the log index .*index\.db was damaged \(file is not a database\); it is moved aside as .*: nothing is lost, it is rebuilt from the log files/,
  );
  const after = await h.doctor();
  assert.deepEqual(after.map((f) => [f.status, f.subject]), [["warn", `${logs}/${copy}`]]);
});

Deno.test("doctor reports a damaged trust store and sessions file, which are read in part", async () => {
  await using h = await home();
  Deno.mkdirSync(`${h.state}/sessions`, { recursive: true, mode: 0o700 });
  const trust = '{"version":1,"files":{"/p/.mcp.json":{"a';
  Deno.writeTextFileSync(`${h.state}/trust.json`, trust);
  Deno.writeTextFileSync(`${h.state}/sessions/00ff.json`, '{"configPath":null,"sessions":[');
  const found = await h.doctor();
  assert.deepEqual(found.map((f) => [f.status, f.subject]), [
    ["warn", `${h.state}/trust.json`],
    ["warn", `${h.state}/sessions/00ff.json`],
  ]);
  assert.match(found[0].message, /the trust store .* is damaged \(it is not whole JSON\)/);
  assert.equal(Deno.readTextFileSync(`${h.state}/trust.json`), trust, "doctor changes nothing");
});

Deno.test("a questions.db of another shape (SQLite, but not the store's table): moved aside like a garbled one", async () => {
  await using h = await home();
  const logs = `${h.state}/logs`;
  Deno.mkdirSync(logs, { recursive: true, mode: 0o700 });
  const { DatabaseSync } = await import("node:sqlite");
  const foreign = new DatabaseSync(`${logs}/questions.db`);
  foreign.exec("CREATE TABLE questions (x)");
  foreign.close();

  const before = await h.doctor();
  const failed = before.find((f) => f.status === "fail");
  assert.ok(failed, JSON.stringify(before));
  assert.match(failed.message, /questions\.db is damaged \(table questions lacks id, kind, daemon/);

  // Before: `error: no such column: daemon (this is a bug in mcpx; …)`, exit 1.
  const list = await h.run(["elicit", "list", "--json"]);
  assert.equal(list.code, 0, list.stderr);
  assert.doesNotMatch(list.stderr, /bug in mcpx/);
  assert.match(list.stderr, /warning: the questions store .* was damaged \(table questions lacks/);
  assert.equal(matching(logs, /^questions\.db\.damaged-/).length, 1, list.stderr);
  const again = await h.run(["elicit", "list"]);
  assert.deepEqual([again.code, again.stderr], [0, ""]);
});
