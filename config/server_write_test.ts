import assert from "node:assert/strict";
import { parse } from "jsonc-parser";
import { addServers, unifiedDiff, writeServers } from "./server_write.ts";

const FILE = "/p/.mcpx.json";

Deno.test("addServers() keeps comments, order and indentation and appends the entry", () => {
  const text = `{
    // the team's servers
    "mcpServers": {
        "fs": { "command": "fs-server" }, // local files
    },
    /* settings */ "catalog": { "budget": 900 }
}
`;
  const r = addServers(text, [{ name: "weather", entry: { url: "https://w.test/mcp" } }], FILE);
  assert.deepEqual(r.added, ["weather"]);
  assert.match(r.text, /\/\/ the team's servers/);
  assert.match(r.text, /\/\/ local files/);
  assert.match(r.text, /\/\* settings \*\/ "catalog"/);
  assert.match(r.text, /\n {8}"weather": \{\n {12}"url": "https:\/\/w.test\/mcp"\n {8}\}/);
  const doc = parse(r.text) as { mcpServers: Record<string, unknown> };
  assert.deepEqual(Object.keys(doc.mcpServers), ["fs", "weather"]);
});

Deno.test("addServers() never overwrites a name or a namespace the file has", () => {
  const text =
    `{ "mcpServers": { "fs": { "command": "a" }, "my-api": { "url": "https://x.test" } } }`;
  const r = addServers(text, [
    { name: "fs", entry: { command: "b" } },
    { name: "my_api", entry: { command: "c" } },
    { name: "new", entry: { command: "d" } },
    { name: "new", entry: { command: "e" } },
  ], FILE);
  assert.deepEqual(r.added, ["new"]);
  assert.deepEqual(r.skipped.map((s) => s.name), ["fs", "my_api", "new"]);
  assert.match(r.skipped[0].reason, /already has a server named "fs"/);
  assert.match(r.skipped[1].reason, /namespace "my_api" is taken by the server "my-api"/);
  const doc = parse(r.text) as { mcpServers: Record<string, { command?: string }> };
  assert.equal(doc.mcpServers.fs.command, "a");
  assert.equal(doc.mcpServers.new.command, "d");
});

Deno.test("addServers() makes mcpServers in a file without it, and a file from nothing", () => {
  const r = addServers(
    `{ "catalog": { "budget": 1 } }`,
    [{ name: "a", entry: { command: "x" } }],
    FILE,
  );
  assert.deepEqual((parse(r.text) as { mcpServers: unknown }).mcpServers, { a: { command: "x" } });
  const fresh = addServers("", [{ name: "a", entry: { command: "x" } }], FILE);
  assert.deepEqual(parse(fresh.text), { mcpServers: { a: { command: "x" } } });
  assert.ok(fresh.text.endsWith("\n"));
});

Deno.test("addServers() refuses a file that is not JSON with comments, naming it", () => {
  assert.throws(
    () => addServers(`{ "mcpServers": { `, [{ name: "a", entry: {} }], FILE),
    /\/p\/.mcpx.json.*not JSON with comments/s,
  );
  assert.throws(
    () => addServers(`{ "mcpServers": [] }`, [{ name: "a", entry: {} }], FILE),
    /mcpServers.*must be an object, got an array|mcpServers.*must be an object/s,
  );
});

Deno.test("unifiedDiff() prints a diff -u of the change, nothing for no change", () => {
  const d = unifiedDiff("/p/c.json", "a\nb\n", "a\nx\nb\n");
  assert.match(d, /^--- \/p\/c.json\n\+\+\+ \/p\/c.json\n@@ -1,2 \+1,3 @@\n a\n\+x\n b\n$/);
  assert.equal(unifiedDiff("/p/c.json", "a\n", "a\n"), "");
  assert.match(unifiedDiff("/p/c.json", "", "{}\n"), /^--- \/dev\/null/);
});

Deno.test("writeServers() creates the file and its directory, and a dry run writes nothing", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const path = `${dir}/sub/config.json`;
    const dry = await writeServers(path, [{ name: "a", entry: { command: "x" } }], {
      dryRun: true,
    });
    assert.equal(dry.created, true);
    assert.match(dry.diff, /\+\s+"a": \{/);
    await assert.rejects(Deno.stat(path), Deno.errors.NotFound);
    const done = await writeServers(path, [{ name: "a", entry: { command: "x" } }]);
    assert.deepEqual(done.added, ["a"]);
    assert.deepEqual(JSON.parse(await Deno.readTextFile(path)), {
      mcpServers: { a: { command: "x" } },
    });
    const again = await writeServers(path, [{ name: "a", entry: { command: "y" } }]);
    assert.deepEqual(again.added, []);
    assert.equal(again.diff, "");
    assert.equal(again.created, false);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("addServers() skips a name a declared adapter holds, and says when a clash is within the batch", () => {
  const reserved = new Map([["gitx", `adapter "gitx" in /p/adapters.json`]]);
  const r = addServers(
    `{ "mcpServers": {} }`,
    [
      { name: "gitx", entry: { command: "a" } },
      { name: "x", entry: { command: "b", mcpx: { namespace: "gitx" } } },
      { name: "gh", entry: { command: "c" }, from: "cursor /h/.cursor/mcp.json" },
      { name: "gh", entry: { command: "d" }, from: "vscode /h/.config/Code/User/mcp.json" },
      { name: "g-h", entry: { command: "e" }, from: "codex /h/.codex/config.toml" },
      { name: "g_h", entry: { command: "f" } },
    ],
    FILE,
    reserved,
  );
  assert.deepEqual(r.added, ["gh", "g-h"]);
  assert.deepEqual(r.skipped.map((s) => s.name), ["gitx", "x", "gh", "g_h"]);
  assert.match(
    r.skipped[0].reason,
    /its name is taken by the adapter "gitx" in \/p\/adapters.json/,
  );
  assert.match(r.skipped[1].reason, /its namespace "gitx" is taken by the adapter "gitx"/);
  assert.match(r.skipped[2].reason, /taken by the server "gh" from cursor \/h\/.cursor\/mcp.json/);
  assert.doesNotMatch(r.skipped[2].reason, /already has/);
  assert.match(r.skipped[3].reason, /namespace "g_h" is taken by the server "g-h" from codex/);
});

Deno.test("writeServers() keeps a written token private whatever the umask: 0600 file, 0700 directory", async () => {
  const home = await Deno.makeTempDir();
  const token = {
    name: "api",
    entry: { url: "https://a.test/mcp", headers: { Authorization: "Bearer t0" } },
  };
  const mode = (path: string) => Deno.statSync(path).mode! & 0o777;
  const before = Deno.umask(0o000);
  try {
    // A new file in mcpx's own directory, created with every parent (umask 000 widens nothing).
    const own = `${home}/.config/mcpx/config.json`;
    await writeServers(own, [token], { ownDir: "mcpx's configuration" });
    assert.equal(mode(own).toString(8), "600");
    assert.equal(mode(`${home}/.config/mcpx`).toString(8), "700");
    // mcpx's own directory made readable to others is narrowed again.
    Deno.chmodSync(`${home}/.config/mcpx`, 0o755);
    await writeServers(own, [{ ...token, name: "api2" }], { ownDir: "mcpx's configuration" });
    assert.equal(mode(`${home}/.config/mcpx`).toString(8), "700");
    // A project's existing file others could read is narrowed before the token goes in;
    // its directory (the project's) is left as it is, and a link to the file stays a link.
    Deno.umask(0o022);
    const project = `${home}/project`;
    Deno.mkdirSync(project, { mode: 0o755 });
    Deno.writeTextFileSync(`${project}/real.json`, '{ "mcpServers": {} }\n', { mode: 0o644 });
    Deno.symlinkSync(`${project}/real.json`, `${project}/.mcpx.json`);
    await writeServers(`${project}/.mcpx.json`, [token]);
    assert.equal(mode(`${project}/real.json`).toString(8), "600");
    assert.ok(Deno.lstatSync(`${project}/.mcpx.json`).isSymlink);
    assert.match(Deno.readTextFileSync(`${project}/real.json`), /Bearer t0/);
    assert.equal(mode(project).toString(8), "755");
  } finally {
    Deno.umask(before);
    await Deno.remove(home, { recursive: true });
  }
});
