/**
 * `mcpx ls` with the same server configured many times (one process serves
 * them all): the table has a row each, and the note about tools mcpx cannot
 * call names a few and counts the rest, where it named every one. The server
 * is our fixture listing one malformed tool (no real server lists one on
 * demand, now that server-everything's task-only tool is usable).
 *
 * @module
 */

import assert from "node:assert/strict";
import { fixtureServer, world } from "./_helpers.ts";

Deno.test("ls names a few unusable tools and counts the rest", async () => {
  const names = ["everything", "e2", "e3", "e4", "e5", "e6", "e7"];
  // Its malformed tool is a frame the SDK's schema refuses, sent on purpose.
  await using w = await world({ badFramesFrom: names });
  await w.writeConfig({
    mcpServers: Object.fromEntries(
      names.map((n) => [
        n,
        fixtureServer({ fixture: "odd_names", env: { ODD_NAMES_UNUSABLE: "1" } }),
      ]),
    ),
  });
  const ls = await w.mcpx(["ls"]);
  assert.equal(ls.code, 0, ls.stderr);
  for (const n of names) assert.match(ls.stdout, new RegExp(`^${n}\\s+\\d+\\s`, "m"));
  const note = ls.stderr.split("\n").find((l) => l.startsWith("note: "));
  assert.ok(note, ls.stderr);
  assert.match(
    note,
    /^note: 7 tools left out as unusable \(everything\.bad_schema, e2\.bad_schema, e3\.\S+, /,
  );
  assert.match(note, /, e5\.\S+ and 2 more\); `mcpx ls --json` says why$/);
  assert.doesNotMatch(note, /e6\./);
  const json = await w.json<{ problems: string[] }>(["ls"]);
  assert.equal(json.problems.filter((p) => /unusable/.test(p)).length, 7);
});
