/**
 * `mcpx search` answered by a running daemon (the `search` route,
 * decision 0030) says exactly what it says from the cache's files with no
 * daemon: the same hits, the same types hint, the same exit code, in text
 * and in JSON, on real servers (server-everything and server-memory). While
 * the daemon answers, the commands are given an empty cache directory, so an
 * answer read from the files could not match.
 *
 * @module
 */

import assert from "node:assert/strict";
import { type RunResult, stdioServer, world } from "./_helpers.ts";

const QUERIES = [
  ["search", "echo"],
  ["--json", "search", "echo"],
  ["search", "add", "numbers"],
  ["--json", "search", "--explain", "entities"],
  ["search", "-n", "2", "e"],
  ["search", "nothing-matches-this"],
  ["--json", "search", "--tag", "nothing"],
];

Deno.test("search from a running daemon answers as search from the cache's files", async () => {
  await using w = await world();
  await w.writeConfig({
    mcpServers: { everything: stdioServer("everything"), memory: stdioServer("memory") },
  });
  // Lists both servers into the cache, then starts the daemon that keeps them.
  const listed = await w.mcpx(["ls"]);
  assert.equal(listed.code, 0, listed.stderr);
  const warm = await w.mcpx(["call", "everything.echo", '{"message":"warm"}']);
  assert.equal(warm.code, 0, warm.stderr);
  // The daemon's answers must come from the daemon: meanwhile these commands see an empty
  // cache directory of their own, from which they could answer nothing.
  const empty = await Deno.makeTempDir({ dir: w.dir, prefix: "no-cache-" });
  w.env.MCPX_CACHE_DIR = empty;
  const fromDaemon: RunResult[] = [];
  for (const args of QUERIES) fromDaemon.push(await w.mcpx(args));
  delete w.env.MCPX_CACHE_DIR;
  assert.deepEqual([...Deno.readDirSync(empty)].filter((e) => e.name.startsWith("schemas-")), []);
  const stopped = await w.mcpx(["stop"]);
  assert.equal(stopped.code, 0, stopped.stderr);
  for (const [i, args] of QUERIES.entries()) {
    const fromFiles = await w.mcpx(args);
    const daemon = fromDaemon[i];
    assert.equal(daemon.stdout, fromFiles.stdout, args.join(" "));
    assert.equal(daemon.stderr, fromFiles.stderr, args.join(" "));
    assert.equal(daemon.code, fromFiles.code, args.join(" "));
  }
  assert.match(fromDaemon[0].stdout, /everything\.echo/);
  // Search starts no daemon: the answers above came from the files.
  const status = await w.json<{ daemon: boolean }>(["status"]);
  assert.equal(status.daemon, false);
});
