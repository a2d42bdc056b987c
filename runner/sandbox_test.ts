import assert from "node:assert/strict";
import { denoDir, findSandbox, sandboxArgs, type SandboxPlan } from "./sandbox.ts";
import { parsePermissions } from "./permissions.ts";

function plan(levelText: string, over: Partial<SandboxPlan> = {}): SandboxPlan {
  const level = parsePermissions(levelText);
  assert.ok(!("problem" in level) && !level.all);
  return {
    level,
    runtime: "deno",
    runtimePath: "/opt/deno/deno",
    scriptDir: "/home/u/proj/.mcpx/scripts",
    entry: "/home/u/.cache/mcpx/launchers/a.ts",
    client: "/home/u/.cache/mcpx/clients/b.ts",
    socket: "/home/u/.local/state/mcpx/sockets/f.sock",
    cwd: "/home/u/proj",
    denoDir: "/home/u/.cache/deno",
    ...over,
  };
}

/** The pairs `flag a b` of `args`, as "flag a b" strings, for order-free checks. */
function has(args: string[], ...words: string[]): boolean {
  return args.some((_, i) => words.every((w, j) => args[i + j] === w));
}

Deno.test("findSandbox() refuses where no sandbox can run, naming the level and the fix", () => {
  const mac = findSandbox({ PATH: "/usr/bin" }, "darwin", "read,net");
  assert.ok(typeof mac !== "string");
  assert.match(mac.problem, /^script\.permissions "read,net" runs the script in an OS sandbox/);
  assert.match(mac.problem, /there is none on darwin; set script\.permissions to all/);
  const none = findSandbox({ PATH: "/nonexistent" }, "linux", "none");
  assert.ok(typeof none !== "string");
  assert.match(none.problem, /no bwrap is on PATH; install it \(apt-get install bubblewrap, /);
});

Deno.test("sandboxArgs() for none shows the script's folder, entry, client and socket only", () => {
  const args = sandboxArgs(plan("none"));
  assert.ok(!args.includes("--share-net"), "no network");
  assert.ok(!has(args, "--ro-bind", "/", "/") && !has(args, "--bind", "/", "/"));
  assert.ok(has(args, "--ro-bind", "/usr", "/usr"));
  assert.ok(has(args, "--tmpfs", "/tmp"));
  for (const path of ["/home/u/proj/.mcpx/scripts", "/opt/deno/deno", plan("none").entry]) {
    assert.ok(has(args, "--ro-bind", path, path), path);
  }
  assert.ok(has(args, "--ro-bind-try", "/home/u/.cache/deno", "/home/u/.cache/deno"));
  assert.ok(has(args, "--perms", "0700", "--dir", "/home/u/.local/state/mcpx/sockets"));
  assert.ok(has(args, "--bind", plan("none").socket, plan("none").socket));
  assert.ok(has(args, "--dir", "/home/u/proj"), "an empty working directory");
  assert.deepEqual(args.slice(-3), ["--chdir", "/home/u/proj", "--"]);
  assert.ok(args.includes("--new-session") && args.includes("--die-with-parent"));
});

Deno.test("sandboxArgs() shows every file for read, writable for write", () => {
  const read = sandboxArgs(plan("read"));
  assert.ok(has(read, "--ro-bind", "/", "/"));
  assert.ok(!has(read, "--dir", "/home/u/proj"), "the real working directory is shown");
  assert.ok(!read.includes("--perms"), "the socket's real directory is shown");
  const write = sandboxArgs(plan("write"));
  assert.ok(has(write, "--bind", "/", "/"));
  assert.ok(has(write, "--proc", "/proc") && has(write, "--dev", "/dev"));
});

Deno.test("sandboxArgs() shares the network for net, and for import where the runtime fetches", () => {
  assert.ok(sandboxArgs(plan("net")).includes("--share-net"));
  assert.ok(sandboxArgs(plan("import")).includes("--share-net"));
  assert.ok(!sandboxArgs(plan("import", { runtime: "node" })).includes("--share-net"));
});

Deno.test("sandboxArgs() mounts a path once when a shown folder holds it", () => {
  const args = sandboxArgs(plan("none", {
    scriptDir: "/tmp/x",
    entry: "/tmp/x/job.ts",
    client: "/tmp/x/mcpx-client.ts",
    cwd: "/tmp/x/sub",
  }));
  assert.ok(has(args, "--ro-bind", "/tmp/x", "/tmp/x"), "below the private /tmp");
  assert.ok(!has(args, "--ro-bind", "/tmp/x/job.ts", "/tmp/x/job.ts"));
  assert.ok(!has(args, "--dir", "/tmp/x/sub"));
});

Deno.test("denoDir() finds Deno's cache as Deno does", () => {
  assert.equal(denoDir({ DENO_DIR: "/d", HOME: "/h" }), "/d");
  assert.equal(denoDir({ XDG_CACHE_HOME: "/c", HOME: "/h" }), "/c/deno");
  assert.equal(denoDir({ HOME: "/h" }), "/h/.cache/deno");
});
