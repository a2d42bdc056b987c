/**
 * Roots against the real server-filesystem: started with no directory
 * arguments, it refuses to work unless its client offers roots, and takes its
 * allowed directories from `roots/list` when one does. A server's
 * `mcpx.roots` (a relative one resolved against the configuration file's
 * directory) are what it gets, and each `roots/list` is in the durable log.
 */

import assert from "node:assert/strict";
import { join } from "../core/posix_path.ts";
import { eventually, stdioServer, world } from "./_helpers.ts";

Deno.test("mcpx.roots are the allowed directories of a filesystem server given none", async (t) => {
  await using w = await world();
  const shared = join(w.dir, "shared");
  await Deno.mkdir(join(w.dir, "work"));
  await Deno.mkdir(shared);
  await Deno.writeTextFile(join(w.dir, "work", "note.txt"), "from a root\n");
  await w.writeConfig({
    mcpServers: {
      fs: stdioServer("filesystem", [], { roots: ["work", shared] }),
      bare: stdioServer("filesystem"),
    },
  });

  await t.step("the server lists the configured roots as its allowed directories", async () => {
    let text = "";
    const listed = await eventually(async () => {
      const r = await w.mcpx(["call", "fs.list_allowed_directories", "{}"]);
      assert.equal(r.code, 0, r.stderr);
      text = r.stdout;
      return text.includes(shared);
    }, 30_000);
    assert.ok(listed, `allowed directories: ${text}`);
    assert.ok(text.includes(join(w.dir, "work")), text);
    const read = await w.mcpx([
      "call",
      "fs.read_text_file",
      JSON.stringify({ path: join(w.dir, "work", "note.txt") }),
    ]);
    assert.equal(read.code, 0, read.stderr);
    assert.match(read.stdout, /from a root/);
  });

  await t.step("without roots, mcpx declares none and the server has no directory", async () => {
    const r = await w.mcpx(["call", "bare.list_allowed_directories", "{}"]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(JSON.parse(r.stdout).content, "Allowed directories:\n");
  });

  await t.step("each roots/list is logged with how many roots were sent", async () => {
    const { records } = await w.json(["log", "--event", "server.asked", "-n", "100"]);
    const asked = records.find((r: { attrs: { server: string } }) => r.attrs.server === "fs");
    assert.equal(asked.attrs.method, "roots/list");
    assert.equal(asked.attrs.roots, 2);
  });
});
