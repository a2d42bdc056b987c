/**
 * Nobody else gets in (issue 9): the directories mcpx keeps sockets and state
 * in are the user's alone, checked on the directory itself, or mcpx refuses
 * naming the directory and the fix; the socket's fallback prefers
 * `$XDG_RUNTIME_DIR`; the clients (the CLI, a script's generated client under
 * deno, bun and node) check the socket's directory before connecting; and
 * after a session of commands every state and cache directory is 0700 and
 * every file 0600, which a second local user cannot read.
 *
 * The other user is a real one, made with `useradd` for the test and removed
 * after it; those tests need root (CI runs as root) and are skipped, saying
 * so, otherwise.
 *
 * @module
 */

import assert from "node:assert/strict";
import { join } from "node:path";
import { runtimeSource } from "../client/generate.ts";
import { scriptArgv } from "./_runtimes.ts";
import { fixtureServer, STACK_LINE, type World, world } from "./_helpers.ts";

/** The second user's name, unique to this file. */
const OTHER_USER = "mcpxprivtest";
const NEEDS_ROOT = Deno.uid() === 0
  ? undefined
  : "needs root to create a second local user with useradd";

/** A second local user, removed when disposed. */
interface OtherUser extends AsyncDisposable {
  uid: number;
  /** Runs `sh -c script` as this user. */
  sh(script: string): Promise<{ code: number; stdout: string; stderr: string }>;
}

async function run(command: string, args: string[]) {
  const out = await new Deno.Command(command, { args, stdout: "piped", stderr: "piped" })
    .output();
  const decoder = new TextDecoder();
  return { code: out.code, stdout: decoder.decode(out.stdout), stderr: decoder.decode(out.stderr) };
}

async function otherUser(): Promise<OtherUser> {
  await run("userdel", [OTHER_USER]); // a run killed before its cleanup left it
  const made = await run("useradd", ["--no-create-home", "--shell", "/bin/sh", OTHER_USER]);
  assert.equal(made.code, 0, `useradd failed: ${made.stderr}`);
  const uid = Number((await run("id", ["-u", OTHER_USER])).stdout.trim());
  const gid = Number((await run("id", ["-g", OTHER_USER])).stdout.trim());
  return {
    uid,
    sh: (script) =>
      run("setpriv", [
        `--reuid=${uid}`,
        `--regid=${gid}`,
        "--clear-groups",
        "/bin/sh",
        "-c",
        script,
      ]),
    async [Symbol.asyncDispose]() {
      await run("userdel", [OTHER_USER]);
    },
  };
}

/** `Deno.test` for a test that needs root, skipped with the reason in its name otherwise. */
function rootTest(name: string, fn: () => Promise<void>): void {
  Deno.test({
    name: NEEDS_ROOT ? `${name} (skipped: ${NEEDS_ROOT})` : name,
    ignore: NEEDS_ROOT !== undefined,
    fn,
  });
}

const CONFIG = { mcpServers: { fixture: fixtureServer() } };
const CALL = ["call", "fixture.echo", '{"text":"hi"}'];

/** A refusal: exit 1, the directory and the words of the problem named, no stack trace. */
function assertRefused(
  result: { code: number; stderr: string },
  dir: string,
  problem: RegExp,
): void {
  assert.equal(result.code, 1, result.stderr);
  assert.ok(result.stderr.includes(dir), `the message does not name ${dir}:\n${result.stderr}`);
  assert.match(result.stderr, problem);
  assert.doesNotMatch(result.stderr, STACK_LINE);
  assert.doesNotMatch(result.stderr, /bug in mcpx/);
}

/**
 * A world whose state directory is too long for a socket path, so the
 * socket falls back to `<tmp>/mcpx-<uid>` (tmp being a sticky, world-writable
 * folder like /tmp) or `$XDG_RUNTIME_DIR/mcpx`.
 */
async function longStateWorld(w: World) {
  Deno.chmodSync(w.dir, 0o755); // another user may enter it, as they may enter /tmp's parent
  const tmp = join(w.dir, "tmp");
  Deno.mkdirSync(tmp);
  Deno.chmodSync(tmp, 0o1777);
  const env = {
    MCPX_STATE_DIR: join(w.dir, "s".repeat(100)),
    TMPDIR: tmp,
    XDG_RUNTIME_DIR: "",
  };
  await w.writeConfig(CONFIG);
  return { tmp, env, fallback: join(tmp, `mcpx-${Deno.uid()}`) };
}

rootTest(
  "a fallback socket directory another user made first is refused, and XDG_RUNTIME_DIR is preferred",
  async () => {
    await using w = await world();
    await using other = await otherUser();
    const { env, fallback } = await longStateWorld(w);

    // Another user makes the directory mcpx would put its socket in.
    const made = await other.sh(`mkdir -m 755 '${fallback}'`);
    assert.equal(made.code, 0, made.stderr);
    assertRefused(
      await w.mcpx(CALL, { env, timeoutMs: 60_000 }),
      fallback,
      new RegExp(`owned by user ${other.uid}, not by you.*XDG_RUNTIME_DIR`, "s"),
    );
    assert.deepEqual(w.processes(), [], "nothing was started");
    assert.deepEqual([...Deno.readDirSync(fallback)], []);

    // One of ours that others can write into is refused too.
    Deno.removeSync(fallback);
    Deno.mkdirSync(fallback);
    Deno.chmodSync(fallback, 0o777);
    assertRefused(
      await w.mcpx(CALL, { env, timeoutMs: 60_000 }),
      fallback,
      /other users can write into it \(mode 777\).*chmod 700/s,
    );
    assert.deepEqual(w.processes(), [], "nothing was started");

    // With XDG_RUNTIME_DIR set, the socket goes there, whoever made the directory in tmp.
    Deno.removeSync(fallback);
    assert.equal((await other.sh(`mkdir -m 755 '${fallback}'`)).code, 0);
    const runtime = join(w.dir, "run");
    Deno.mkdirSync(runtime, { mode: 0o700 });
    const xdgEnv = { ...env, XDG_RUNTIME_DIR: runtime };
    try {
      const called = await w.mcpx(CALL, { env: xdgEnv, timeoutMs: 60_000 });
      assert.equal(called.code, 0, called.stderr);
      assert.equal(called.stdout, "hi\n");
      const { daemons } = await w.json<{ daemons: { socket: string }[] }>(["daemons"], {
        env: xdgEnv,
      });
      assert.equal(daemons.length, 1);
      assert.equal(
        daemons[0].socket.slice(0, daemons[0].socket.lastIndexOf("/")),
        `${runtime}/mcpx`,
      );
      assert.equal(Deno.statSync(`${runtime}/mcpx`).mode! & 0o777, 0o700);
      assert.deepEqual([...Deno.readDirSync(fallback)], []);
    } finally {
      await w.mcpx(["stop"], { env: xdgEnv });
    }
  },
);

rootTest("a directory another user made in the state or cache path is refused", async () => {
  await using w = await world();
  await using other = await otherUser();
  await w.writeConfig(CONFIG);
  Deno.chmodSync(w.dir, 0o755);
  const shared = join(w.dir, "shared");
  Deno.mkdirSync(shared);
  Deno.chmodSync(shared, 0o1777);

  // The whole state directory, made by the other user in a shared folder.
  const theirState = join(shared, "state");
  assert.equal((await other.sh(`mkdir -m 700 '${theirState}'`)).code, 0);
  assertRefused(
    await w.mcpx(CALL, { env: { MCPX_STATE_DIR: theirState }, timeoutMs: 60_000 }),
    theirState,
    new RegExp(`owned by user ${other.uid}, not by you`),
  );

  // One directory inside a state directory of ours: daemons/, then sockets/.
  const state = join(w.dir, "state");
  for (const sub of ["daemons", "sockets"]) {
    Deno.mkdirSync(state, { recursive: true });
    Deno.chmodSync(state, 0o777); // open for a moment, long enough for the other user
    assert.equal((await other.sh(`mkdir -m 755 '${join(state, sub)}'`)).code, 0);
    Deno.chmodSync(state, 0o700);
    assertRefused(
      await w.mcpx(CALL, { env: { MCPX_STATE_DIR: state }, timeoutMs: 60_000 }),
      join(state, sub),
      new RegExp(`owned by user ${other.uid}, not by you`),
    );
    assert.deepEqual(w.processes(), [], "nothing was started");
    Deno.removeSync(state, { recursive: true });
  }

  // The cache directory, where a compiled configuration would choose the commands mcpx starts.
  const theirCache = join(shared, "cache");
  assert.equal((await other.sh(`mkdir -m 755 '${theirCache}'`)).code, 0);
  assertRefused(
    await w.mcpx(["ls"], { env: { MCPX_CACHE_DIR: theirCache }, timeoutMs: 60_000 }),
    theirCache,
    new RegExp(`owned by user ${other.uid}, not by you`),
  );
  assert.deepEqual(w.processes(), [], "nothing was started");
});

rootTest(
  "after a session of commands every state and cache file is private and another user reads none",
  async () => {
    await using w = await world();
    await using other = await otherUser();
    await w.writeConfig(CONFIG);
    // Readable parents, as ~/.local/state and ~/.cache often are: only mcpx's own modes protect.
    Deno.chmodSync(w.dir, 0o755);
    const stateRoot = join(w.dir, ".state");
    const cacheRoot = join(w.dir, ".cache");
    for (const dir of [stateRoot, cacheRoot]) {
      Deno.mkdirSync(dir);
      Deno.chmodSync(dir, 0o755);
    }
    Deno.mkdirSync(join(w.dir, ".mcpx", "scripts"), { recursive: true });
    Deno.writeTextFileSync(
      join(w.dir, ".mcpx", "scripts", "hi.ts"),
      'export default async function main() { return String(await fixture.echo({ text: "run" })); }\n',
    );
    const steps = [
      ["ls"],
      CALL,
      ["run", "hi"],
      ["exec", 'fixture.echo({ text: "exec" })'],
      ["session", "new", "--name", "s1"],
      ["log", "--since", "1h"],
      ["stats", "calls"],
    ];
    for (const args of steps) {
      const result = await w.mcpx(args, { timeoutMs: 120_000 });
      assert.equal(result.code, 0, `mcpx ${args.join(" ")}: ${result.stderr}`);
    }

    // The daemon still runs, so its socket is there too (0600 like every file).
    const dirs: string[] = [];
    const files: string[] = [];
    const walk = (dir: string) => {
      dirs.push(dir);
      for (const entry of Deno.readDirSync(dir)) {
        const path = join(dir, entry.name);
        if (entry.isDirectory) walk(path);
        else files.push(path);
      }
    };
    walk(join(stateRoot, "mcpx"));
    walk(join(cacheRoot, "mcpx"));
    const mode = (path: string) => (Deno.lstatSync(path).mode! & 0o777).toString(8);
    assert.deepEqual(dirs.filter((d) => mode(d) !== "700").map((d) => `${d} ${mode(d)}`), []);
    assert.deepEqual(files.filter((f) => mode(f) !== "600").map((f) => `${f} ${mode(f)}`), []);
    // What the session must have written, so the walk above saw it.
    const names = files.map((f) => f.slice(w.dir.length));
    for (
      const expected of [
        /^\/\.state\/mcpx\/sockets\/\w+\.sock$/,
        /^\/\.state\/mcpx\/daemons\/\w+\.json$/,
        /^\/\.state\/mcpx\/daemons\/\w+\.lock$/,
        /^\/\.state\/mcpx\/daemons\/\w+\.log$/,
        /^\/\.state\/mcpx\/sessions\/\w+\.json$/,
        /^\/\.state\/mcpx\/logs\/.*daemon.*\.jsonl$/,
        /^\/\.state\/mcpx\/logs\/.*run.*\.jsonl$/,
        /^\/\.state\/mcpx\/logs\/index\.db$/,
        /^\/\.cache\/mcpx\/schemas-\w+\.json$/,
        /^\/\.cache\/mcpx\/schemas-\w+\/s-\w+\.json$/,
        /^\/\.cache\/mcpx\/config-\w+\.json$/,
        /^\/\.cache\/mcpx\/clients\/\w+\.ts$/,
        /^\/\.cache\/mcpx\/launchers\/\w+\.ts$/,
        // An exec program lasts only as long as its run (decision 0024); its client stays.
        /^\/\.cache\/mcpx\/exec\/\w+\/mcpx-client\.ts$/,
      ]
    ) assert.ok(names.some((n) => expected.test(n)), `no file matches ${expected}: ${names}`);

    // The other user can list no directory and read no file of them.
    const quoted = (paths: string[]) => paths.map((p) => `'${p}'`).join(" ");
    const probe = await other.sh(
      `for d in ${quoted(dirs)}; do ls "$d" >/dev/null 2>&1 && echo "listed $d"; done; ` +
        `for f in ${quoted(files)}; do head -c1 "$f" >/dev/null 2>&1 && echo "read $f"; done; true`,
    );
    assert.equal(probe.stdout, "", "another user got in");
  },
);

Deno.test("a script's generated client refuses a socket in a directory others can write into, under deno, bun and node", async (t) => {
  const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "mcpx-private-client-" }));
  const open = join(dir, "open");
  Deno.mkdirSync(open);
  Deno.chmodSync(open, 0o777);
  // Someone else's server in that directory: it must see no connection.
  const listener = Deno.listen({ transport: "unix", path: join(open, "d.sock") });
  let connections = 0;
  const accepting = (async () => {
    for await (const conn of listener) {
      connections++;
      conn.close();
    }
  })();
  try {
    await Deno.writeTextFile(join(dir, "mcpx-client.ts"), await runtimeSource());
    await Deno.writeTextFile(join(dir, "package.json"), '{ "type": "module" }\n');
    await Deno.writeTextFile(
      join(dir, "main.ts"),
      `import { callTool } from "./mcpx-client.ts";
try {
  await callTool("fixture", "fixture", "echo", { text: "secret" });
  console.log(JSON.stringify({ code: "none" }));
} catch (error) {
  console.log(JSON.stringify({ code: (error as any).code, message: (error as any).message }));
}
`,
    );
    for (const name of ["deno", "bun", "node"] as const) {
      await t.step(name, async () => {
        const argv = await scriptArgv(name, "main.ts");
        assert.ok(argv, `no ${name} could be found or installed (tests/_runtimes.ts)`);
        const out = await new Deno.Command(argv[0], {
          args: argv.slice(1),
          cwd: dir,
          env: { NO_COLOR: "1", MCPX_SOCKET: join(open, "d.sock"), MCPX_RUN: "run-0123456789ab" },
          stdin: "null",
          stdout: "piped",
          stderr: "piped",
          signal: AbortSignal.timeout(60_000),
        }).output();
        const stdout = new TextDecoder().decode(out.stdout);
        assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
        const answer = JSON.parse(stdout);
        assert.equal(answer.code, "unsafe-directory", stdout);
        assert.ok(answer.message.includes(open), answer.message);
        assert.match(answer.message, /mode 777.*nothing was sent/s);
        assert.equal(connections, 0, `${name} connected to the socket`);
      });
    }
  } finally {
    listener.close();
    await accepting.catch(() => {});
    await Deno.remove(dir, { recursive: true });
  }
});
