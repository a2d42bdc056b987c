/**
 * Hooks with a real daemon and real processes (issue 28, "Hooks"; spec 004's
 * `MCPX_HOOK_*` rows; decision 0081): a declared hook hears a server crash
 * with its variables and the event on stdin; a hanging hook is killed at its
 * timeout while calls go on; an untrusted project's hooks do not run; a run's
 * exec hooks get their phase, point and error.
 */
import assert from "node:assert/strict";
import { existsSync } from "../core/exists.ts";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { alive, eventually, fixtureServer, mcpxArgv, type World, world } from "./_helpers.ts";

/** A hook command writing its `MCPX_HOOK_*` variables, then its stdin, to `<dir>/<name>.out`. */
function recorder(dir: string, name: string): string {
  // Each run writes a file of its own, then renames it: a reader never sees a half-written one.
  return `{ env | grep '^MCPX_HOOK_' | sort; echo ---; cat; } > ${dir}/${name}.$$.tmp && ` +
    `mv ${dir}/${name}.$$.tmp ${dir}/${name}.out`;
}

/** A hook command that writes its pid to `<dir>/<name>.pid`, then hangs. */
function hanger(dir: string, name: string): string {
  return `echo $$ > ${dir}/${name}.tmp && mv ${dir}/${name}.tmp ${dir}/${name}.pid && exec sleep 120`;
}

/** The file's text once it exists, waiting up to `ms`. */
async function fileText(path: string, ms = 20_000): Promise<string> {
  let text: string | undefined;
  await eventually(() => {
    try {
      text = Deno.readTextFileSync(path);
      return true;
    } catch {
      return false;
    }
  }, ms);
  assert.ok(text !== undefined, `${path} never appeared`);
  return text;
}

/** The variables and the JSON document a {@link recorder} hook wrote. */
function recorded(text: string): { vars: Record<string, string>; stdin: any } {
  const [head, body] = text.split("---\n");
  const vars = Object.fromEntries(
    head.trim().split("\n").map((
      line,
    ) => [line.slice(0, line.indexOf("=")), line.slice(line.indexOf("=") + 1)]),
  );
  return { vars, stdin: JSON.parse(body) };
}

/** Every record of the world's durable log. */
function logRecords(w: World): Record<string, any>[] {
  const dir = `${w.dir}/.state/mcpx/logs`;
  let names: string[] = [];
  try {
    names = [...Deno.readDirSync(dir)].map((e) => e.name).filter((n) => n.endsWith(".jsonl"));
  } catch { /* none yet */ }
  return names.flatMap((name) =>
    Deno.readTextFileSync(`${dir}/${name}`).split("\n").filter(Boolean).map((l) => JSON.parse(l))
  );
}

/** The first log record `match` accepts, waiting up to `ms`. */
async function logRecord(
  w: World,
  match: (r: Record<string, any>) => boolean,
  ms = 20_000,
): Promise<Record<string, any>> {
  let found: Record<string, any> | undefined;
  await eventually(() => (found = logRecords(w).find(match)) !== undefined, ms);
  assert.ok(found, "no such log record");
  return found;
}

Deno.test("a declared hook hears a server crash with its variables and the event on stdin", async () => {
  await using w = await world();
  await w.writeConfig({
    mcpServers: { fragile: fixtureServer() },
    hooks: {
      observe: {
        "crash-alert": { on: ["server.crashed"], command: recorder(w.dir, "crash") },
        // Another kind only: never runs for a crash.
        "on-reload": { on: "config.reloaded", command: recorder(w.dir, "reload") },
      },
    },
  });
  const warm = await w.mcpx(["call", "fragile.echo", '{"text":"warm"}']);
  assert.equal(warm.code, 0, warm.stderr);
  const pid = (await w.json(["status"])).servers[0].instances[0].pid;
  const crash = await w.mcpx(["call", "fragile.crash", '{"code":7}']);
  assert.equal(crash.code, 1);
  const { vars, stdin } = recorded(await fileText(`${w.dir}/crash.out`));
  assert.deepEqual(vars, {
    MCPX_HOOK_EVENT_KIND: "server.crashed",
    MCPX_HOOK_EVENT_SEQ: String(stdin.seq),
    MCPX_HOOK_EVENT_SERVER: "fragile",
    MCPX_HOOK_EVENT_SESSION: "",
    MCPX_HOOK_EVENT_URI: "",
    MCPX_HOOK_NAME: "crash-alert",
    MCPX_HOOK_PHASE: "observe",
  });
  assert.equal(stdin.kind, "server.crashed");
  assert.equal(stdin.server, "fragile");
  assert.equal(stdin.data.code, 7);
  assert.equal(stdin.data.pid, pid);
  assert.match(stdin.id, new RegExp(`-${stdin.seq}$`));
  assert.equal(existsSync(`${w.dir}/reload.out`), false);
});

Deno.test("a hanging hook is killed at its timeout, and calls made meanwhile are not held up", async () => {
  await using w = await world();
  await w.writeConfig({
    mcpServers: { fragile: fixtureServer() },
    hooks: {
      observe: {
        // Hangs past the calls below: they finish while it still runs.
        "hangs-long": { on: "server.crashed", command: hanger(w.dir, "long"), timeout: "2m" },
        // Hangs past its own bound: killed, and logged.
        "hangs-short": { on: "server.crashed", command: hanger(w.dir, "short"), timeout: "1s" },
      },
    },
  });
  await w.mcpx(["call", "fragile.echo", '{"text":"warm"}']);
  await w.mcpx(["call", "fragile.crash", '{"code":3}']);
  const long = Number((await fileText(`${w.dir}/long.pid`)).trim());
  const short = Number((await fileText(`${w.dir}/short.pid`)).trim());
  const call = await w.mcpx(["call", "fragile.echo", '{"text":"meanwhile"}']);
  assert.equal(call.code, 0, call.stderr);
  assert.equal(call.stdout, "meanwhile\n");
  assert.ok(alive(long), "the call waited for the hanging hook to end");
  assert.ok(await eventually(() => !alive(short), 20_000), "the hook outlived its timeout");
  const failed = await logRecord(
    w,
    (r) => r.event === "hook.failed" && r.attrs.hook === "hangs-short",
  );
  assert.equal(failed.attrs.outcome, "timeout");
  assert.equal(failed.attrs.kind, "server.crashed");
  assert.match(failed.attrs.reason, /timeout of 1000 ms/);
  // Stopping the daemon ends the hook still running, its group with it.
  await w.mcpx(["stop", "--all"]);
  assert.ok(await eventually(() => !alive(long), 20_000), "a hook outlived its daemon");
});

Deno.test("an untrusted project's hooks do not run, and ls says why; once trusted they do", async () => {
  await using w = await world({ trust: "ask" });
  const servers = { fragile: fixtureServer() };
  await w.writeConfig({ mcpServers: servers });
  const trusted = await w.mcpx(["trust"]);
  assert.equal(trusted.code, 0, trusted.stderr);
  // The servers stay trusted; the hooks added since are not.
  await w.writeConfig({
    mcpServers: servers,
    hooks: {
      observe: { "crash-alert": { on: "server.crashed", command: recorder(w.dir, "crash") } },
    },
  });
  const ls = await w.json(["ls"]);
  assert.equal(ls.namespaces[0].state, "ready", JSON.stringify(ls));
  assert.ok(
    ls.warnings.some((line: string) =>
      line.includes("hooks.observe") && line.includes("mcpx trust")
    ),
    JSON.stringify(ls.warnings),
  );
  await w.mcpx(["call", "fragile.crash", '{"code":5}']);
  const refused = await logRecord(w, (r) => r.event === "hook.untrusted");
  assert.match(refused.attrs.reason, /changed its settings since it was trusted/);
  assert.equal(existsSync(`${w.dir}/crash.out`), false, "an untrusted hook ran");
  // Trusted now: the running daemon reads the store again, and the next crash runs the hook.
  assert.equal((await w.mcpx(["trust"])).code, 0);
  await w.mcpx(["call", "fragile.crash", '{"code":6}']);
  const { vars, stdin } = recorded(await fileText(`${w.dir}/crash.out`));
  assert.equal(vars.MCPX_HOOK_NAME, "crash-alert");
  assert.equal(stdin.data.code, 6);
});

Deno.test("mcpx serve's mcpx_exec takes exec hooks as fields of the call", async () => {
  await using w = await world();
  await w.writeConfig({ mcpServers: {} });
  const [command, ...args] = mcpxArgv(["serve"]);
  const client = new Client({ name: "hooks-test", version: "0" });
  await client.connect(new StdioClientTransport({ command, args, env: w.env, cwd: w.dir }));
  try {
    const result = await client.callTool({
      name: "mcpx_exec",
      arguments: {
        code: 'throw new Error("served")',
        hookOnError: [recorder(w.dir, "served-error")],
        hookPost: [recorder(w.dir, "served-post")],
      },
    });
    assert.equal(result.isError, true, JSON.stringify(result));
    const error = recorded(await fileText(`${w.dir}/served-error.out`, 0));
    assert.equal(error.vars.MCPX_HOOK_PHASE, "onError");
    assert.equal(error.vars.MCPX_HOOK_POINT, "script");
    assert.equal(error.vars.MCPX_HOOK_ERROR, "Error: served");
    assert.equal(
      recorded(await fileText(`${w.dir}/served-post.out`, 0)).vars.MCPX_HOOK_PHASE,
      "post",
    );
  } finally {
    await client.close();
  }
});

Deno.test("mcpx exec runs its exec hooks around the script with phase, point and error", async (t) => {
  await using w = await world();
  await w.writeConfig({ mcpServers: {} });
  const hooks = (label: string) => [
    "--hook-pre",
    recorder(w.dir, `${label}-pre`),
    "--hook-on-success",
    recorder(w.dir, `${label}-ok`),
    "--hook-on-error",
    recorder(w.dir, `${label}-error`),
    "--hook-post",
    recorder(w.dir, `${label}-post`),
  ];

  await t.step("a script that succeeds: pre, onSuccess, post", async () => {
    const run = await w.mcpx(["exec", ...hooks("good"), "40 + 2"]);
    assert.equal(run.code, 0, run.stderr);
    assert.equal(run.stdout, "42\n");
    const pre = recorded(await fileText(`${w.dir}/good-pre.out`, 0));
    assert.deepEqual(pre.vars, {
      MCPX_HOOK_ERROR: "",
      MCPX_HOOK_PHASE: "pre",
      MCPX_HOOK_POINT: "script",
    });
    assert.equal(pre.stdin.point, "script");
    assert.equal(pre.stdin.phase, "pre");
    assert.match(pre.stdin.run, /^run-/);
    assert.equal(pre.stdin.cwd, w.dir);
    const ok = recorded(await fileText(`${w.dir}/good-ok.out`, 0));
    assert.equal(ok.vars.MCPX_HOOK_PHASE, "onSuccess");
    assert.equal(ok.stdin.exitCode, 0);
    assert.equal(ok.stdin.run, pre.stdin.run, "one run's hooks share its id");
    const post = recorded(await fileText(`${w.dir}/good-post.out`, 0));
    assert.equal(post.vars.MCPX_HOOK_PHASE, "post");
    assert.equal(existsSync(`${w.dir}/good-error.out`), false);
  });

  await t.step("a script that throws: onError with the error in one line, then post", async () => {
    const run = await w.mcpx(["exec", ...hooks("bad"), 'throw new TypeError("bad\\n  thing")']);
    assert.equal(run.code, 1);
    const error = recorded(await fileText(`${w.dir}/bad-error.out`, 0));
    assert.equal(error.vars.MCPX_HOOK_PHASE, "onError");
    assert.equal(error.vars.MCPX_HOOK_POINT, "script");
    assert.equal(error.vars.MCPX_HOOK_ERROR, "TypeError: bad thing");
    assert.equal(error.stdin.exitCode, 1);
    assert.equal(error.stdin.error, "TypeError: bad\n  thing");
    const post = recorded(await fileText(`${w.dir}/bad-post.out`, 0));
    assert.equal(post.vars.MCPX_HOOK_ERROR, "", "only an onError hook is given the error");
    assert.equal(existsSync(`${w.dir}/bad-ok.out`), false);
  });

  await t.step("a failing pre hook stops the run before the script starts", async () => {
    const marker = `${w.dir}/script-ran`;
    const run = await w.mcpx([
      "exec",
      "--hook-pre",
      "echo 'not on this branch' >&2; exit 3",
      "--hook-post",
      recorder(w.dir, "stopped-post"),
      `Deno.writeTextFileSync(${JSON.stringify(marker)}, "x")`,
    ]);
    assert.equal(run.code, 1);
    assert.match(
      run.stderr,
      /--hook-pre `echo 'not on this branch' >&2; exit 3` failed: it exited with code 3 \(stderr: not on this branch\); the script did not run/,
    );
    assert.equal(existsSync(marker), false, "the script ran after its pre hook failed");
    assert.equal(existsSync(`${w.dir}/stopped-post.out`), false);
  });

  await t.step("a failing post hook is a note; the run's outcome stands", async () => {
    const run = await w.mcpx(["--json", "exec", "--hook-post", "exit 4", "1"]);
    assert.equal(run.code, 0, run.stderr);
    const document = JSON.parse(run.stdout);
    assert.equal(document.result, 1);
    assert.ok(
      document.logs.some((l: { event: string; msg: string }) =>
        l.event === "run.note" && /--hook-post `exit 4` failed: it exited with code 4/.test(l.msg)
      ),
      JSON.stringify(document.logs),
    );
  });
});
