import assert from "node:assert/strict";
import {
  type CallerContext,
  formatScopeKey,
  parseScopeKey,
  type ScopeKey,
  scopeKey as keyOf,
} from "./scope_key.ts";
import type { Scope } from "../config/types.ts";

/** The text of the key `scope` resolves to under `ctx`. */
const scopeKey = (scope: Scope, ctx: CallerContext, server?: string) =>
  formatScopeKey(keyOf(scope, ctx, server));
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

Deno.test("scopeKey() keys each scope by what the caller sent, and isolates a call without it", () => {
  const ctx = { session: "s", parentSession: "p", cwd: "/w", pid: 42 };
  assert.deepEqual(keyOf("global", ctx), { kind: "global" });
  assert.deepEqual(keyOf("session", ctx), { kind: "session", value: "s" });
  assert.deepEqual(keyOf("parent-session", ctx), { kind: "parent-session", value: "p" });
  assert.deepEqual(keyOf("parent-session", { session: "s" }), { kind: "session", value: "s" });
  assert.deepEqual(keyOf("cwd", ctx), { kind: "cwd", value: "/w" });
  assert.deepEqual(keyOf("pid", ctx), { kind: "pid", value: 42 });
  for (const scope of ["session", "parent-session", "cwd", "pid", "call"] as const) {
    assert.equal(keyOf(scope, {}).kind, "call", scope);
  }
  const [a, b] = [keyOf("call", ctx), keyOf("call", ctx)];
  assert.notEqual(formatScopeKey(a), formatScopeKey(b), "each call its own key");
});

Deno.test("formatScopeKey() and parseScopeKey() are inverses, a value keeping its colons", () => {
  const keys: ScopeKey[] = [
    { kind: "global" },
    { kind: "session", value: "abc" },
    { kind: "session", value: "a:b" },
    { kind: "parent-session", value: "x" },
    { kind: "cwd", value: "/work/x:y" },
    { kind: "repo", value: "/work/x/.git" },
    { kind: "worktree", value: "/work/x" },
    { kind: "pid", value: 123 },
    { kind: "call", value: 7 },
  ];
  for (const key of keys) assert.deepEqual(parseScopeKey(formatScopeKey(key)), key);
  assert.equal(formatScopeKey({ kind: "session", value: "abc" }), "session:abc");
  assert.equal(formatScopeKey({ kind: "global" }), "global");
});

Deno.test("parseScopeKey() throws SyntaxError naming a malformed key", () => {
  for (
    const text of ["", "nope:1", "session:", "session", "pid:x", "pid:0", "call:-1", "call:1.5"]
  ) {
    assert.throws(() => parseScopeKey(text), (error: Error) => {
      assert.ok(error instanceof SyntaxError, text);
      assert.ok(error.message.includes(JSON.stringify(text)), error.message);
      return true;
    });
  }
});
