/**
 * `mcpx ls` answered by a running daemon (the `lsNamespaces` route, decision
 * 0030) says what it says from the cache's files: the same rows, states,
 * descriptions, notes and warnings, in text and in JSON, on real servers
 * (server-everything and server-memory), except the LIVE count, which only a
 * daemon has. While the daemon answers, the commands are given an empty cache
 * directory of their own, so an answer read from the files could not match.
 *
 * @module
 */

import assert from "node:assert/strict";
import { type RunResult, stdioServer, world } from "./_helpers.ts";

interface LsJson {
  namespaces: { namespace: string; live: number; state: string }[];
  warnings: string[];
}

Deno.test("ls from a running daemon answers as ls from the cache's files", async () => {
  await using w = await world();
  await w.writeConfig({
    // An unknown key: its warning is the command's own, and must be said either way.
    mcpServerz: {},
    mcpServers: {
      everything: stdioServer("everything"),
      memory: stdioServer("memory"),
      off: { ...stdioServer("memory"), disabled: true },
    },
  });
  const listed = await w.mcpx(["ls"]);
  assert.equal(listed.code, 0, listed.stderr);
  const warm = await w.mcpx(["call", "everything.echo", '{"message":"warm"}']);
  assert.equal(warm.code, 0, warm.stderr);
  const empty = await Deno.makeTempDir({ dir: w.dir, prefix: "no-cache-" });
  w.env.MCPX_CACHE_DIR = empty;
  const text = await w.mcpx(["ls"]);
  const json = await w.mcpx(["--json", "ls"]);
  delete w.env.MCPX_CACHE_DIR;
  assert.deepEqual([...Deno.readDirSync(empty)].filter((e) => e.name.startsWith("schemas-")), []);
  const daemonRows = (JSON.parse(json.stdout) as LsJson).namespaces;
  // The daemon's own instance of everything is counted: the answer is the daemon's.
  assert.equal(daemonRows.find((r) => r.namespace === "everything")?.live, 1);
  const stopped = await w.mcpx(["stop"]);
  assert.equal(stopped.code, 0, stopped.stderr);
  const filesText = await w.mcpx(["ls"]);
  const filesJson = await w.mcpx(["--json", "ls"]);
  for (const [daemon, files] of [[text, filesText], [json, filesJson]]) {
    assert.equal(daemon.code, files.code);
    assert.equal(daemon.stderr, files.stderr);
  }
  assert.match(text.stderr, /warning: .*mcpServerz/);
  const noLive = (r: RunResult) => {
    const doc = JSON.parse(r.stdout) as LsJson;
    return { ...doc, namespaces: doc.namespaces.map((n) => ({ ...n, live: 0 })) };
  };
  assert.deepEqual(noLive(json), noLive(filesJson));
  assert.equal(withoutLive(text.stdout), withoutLive(filesText.stdout));
  assert.match(text.stdout, /^everything\s+\d+\s+\S+\s+\S+\s+1\s+ready/m);
  // ls starts no daemon: the answers above came from the files.
  const status = await w.json<{ daemon: boolean }>(["status"]);
  assert.equal(status.daemon, false);
});

/** The table with its LIVE column blanked (one digit wide in this test). */
function withoutLive(table: string): string {
  const lines = table.split("\n");
  const at = lines[0].indexOf("LIVE");
  assert.ok(at > 0, table);
  return lines.map((line, i) =>
    i > 0 && /^\S+\s+\d/.test(line) ? `${line.slice(0, at)}_${line.slice(at + 1)}` : line
  ).join("\n");
}
