/**
 * `repo` and `worktree` scopes end to end, on layouts made by real `git`
 * (during setup only), with every mcpx process run on a PATH that holds no
 * `git` (spec 000, "Finding the repository without git").
 */
import assert from "node:assert/strict";
import { fixtureServer, type World, world } from "./_helpers.ts";

interface StatusJson {
  servers: { namespace: string; instances: { key: string; calls: number }[] }[];
}

const fixture = (scope: string) => fixtureServer({ mcpx: { scope } });

/** In `w.dir`: repo/ with one commit, its linked worktree wt/, plain/ (no repo), and bin/ with only `deno`. */
async function layout(w: World): Promise<void> {
  const git = (cwd: string, ...args: string[]) => {
    const out = new Deno.Command("git", {
      args: ["-c", "user.name=t", "-c", "user.email=t@t", ...args],
      cwd,
      stdout: "null",
      stderr: "piped",
    }).outputSync();
    if (!out.success) throw new Error(new TextDecoder().decode(out.stderr));
  };
  git(w.dir, "init", "-q", "repo");
  await Deno.writeTextFile(`${w.dir}/repo/README`, "x");
  git(`${w.dir}/repo`, "add", "README");
  git(`${w.dir}/repo`, "commit", "-q", "-m", "init");
  git(`${w.dir}/repo`, "worktree", "add", "-q", "-b", "other", `${w.dir}/wt`);
  await Deno.mkdir(`${w.dir}/plain`);
  await Deno.mkdir(`${w.dir}/bin`);
  await Deno.symlink(Deno.execPath(), `${w.dir}/bin/deno`);
}

/** Runs mcpx in `cwd` with no git reachable and no git variables unless given. */
function noGit(w: World, configPath: string, cwd: string, extra: Record<string, string> = {}) {
  return {
    cwd,
    env: {
      PATH: `${w.dir}/bin`,
      MCPX_CONFIG: configPath,
      GIT_DIR: "",
      GIT_WORK_TREE: "",
      ...extra,
    },
  };
}

async function keysOf(w: World, configPath: string, ns: string) {
  const status = await w.json<StatusJson>(["status"], noGit(w, configPath, w.dir));
  const row = status.servers.find((s) => s.namespace === ns)!;
  return row.instances.map((i) => ({ key: i.key, calls: i.calls })).sort((a, b) =>
    a.key.localeCompare(b.key)
  );
}

Deno.test("worktree and repo scopes key instances by checkout and by clone, with no git on PATH", async (t) => {
  await using w = await world();
  await layout(w);
  const configPath = await w.writeConfig({
    mcpServers: { wt: fixture("worktree"), rp: fixture("repo") },
  });
  const call = async (ns: string, cwd: string) => {
    const r = await w.mcpx(
      ["call", `${ns}.echo`, '{"text":"hi"}'],
      noGit(w, configPath, `${w.dir}/${cwd}`),
    );
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, "hi\n");
  };
  assert.deepEqual(
    [...Deno.readDirSync(`${w.dir}/bin`)].map((e) => e.name),
    ["deno"],
    "the PATH the CLI runs with holds no git",
  );

  await t.step("worktree: one instance per checkout", async () => {
    await call("wt", "repo");
    await call("wt", "wt");
    assert.deepEqual(await keysOf(w, configPath, "wt"), [
      { key: `worktree:${w.dir}/repo`, calls: 1 },
      { key: `worktree:${w.dir}/wt`, calls: 1 },
    ]);
  });

  await t.step("repo: both checkouts share one instance", async () => {
    await call("rp", "repo");
    await call("rp", "wt");
    assert.deepEqual(await keysOf(w, configPath, "rp"), [
      { key: `repo:${w.dir}/repo/.git`, calls: 2 },
    ]);
  });
});

Deno.test("repo scope takes GIT_DIR from the caller, never from the daemon it started", async () => {
  await using w = await world();
  await layout(w);
  const configPath = await w.writeConfig({ mcpServers: { rp: fixture("repo") } });
  // The first call starts the daemon with GIT_DIR in its environment.
  const first = await w.mcpx(
    ["call", "rp.echo", '{"text":"a"}'],
    noGit(w, configPath, `${w.dir}/plain`, { GIT_DIR: `${w.dir}/repo/.git` }),
  );
  assert.equal(first.code, 0, first.stderr);
  // A later caller with no GIT_DIR, outside any repo, must not join that repo's instance.
  const second = await w.mcpx(
    ["call", "rp.echo", '{"text":"b"}'],
    noGit(w, configPath, `${w.dir}/plain`),
  );
  assert.equal(second.code, 0, second.stderr);
  const repoKeyed = (await keysOf(w, configPath, "rp")).filter((i) => i.key.startsWith("repo:"));
  assert.deepEqual(repoKeyed, [{ key: `repo:${w.dir}/repo/.git`, calls: 1 }]);
});
