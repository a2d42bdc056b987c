/**
 * cli/config/import_cmd.ts in process: a project with a Cursor configuration, the
 * command run through cli/main.ts (no process spawned): the document, the
 * `--list` table and the preview's text.
 */

import assert from "node:assert/strict";
import { main } from "../main.ts";
import { memoryIo } from "../../core/io.ts";

async function importIn(dir: string, argv: string[]) {
  const io = memoryIo("");
  const code = await main(["import", "--from", "cursor", ...argv], io, {
    HOME: `${dir}/home`,
    MCPX_STATE_DIR: `${dir}/s`,
    MCPX_CACHE_DIR: `${dir}/c`,
  }, `${dir}/project`);
  return { code, stdout: io.stdout, stderr: io.stderr };
}

Deno.test("mcpx import: the document, the --list table, and a preview's diff and report", async () => {
  const dir = await Deno.realPath(await Deno.makeTempDir());
  try {
    await Deno.mkdir(`${dir}/home`);
    await Deno.mkdir(`${dir}/project/.cursor`, { recursive: true });
    await Deno.writeTextFile(
      `${dir}/project/.cursor/mcp.json`,
      JSON.stringify({ mcpServers: { gh: { command: "gh-mcp", args: ["serve"] } } }),
    );
    const json = await importIn(dir, ["--json", "--list"]);
    assert.equal(json.code, 0, json.stderr);
    const { files } = JSON.parse(json.stdout);
    assert.deepEqual(files.map((f: { host: string; scope: string }) => [f.host, f.scope]), [
      ["cursor", "project"],
    ]);
    assert.equal(files[0].servers[0].name, "gh");

    const listed = await importIn(dir, ["--list"]);
    assert.equal(listed.code, 0, listed.stderr);
    assert.match(
      listed.stdout,
      /^HOST +SCOPE +SERVER +RUNS +NOT TRANSLATED\ncursor +project +gh +gh-mcp/,
    );
    assert.match(listed.stdout, /\nmcpx import --write adds them to .*\n$/);

    const preview = await importIn(dir, []);
    assert.equal(preview.code, 0, preview.stderr);
    assert.match(preview.stdout, /\+.*"gh"/);
    assert.match(preview.stderr, /a preview: nothing was written; add --write to write /);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
