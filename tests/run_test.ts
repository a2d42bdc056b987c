/**
 * `mcpx run` and `mcpx exec` against the real server-everything: the script
 * contract (stdout is the result, stderr diagnostics, default export, emit,
 * --export, --json), the generated client, and checking before running.
 */

import assert from "node:assert/strict";
import { eventually, fixtureServer, mcpxArgv, stdioServer, world } from "./_helpers.ts";
import { DEFAULT_TEMPLATE } from "../launcher/default_template.ts";

const ECHO_SCRIPT = `// Echo each argument through the server.
import tools, { log } from "./mcpx-client.ts";

export async function shout(a: string, b: string) {
  return String(await tools.everything.echo({ message: a + b })).toUpperCase();
}

export default async function main(args: string[]) {
  log.info("echoing {count} words", { count: args.length, extra: "kept" });
  console.error("captured {not a template}", 42);
  Deno.stderr.writeSync(new TextEncoder().encode("raw stderr line\\n"));
  emit({ first: args[0] });
  const echoed = [];
  for (const word of args) echoed.push(String(await everything.echo({ message: word })));
  const sum = await tools.everything["get-sum"]({ a: 2, b: 3 }); // the real name works too
  return { echoed, sum: String(sum), cwd: Deno.cwd() };
}
`;

Deno.test("mcpx run and exec drive server-everything through the generated client", async (t) => {
  await using w = await world();
  await w.writeConfig({
    mcpServers: { everything: stdioServer("everything", [], { namespace: "everything" }) },
  });
  await Deno.mkdir(`${w.dir}/.mcpx/scripts`, { recursive: true });
  await Deno.writeTextFile(`${w.dir}/.mcpx/scripts/echo.ts`, ECHO_SCRIPT);
  await Deno.mkdir(`${w.dir}/sub`);

  await t.step(
    "a named script's result is its stdout; records and stderr go to stderr",
    async () => {
      const r = await w.mcpx(["run", "echo", "hi", "there"], { cwd: `${w.dir}/sub` });
      assert.equal(r.code, 0, r.stderr);
      const lines = r.stdout.trimEnd().split("\n");
      assert.deepEqual(JSON.parse(lines[0]), { first: "hi" }, "emit writes one JSON line at once");
      const result = JSON.parse(lines.slice(1).join("\n"));
      assert.deepEqual(result.echoed, ["Echo: hi", "Echo: there"]);
      assert.match(result.sum, /5/);
      assert.equal(result.cwd, `${w.dir}/sub`, "the script runs in the caller's directory");
      assert.match(r.stderr, /INFO\s+echoing 2 words extra=kept/);
      assert.match(r.stderr, /ERROR\s+captured \{not a template\} 42/);
      assert.match(r.stderr, /^raw stderr line$/m);
      assert.ok(!r.stderr.includes("\x1e"), "no record marker reaches the terminal");
      const client = await Deno.readTextFile(`${w.dir}/.mcpx/scripts/mcpx-client.ts`);
      assert.match(client, /^\/\/ mcpx-client \S+ sha256:[0-9a-f]{64}\n/);
      assert.match(client, /export const everything: everything_Tools/);
      await Deno.stat(`${w.dir}/.mcpx/scripts/mcpx-globals.d.ts`);
    },
  );

  await t.step("the client is rewritten only when it changes", async () => {
    const path = `${w.dir}/.mcpx/scripts/mcpx-client.ts`;
    const before = (await Deno.stat(path)).mtime?.getTime();
    const r = await w.mcpx(["run", "echo", "x"]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal((await Deno.stat(path)).mtime?.getTime(), before);
  });

  await t.step("--export calls a named export with the arguments spread", async () => {
    const r = await w.mcpx(["run", "--export", "shout", "echo", "ab", "cd"]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, "ECHO: ABCD\n");
  });

  await t.step("--json wraps the run in one document and nothing else is printed", async () => {
    const r = await w.mcpx(["--json", "run", "echo", "one"]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stderr, "");
    const doc = JSON.parse(r.stdout);
    assert.equal(doc.ok, true);
    assert.equal(doc.exitCode, 0);
    assert.equal(doc.runtime, "deno");
    assert.equal(typeof doc.durationMs, "number");
    assert.deepEqual(doc.result.echoed, ["Echo: one"]);
    assert.deepEqual(doc.results, [{ first: "one" }]);
    assert.ok(
      doc.logs.some((l: { msg: string; template: string }) =>
        l.msg === "echoing 1 words" && l.template === "echoing {count} words"
      ),
      JSON.stringify(doc.logs),
    );
    assert.equal(doc.stderr, "raw stderr line\n");
    assert.ok(doc.logs.some((l: { msg: string }) => l.msg === "captured {not a template} 42"));
  });

  await t.step("a tool error throws ToolError, fails the run and names the tool", async () => {
    await Deno.writeTextFile(
      `${w.dir}/bad.ts`,
      "export default async () => await everything.echo({});\n",
    );
    const r = await w.mcpx(["run", "./bad.ts"]);
    assert.equal(r.code, 1);
    assert.equal(r.stdout, "");
    assert.match(r.stderr, /error: ToolError/);
    assert.match(r.stderr, /echo/);
    assert.match(r.stderr, /bad\.ts:1/, "the script's own frame is shown");
  });

  await t.step("exec runs an expression and prints its value; - reads the program", async () => {
    const r = await w.mcpx(["exec", 'everything.echo({ message: "from exec" })']);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, "Echo: from exec\n");
    const s = await w.mcpx(["exec", "-", "a1"], {
      stdin:
        "const r = await tools.everything.echo({ message: Deno.args[0] });\nconsole.log(String(r));\n",
    });
    assert.equal(s.code, 0, s.stderr);
    assert.equal(s.stdout, "Echo: a1\n");
  });

  await t.step("the durable log has each run and the calls it made", async () => {
    const doc = await w.json(["run", "echo", "logged"]);
    const records = (await w.json(["log", "-n", "500"])).records.filter((
      r: { span: string; attrs: { run?: string } },
    ) => r.span === doc.run || r.attrs.run === doc.run);
    const events = records.map((r: { event: string }) => r.event);
    assert.equal(events[0], "run.start");
    assert.equal(events.at(-1), "run.end");
    assert.ok(events.includes("log"), "the script's own record is there under its run");
    assert.equal(events.filter((e: string) => e === "call.end").length, 2, events.join());
    const { rows } = await w.json(["stats", "sessions"]);
    const row = rows.find((r: { session?: string }) => r.session === doc.run);
    assert.equal(row?.kind, "run", JSON.stringify(rows));
    assert.equal(row.calls, 2);
  });

  await t.step("a missing export lists the ones that exist", async () => {
    const r = await w.mcpx(["run", "--export", "nope", "echo"]);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /shout, default/);
  });
});

Deno.test("run checks everything before starting anything and reports every problem", async () => {
  await using w = await world();
  await w.writeConfig({ mcpServers: { everything: stdioServer("everything") } });
  await Deno.writeTextFile(`${w.dir}/s.ts`, "export function a() {}\n");
  const r = await w.mcpx([
    "run",
    "--env",
    "NOEQUALS",
    "--prefix",
    "@file:missing-prefix.ts",
    "--export",
    "b",
    "./s.ts",
  ]);
  assert.equal(r.code, 2, r.stderr);
  assert.match(r.stderr, /3 problems/);
  assert.match(r.stderr, /NOEQUALS/);
  assert.match(r.stderr, /missing-prefix\.ts/);
  assert.match(r.stderr, /exports a\b/);
  assert.deepEqual(w.processes(), [], "no daemon and no server was started");
});

Deno.test("run --timeout is checked with the others before the script starts", async () => {
  await using w = await world();
  await w.writeConfig({ mcpServers: {} });
  await Deno.writeTextFile(`${w.dir}/mark.ts`, 'Deno.writeTextFileSync("ran", "yes");\n');
  for (
    const command of [["run", "--timeout", "5x", "./mark.ts"], ["exec", "--timeout", "0", "1"]]
  ) {
    const r = await w.mcpx(command);
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, command[2] === "5x" ? /--timeout: .*"5x"/ : /more than 0, got "0"/);
    assert.doesNotMatch(r.stderr, /bug in mcpx|RangeError/);
  }
  const both = await w.mcpx(["run", "--timeout=-1s", "--env", "NOEQUALS", "./mark.ts"]);
  assert.match(both.stderr, /2 problems/, "reported with every other problem at once");
  assert.equal(await Deno.stat(`${w.dir}/ran`).catch(() => null), null, "the script never ran");
  assert.deepEqual(w.processes(), [], "no daemon and no server was started");
});

Deno.test("a script not found names every place searched", async () => {
  await using w = await world();
  await w.writeConfig({ mcpServers: {} });
  const r = await w.mcpx(["run", "nothing-here"]);
  assert.notEqual(r.code, 0);
  assert.match(r.stderr, /\.mcpx\/scripts\/nothing-here\.\{ts,js\}\s+missing/);
  assert.match(r.stderr, /\.config\/mcpx\/scripts/);
});

Deno.test("run options: --env, --env-file, --prefix/--suffix, --typecheck, --timeout, --no-launcher", async (t) => {
  await using w = await world();
  await w.writeConfig({ mcpServers: {} });

  await t.step("--env and --env-file reach the script; later wins", async () => {
    await Deno.writeTextFile(`${w.dir}/vars.env`, "A=from-file\nB=file-b\n");
    await Deno.writeTextFile(
      `${w.dir}/env.ts`,
      'export default () => [Deno.env.get("A"), Deno.env.get("B"), Deno.env.get("MCPX_RUNTIME")];\n',
    );
    const r = await w.mcpx(["run", "--env-file", "vars.env", "--env", "A=flag", "./env.ts"]);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(JSON.parse(r.stdout), ["flag", "file-b", "deno"]);
  });

  await t.step(
    "--prefix runs before the script, --suffix after it even when it throws",
    async () => {
      await Deno.writeTextFile(`${w.dir}/hooks.ts`, 'throw new Error("boom");\n');
      await Deno.writeTextFile(
        `${w.dir}/suffix.ts`,
        'console.log("suffix saw ok=" + result.ok + " error=" + result.error?.message);\n',
      );
      const r = await w.mcpx([
        "run",
        "--prefix",
        'console.log("prefix for " + script.name);',
        "--suffix",
        "suffix.ts",
        "./hooks.ts",
      ]);
      assert.equal(r.code, 1);
      assert.equal(r.stdout, "prefix for hooks\nsuffix saw ok=false error=boom\n");
      assert.match(r.stderr, /error: Error: boom/);
    },
  );

  await t.step("a placeholder declared in a file rearranges the launcher", async () => {
    await Deno.mkdir(`${w.dir}/holes`);
    await Deno.writeTextFile(
      `${w.dir}/holes/timed.ts`,
      '// @mcpx:placeholder timed(body, label)\n{\n  @body\n  console.log("timed " + @label);\n}\n',
    );
    await Deno.writeTextFile(`${w.dir}/value.ts`, "export default () => 7;\n");
    const template = DEFAULT_TEMPLATE.replace("@entry", '@timed(entry, "the entry")');
    const env = { MCPX_PATHS_PLACEHOLDERS: `${w.dir}/holes` };
    const r = await w.mcpx(["run", "--launcher", `@text:${template}`, "./value.ts"], { env });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, "timed the entry\n7\n");
    const typo = template.replace("@suffix", "@sufix");
    const bad = await w.mcpx(["run", "--launcher", `@text:${typo}`, "./value.ts"], { env });
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /@sufix[\s\S]*@suffix/);
  });

  await t.step(
    "--typecheck refuses a script that does not type-check, before running it",
    async () => {
      await Deno.writeTextFile(
        `${w.dir}/typo.ts`,
        'const n: number = "not a number";\nconsole.log("ran");\n',
      );
      await Deno.writeTextFile(
        `${w.dir}/typed.ts`,
        'import tools from "./mcpx-client.ts";\nconst n: number = 1;\n' +
          "export default () => ({ n, namespaces: Object.keys(tools), log: typeof log });\n",
      );
      const ok = await w.mcpx(["run", "--typecheck", "./typed.ts"]);
      assert.equal(ok.code, 0, ok.stderr);
      assert.deepEqual(JSON.parse(ok.stdout), { n: 1, namespaces: [], log: "function" });
      const r = await w.mcpx(["run", "--typecheck", "./typo.ts"]);
      assert.equal(r.code, 1, r.stderr);
      assert.equal(r.stdout, "");
      assert.match(r.stderr, /does not type-check/);
      const plain = await w.mcpx(["run", "./typo.ts"]);
      assert.equal(plain.stdout, "ran\n", "without --typecheck, types are not checked");
    },
  );

  await t.step("--timeout stops a script that runs too long", async () => {
    await Deno.writeTextFile(
      `${w.dir}/slow.ts`,
      "await new Promise((r) => setTimeout(r, 60_000));\n",
    );
    const r = await w.mcpx(["run", "--timeout", "1s", "./slow.ts"]);
    assert.equal(r.code, 143);
    assert.match(r.stderr, /ran past --timeout 1s/);
  });

  await t.step("--no-launcher hands the script to the runtime bare", async () => {
    await Deno.writeTextFile(
      `${w.dir}/bare.ts`,
      'console.log(typeof log, typeof tools);\nconsole.error("as is");\nexport default () => 1;\n',
    );
    const r = await w.mcpx(["run", "--no-launcher", "./bare.ts"]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(
      r.stdout,
      "undefined undefined\n",
      "no globals, and the default export is not called",
    );
    assert.equal(r.stderr, "as is\n");
  });
});

Deno.test("scripts shared between configurations: each run gets its own namespaces", async (t) => {
  await using w = await world();
  for (const name of ["alpha", "beta"]) {
    await Deno.mkdir(`${w.dir}/${name}`);
    await w.writeConfig(
      { mcpServers: { [name]: fixtureServer() } },
      `${name}/.mcp.json`,
    );
  }
  const shared = `${w.dir}/.config/mcpx/scripts`;
  await Deno.mkdir(shared, { recursive: true });
  await Deno.writeTextFile(
    `${shared}/which.ts`,
    "export default async () => [Object.keys(tools), String(await tools[Object.keys(tools)[0]].echo({ text: 'x' }))];\n",
  );

  await t.step("runs from two configurations at once never see each other's client", async () => {
    const runs = ["alpha", "beta", "alpha", "beta", "alpha", "beta"].map(async (name) => {
      const r = await w.mcpx(["run", "which"], { cwd: `${w.dir}/${name}` });
      assert.equal(r.code, 0, r.stderr);
      return [name, JSON.parse(r.stdout)[0]];
    });
    for (const [name, namespaces] of await Promise.all(runs)) {
      assert.deepEqual(namespaces, [name]);
    }
  });

  await t.step("a client written by `mcpx client -o` is never replaced by a run", async () => {
    const out = await w.mcpx(["client", "-o", `${w.dir}/checked/`], { cwd: `${w.dir}/alpha` });
    assert.equal(out.code, 0, out.stderr);
    const before = await Deno.readTextFile(`${w.dir}/checked/mcpx-client.ts`);
    await Deno.writeTextFile(
      `${w.dir}/checked/job.ts`,
      'import tools from "./mcpx-client.ts";\nexport default () => Object.keys(tools);\n',
    );
    const r = await w.mcpx(["run", `${w.dir}/checked/job.ts`], { cwd: `${w.dir}/beta` });
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(JSON.parse(r.stdout), ["alpha"], "the import gets the checked-in client");
    assert.match(r.stderr, /written by `mcpx client -o` for other namespaces/);
    assert.equal(await Deno.readTextFile(`${w.dir}/checked/mcpx-client.ts`), before);
  });

  await t.step("script.permissions none still reaches the daemon", async () => {
    const r = await w.mcpx(
      ["exec", "--script-permissions", "none", 'alpha.echo({ text: "fenced" })'],
      { cwd: `${w.dir}/alpha` },
    );
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /fenced/);
    const denied = await w.mcpx(
      ["exec", "--script-permissions", "none", 'Deno.readTextFileSync("/etc/hostname")'],
      { cwd: `${w.dir}/alpha` },
    );
    assert.notEqual(denied.code, 0);
    assert.match(denied.stderr, /NotCapable|PermissionDenied|Requires read access/);
  });
});

Deno.test("a script whose mcpx run is killed with SIGKILL gets no more calls and ends", async () => {
  await using w = await world();
  await w.writeConfig({ mcpServers: { fx: fixtureServer() } });
  await Deno.writeTextFile(
    `${w.dir}/loop.ts`,
    `Deno.writeTextFileSync("${w.dir}/child.pid", String(Deno.pid));\n` +
      "for (;;) await fx.echo({ text: 'again' });\n",
  );
  const mcpx = new Deno.Command(Deno.execPath(), {
    args: mcpxArgv(["run", "./loop.ts"]).slice(1),
    env: w.env,
    clearEnv: true,
    cwd: w.dir,
    stdout: "null",
    stderr: "null",
  }).spawn();
  let child = 0;
  assert.ok(
    await eventually(() => {
      try {
        child = Number(Deno.readTextFileSync(`${w.dir}/child.pid`));
      } catch { /* not yet */ }
      return child > 0;
    }, 20_000),
    "the script started",
  );
  mcpx.kill("SIGKILL");
  await mcpx.status;
  assert.ok(
    await eventually(() => {
      try {
        Deno.statSync(`/proc/${child}`);
        return /^[^)]*\) Z/.test(Deno.readTextFileSync(`/proc/${child}/stat`));
      } catch {
        return true;
      }
    }, 10_000),
    `the orphaned script (pid ${child}) is still running`,
  );
});

Deno.test("a profile chosen for a run applies to its client and to mcpx commands it runs", async () => {
  await using w = await world();
  await w.writeConfig({
    mcpServers: {
      base: fixtureServer(),
      web: fixtureServer({ mcpx: { profiles: ["web"], default: false } }),
    },
  });
  await Deno.writeTextFile(
    `${w.dir}/nested.ts`,
    `export default async () => {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ${JSON.stringify(mcpxArgv(["--json", "ls"]).slice(1))},
  }).output();
  const ls = JSON.parse(new TextDecoder().decode(out.stdout));
  return { client: Object.keys(tools).sort(), nested: ls.namespaces.map((n) => n.namespace).sort() };
};
`,
  );
  const plain = await w.mcpx(["run", "./nested.ts"]);
  assert.equal(plain.code, 0, plain.stderr);
  assert.deepEqual(JSON.parse(plain.stdout), { client: ["base"], nested: ["base"] });
  const web = await w.mcpx(["run", "--profile", "web", "./nested.ts"]);
  assert.equal(web.code, 0, web.stderr);
  assert.deepEqual(JSON.parse(web.stdout), { client: ["base", "web"], nested: ["base", "web"] });
});
