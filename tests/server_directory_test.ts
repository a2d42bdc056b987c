/**
 * The directory a server runs in, which is where a relative path in its
 * tools' arguments lands for a server that resolves it against its own
 * working directory (decision 0060; issue 24: `filePath: "./shots/fp.png"`
 * landed in `~/.config/mcpx/shots/`). A `cwd`-scoped server starts in its
 * caller's directory; a server that serves many directories starts in its
 * configuration file's, and `mcpx types` says so in its namespace's header.
 * The fixture's `whoami` answers its pid; /proc says where that process runs.
 */
import assert from "node:assert/strict";
import { fixtureServer, world } from "./_helpers.ts";

Deno.test("a cwd-scoped server runs in its caller's directory; types says where others run", async () => {
  await using w = await world();
  const project = `${w.dir}/project`;
  await Deno.mkdir(project);
  await w.writeConfig({
    mcpServers: {
      here: fixtureServer({ fixture: "stateful", mcpx: { scope: "cwd" } }),
      shared: fixtureServer({ fixture: "stateful" }),
      pinned: { ...fixtureServer({ fixture: "stateful", mcpx: { scope: "cwd" } }), cwd: "/" },
    },
  });
  const runsIn = async (ns: string) => {
    const r = await w.mcpx(["call", `${ns}.whoami`, "{}"], { cwd: project });
    assert.equal(r.code, 0, r.stderr);
    return await Deno.realPath(`/proc/${r.stdout.trim()}/cwd`);
  };
  assert.equal(await runsIn("here"), project, "a cwd-scoped server runs where its caller is");
  assert.equal(await runsIn("shared"), w.dir, "a global server runs in its file's directory");
  assert.equal(await runsIn("pinned"), "/", "an entry's cwd wins");

  // Said where it is not the caller's directory, and only there.
  const types = await w.mcpx(["types", "here", "shared", "pinned"], { cwd: project });
  assert.equal(types.code, 0, types.stderr);
  // A namespace's header: the JSDoc just before its `declare namespace`.
  const blockOf = (ns: string) => {
    const at = types.stdout.indexOf(`declare namespace ${ns} {`);
    return types.stdout.slice(types.stdout.lastIndexOf("/**", at), at);
  };
  assert.doesNotMatch(blockOf("here"), /Relative paths resolve in/);
  assert.match(blockOf("shared"), new RegExp(`Relative paths resolve in ${w.dir}\\n`));
  assert.match(blockOf("pinned"), /Relative paths resolve in \/\n/);
});
