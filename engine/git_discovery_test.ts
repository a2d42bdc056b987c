/**
 * findGitKeys() on layouts made by real `git` (during setup only); the
 * function itself is then run where no `git` can be found.
 */
import assert from "node:assert/strict";
import { findGitKeys } from "./git_discovery.ts";

/** Runs `git args` in `cwd` for test setup; throws with stderr on failure. */
function git(cwd: string, ...args: string[]): void {
  const out = new Deno.Command("git", {
    args: ["-c", "init.defaultBranch=main", "-c", "protocol.file.allow=always", ...args],
    cwd,
    env: {
      GIT_AUTHOR_NAME: "t",
      GIT_AUTHOR_EMAIL: "t@t",
      GIT_COMMITTER_NAME: "t",
      GIT_COMMITTER_EMAIL: "t@t",
      GIT_CONFIG_NOSYSTEM: "1",
      HOME: cwd,
    },
    stdout: "null",
    stderr: "piped",
  }).outputSync();
  if (!out.success) {
    throw new Error(`git ${args.join(" ")}: ${new TextDecoder().decode(out.stderr)}`);
  }
}

/** Temp dir holding: repo/ (+ commit), wt/ (linked worktree of repo), bare.git/, sub/ in repo, plain/. */
async function layouts(): Promise<{ dir: string } & AsyncDisposable> {
  const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "mcpx-git-" }));
  git(dir, "init", "-q", "repo");
  git(dir, "init", "-q", "lib");
  for (const r of ["repo", "lib"]) {
    await Deno.writeTextFile(`${dir}/${r}/README`, r);
    git(`${dir}/${r}`, "add", "README");
    git(`${dir}/${r}`, "commit", "-q", "-m", "init");
  }
  git(`${dir}/repo`, "worktree", "add", "-q", "-b", "other", `${dir}/wt`);
  git(`${dir}/repo`, "submodule", "add", "-q", `${dir}/lib`, "sub");
  git(dir, "init", "-q", "--bare", "bare.git");
  await Deno.mkdir(`${dir}/plain/deep`, { recursive: true });
  await Deno.mkdir(`${dir}/repo/src/a`, { recursive: true });
  return {
    dir,
    async [Symbol.asyncDispose]() {
      await Deno.remove(dir, { recursive: true });
    },
  };
}

Deno.test("findGitKeys() reads each layout as git does", async (t) => {
  await using l = await layouts();
  const d = l.dir;
  const cases: [string, string, Record<string, string>, { repo?: string; worktree?: string }][] = [
    ["plain repo, at its root", "repo", {}, { repo: `${d}/repo/.git`, worktree: `${d}/repo` }],
    ["plain repo, deep inside", "repo/src/a", {}, {
      repo: `${d}/repo/.git`,
      worktree: `${d}/repo`,
    }],
    ["linked worktree: gitdir file, then commondir", "wt", {}, {
      repo: `${d}/repo/.git`,
      worktree: `${d}/wt`,
    }],
    ["submodule: its own modules dir", "repo/sub", {}, {
      repo: `${d}/repo/.git/modules/sub`,
      worktree: `${d}/repo/sub`,
    }],
    ["bare repo: no work tree", "bare.git", {}, { repo: `${d}/bare.git` }],
    ["inside a bare repo's refs", "bare.git/refs", {}, { repo: `${d}/bare.git` }],
    ["inside a work tree's .git: no work tree", "repo/.git/objects", {}, {
      repo: `${d}/repo/.git`,
    }],
    ["outside any repo", "plain/deep", {}, {}],
    ["GIT_DIR relative to cwd: cwd is the work tree", "plain", { GIT_DIR: "../repo/.git" }, {
      repo: `${d}/repo/.git`,
      worktree: `${d}/plain`,
    }],
    ["GIT_DIR and GIT_WORK_TREE", "plain/deep", {
      GIT_DIR: `${d}/repo/.git`,
      GIT_WORK_TREE: "..",
    }, { repo: `${d}/repo/.git`, worktree: `${d}/plain` }],
    ["GIT_DIR at a gitfile", "plain", { GIT_DIR: `${d}/wt/.git` }, {
      repo: `${d}/repo/.git`,
      worktree: `${d}/plain`,
    }],
    ["GIT_DIR at a bare repo", "plain", { GIT_DIR: `${d}/bare.git` }, { repo: `${d}/bare.git` }],
    ["GIT_WORK_TREE alone keeps discovery", "repo/src", { GIT_WORK_TREE: `${d}/plain` }, {
      repo: `${d}/repo/.git`,
      worktree: `${d}/plain`,
    }],
    ["GIT_DIR that is not a repository", "repo", { GIT_DIR: `${d}/plain` }, {}],
  ];
  for (const [name, cwd, env, want] of cases) {
    await t.step(name, () => {
      const { reason, ...keys } = findGitKeys(`${d}/${cwd}`, env);
      assert.deepEqual(keys, want);
      assert.equal(reason === undefined, want.worktree !== undefined, reason);
    });
  }
});

Deno.test("findGitKeys() gives two worktrees of one repo one repo key and two worktree keys", async () => {
  await using l = await layouts();
  const main = findGitKeys(`${l.dir}/repo/src`, {});
  const linked = findGitKeys(`${l.dir}/wt`, {});
  assert.ok(main.repo && main.worktree && linked.worktree);
  assert.equal(main.repo, linked.repo);
  assert.notEqual(main.worktree, linked.worktree);
});

Deno.test("findGitKeys() says why outside a repository, naming GIT_DIR", async () => {
  await using l = await layouts();
  const keys = findGitKeys(`${l.dir}/plain`, {});
  assert.equal(keys.repo, undefined);
  assert.match(keys.reason ?? "", /not inside a git repository.*GIT_DIR/);
});

Deno.test("findGitKeys() sees a directory that became a repository since the last call", async () => {
  await using l = await layouts();
  assert.equal(findGitKeys(`${l.dir}/plain`, {}).repo, undefined);
  git(`${l.dir}/plain`, "init", "-q");
  assert.equal(findGitKeys(`${l.dir}/plain`, {}).repo, `${l.dir}/plain/.git`);
});

Deno.test("findGitKeys() gives the same answers with no git on PATH", async () => {
  await using l = await layouts();
  const empty = await Deno.makeTempDir({ prefix: "mcpx-nopath-" });
  try {
    const script = `
      import { findGitKeys } from ${
      JSON.stringify(new URL("./git_discovery.ts", import.meta.url).href)
    };
      const d = ${JSON.stringify(l.dir)};
      const spawned = (() => { try { new Deno.Command("git").outputSync(); return true; } catch { return false; } })();
      console.log(JSON.stringify({ spawned, keys: ["repo/src", "wt", "repo/sub", "bare.git", "plain"]
        .map((c) => findGitKeys(d + "/" + c, {})) }));`;
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["eval", "--no-config", script],
      env: { PATH: empty, DENO_DIR: Deno.env.get("DENO_DIR") ?? "", HOME: Deno.env.get("HOME")! },
      clearEnv: true,
      stdout: "piped",
      stderr: "piped",
    }).output();
    assert.ok(out.success, new TextDecoder().decode(out.stderr));
    const got = JSON.parse(new TextDecoder().decode(out.stdout));
    assert.equal(got.spawned, false, "git must not be reachable in this subprocess");
    assert.deepEqual(
      got.keys,
      ["repo/src", "wt", "repo/sub", "bare.git", "plain"].map((c) => findGitKeys(`${l.dir}/${c}`)),
    );
  } finally {
    await Deno.remove(empty);
  }
});

Deno.test("git_discovery.ts starts no process", async () => {
  const source = await Deno.readTextFile(new URL("./git_discovery.ts", import.meta.url));
  assert.doesNotMatch(source, /Deno\.Command|Deno\.run|child_process/);
});
