import assert from "node:assert/strict";
import { scopeKey } from "./scope_key.ts";
import { closeLog, openDurableLog, setLogLevel } from "./log.ts";
import { listLogFiles } from "../logs/writer.ts";

/** Temp dir with repo/ (one commit), its linked worktree wt/, and plain/ (no repo). */
async function layouts(): Promise<{ dir: string } & AsyncDisposable> {
  const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "mcpx-scope-" }));
  const git = (cwd: string, ...args: string[]) => {
    const out = new Deno.Command("git", {
      args: ["-c", "user.name=t", "-c", "user.email=t@t", ...args],
      cwd,
      stdout: "null",
      stderr: "piped",
    }).outputSync();
    if (!out.success) throw new Error(new TextDecoder().decode(out.stderr));
  };
  git(dir, "init", "-q", "repo");
  await Deno.writeTextFile(`${dir}/repo/README`, "x");
  git(`${dir}/repo`, "add", "README");
  git(`${dir}/repo`, "commit", "-q", "-m", "init");
  git(`${dir}/repo`, "worktree", "add", "-q", "-b", "other", `${dir}/wt`);
  await Deno.mkdir(`${dir}/plain`);
  return {
    dir,
    async [Symbol.asyncDispose]() {
      await Deno.remove(dir, { recursive: true });
    },
  };
}

Deno.test("scopeKey() keys repo by the common git dir and worktree by the checkout", async () => {
  await using l = await layouts();
  const main = { cwd: `${l.dir}/repo` };
  const linked = { cwd: `${l.dir}/wt` };
  assert.equal(scopeKey("repo", main), `repo:${l.dir}/repo/.git`);
  assert.equal(scopeKey("repo", linked), `repo:${l.dir}/repo/.git`);
  assert.equal(scopeKey("worktree", main), `worktree:${l.dir}/repo`);
  assert.equal(scopeKey("worktree", linked), `worktree:${l.dir}/wt`);
});

Deno.test("scopeKey() uses the caller's GIT_DIR and GIT_WORK_TREE", async () => {
  await using l = await layouts();
  const ctx = { cwd: `${l.dir}/plain`, gitDir: "../repo/.git", gitWorkTree: "../wt" };
  assert.equal(scopeKey("repo", ctx), `repo:${l.dir}/repo/.git`);
  assert.equal(scopeKey("worktree", ctx), `worktree:${l.dir}/wt`);
});

Deno.test("scopeKey() ignores the daemon's own GIT_DIR", async () => {
  await using l = await layouts();
  Deno.env.set("GIT_DIR", `${l.dir}/repo/.git`);
  try {
    assert.match(scopeKey("repo", { cwd: `${l.dir}/plain` }), /^call:\d+$/);
  } finally {
    Deno.env.delete("GIT_DIR");
  }
});

Deno.test("scopeKey() isolates an unresolvable repo scope per call and logs once per server", async () => {
  await using l = await layouts();
  const logs = await Deno.makeTempDir({ prefix: "mcpx-scope-log-" });
  try {
    openDurableLog({
      dir: logs,
      source: "test",
      maxFileSize: 1 << 20,
      retentionMs: 0,
    });
    setLogLevel("info");
    const outside = { cwd: `${l.dir}/plain` };
    const keys = [
      scopeKey("repo", outside, "a"),
      scopeKey("repo", outside, "a"),
      scopeKey("repo", outside, "b"),
      scopeKey("worktree", outside, "a"),
    ];
    for (const key of keys) assert.match(key, /^call:\d+$/);
    assert.equal(new Set(keys).size, keys.length, "each call its own key");
    closeLog();
    const records = listLogFiles(logs).flatMap((f) =>
      Deno.readTextFileSync(`${logs}/${f}`).trim().split("\n").map((line) => JSON.parse(line))
    ).filter((r) => r.event === "scope.degrade");
    assert.deepEqual(records.map((r) => [r.attrs.scope, r.attrs.server]), [
      ["repo", "a"],
      ["repo", "b"],
      ["worktree", "a"],
    ]);
    assert.match(records[0].msg, /not inside a git repository.*GIT_DIR/);
  } finally {
    closeLog();
    await Deno.remove(logs, { recursive: true });
  }
});
