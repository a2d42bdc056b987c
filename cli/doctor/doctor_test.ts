import assert from "node:assert/strict";
import { main } from "../main.ts";
import { DOCTOR_CHECKS } from "./doctor_checks.ts";
import { npxPackage } from "./doctor_config.ts";
import { render } from "./doctor.ts";
import * as doctorCommand from "./doctor.ts";
import { runHandler } from "../outcome_render.ts";
import { CliContext } from "../context.ts";
import { type Io, memoryIo } from "../../core/io.ts";
import { McpServer, WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/server";

interface Finding {
  check: string;
  status: "ok" | "info" | "warn" | "fail";
  subject?: string;
  message: string;
  fix?: string;
}

/** A home directory with a project holding `.mcp.json` = `config` (text or JSON). */
async function setup(config: unknown) {
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "mcpx-doctor-" }));
  await Deno.mkdir(`${root}/proj`);
  if (config !== undefined) {
    await Deno.writeTextFile(
      `${root}/proj/.mcp.json`,
      typeof config === "string" ? config : JSON.stringify(config),
    );
  }
  return {
    root,
    env: {
      HOME: root,
      PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin",
      // The file is a project's: its settings apply without `mcpx trust` only under `always`.
      MCPX_SECURITY_TRUST_PROJECT_CONFIGS: "always",
    } as Record<string, string>,
    async [Symbol.asyncDispose]() {
      await Deno.remove(root, { recursive: true });
    },
  };
}

/** Runs `mcpx doctor --json [extra…]` in-process; the exit code and the findings. */
async function doctor(w: { root: string; env: Record<string, string> }, extra: string[] = []) {
  let out = "";
  let err = "";
  const io: Io = {
    out: (text) => void (out += text),
    err: (text) => void (err += text),
    readStdin: () => Promise.resolve(""),
  };
  const code = await main(["doctor", "--json", ...extra], io, w.env, `${w.root}/proj`);
  assert.equal(err.includes("at "), false, `no stack trace on stderr: ${err}`);
  const document = JSON.parse(out) as { ok: boolean; checks: unknown[]; findings: Finding[] };
  const of = (check: string, status?: Finding["status"]) =>
    document.findings.filter((f) => f.check === check && (!status || f.status === status));
  return { code, document, of };
}

const LS = { command: "ls" };

/** A stateless MCP endpoint of the SDK's own answering one request. */
async function mcpAnswer(request: Request): Promise<Response> {
  const server = new McpServer({ name: "doctor-probe", version: "1.0.0" });
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
  });
  await server.connect(transport);
  return await transport.handleRequest(request);
}

Deno.test("mcpx doctor on a working setup exits 0 and runs every check in order", async () => {
  await using w = await setup({ mcpServers: { files: LS } });
  const r = await doctor(w);
  assert.equal(r.code, 0, JSON.stringify(r.document.findings.filter((f) => f.status === "fail")));
  assert.equal(r.document.ok, true);
  assert.deepEqual(
    r.document.checks.map((c) => (c as { id: string }).id),
    DOCTOR_CHECKS.map((c) => c.id),
  );
  assert.equal(r.of("server-commands", "ok")[0].subject, "files");
  // Every warn and fail says what to do.
  for (const f of r.document.findings) {
    if (f.status === "warn" || f.status === "fail") assert.ok(f.fix, JSON.stringify(f));
  }
});

Deno.test("mcpx doctor flags each broken setup it is shown, and exits 1", async (t) => {
  await t.step("a configuration that does not parse", async () => {
    await using w = await setup(`{ "mcpServers": { "a": { "command": "ls" }, } `);
    const r = await doctor(w);
    assert.equal(r.code, 1);
    assert.match(r.of("config", "fail")[0].message, /\.mcp\.json/);
    // Checks that need the configuration say they were skipped; none throws.
    assert.match(r.of("server-commands")[0].message, /skipped/);
  });

  await t.step("a setting with a bad value", async () => {
    await using w = await setup({ mcpServers: { a: LS }, catalog: { budget: "lots" } });
    const r = await doctor(w);
    assert.equal(r.code, 1);
    assert.match(r.of("settings", "fail")[0].message, /catalog\.budget/);
    // The servers are still checked: the file itself is fine.
    assert.equal(r.of("server-commands", "ok")[0].subject, "a");
  });

  await t.step("a setting with a bad value in the environment", async () => {
    await using w = await setup({ mcpServers: { a: LS } });
    const r = await doctor({ ...w, env: { ...w.env, MCPX_CATALOG_BUDGET: "lots" } });
    assert.equal(r.code, 1);
    assert.match(r.of("settings", "fail")[0].message, /MCPX_CATALOG_BUDGET/);
    assert.equal(r.of("config", "fail").length, 0);
  });

  await t.step("a server whose command is not installed", async () => {
    await using w = await setup({
      mcpServers: {
        gone: { command: "mcpx-doctor-no-such-server" },
        relative: { command: "./bin/server" },
        fine: LS,
      },
    });
    const r = await doctor(w);
    assert.equal(r.code, 1);
    const fails = r.of("server-commands", "fail");
    assert.deepEqual(fails.map((f) => f.subject), ["gone", "relative"]);
    assert.match(fails[0].message, /not on PATH/);
    assert.match(fails[0].fix!, /install mcpx-doctor-no-such-server.*absolute path/);
    assert.match(fails[1].message, new RegExp(`${w.root}/proj/bin/server`));
  });

  await t.step(
    "a declared adapter whose program is missing, an API whose document is",
    async () => {
      await using w = await setup({
        mcpServers: { a: LS },
        paths: { adapters: ["./adapters.json"], apis: ["./apis.json"] },
      });
      await Deno.writeTextFile(
        `${w.root}/proj/adapters.json`,
        JSON.stringify({
          adapters: [
            { name: "lister", command: "ls", tools: [{ name: "list", args: [] }] },
            { name: "gone", command: "mcpx-doctor-no-such-program", tools: [{ name: "x" }] },
          ],
        }),
      );
      await Deno.writeTextFile(
        `${w.root}/proj/apis.json`,
        JSON.stringify({ apis: [{ name: "pets", spec: "./missing.yaml" }] }),
      );
      const r = await doctor(w);
      assert.equal(r.code, 1);
      assert.deepEqual(r.of("declared-namespaces", "ok").map((f) => f.subject), ["lister"]);
      const fails = r.of("declared-namespaces", "fail");
      assert.deepEqual(fails.map((f) => f.subject), ["gone", "pets"]);
      assert.match(fails[0].fix!, /install mcpx-doctor-no-such-program/);
      assert.match(fails[1].message, /missing\.yaml/);
      // A derived server runs mcpx itself, so the server-commands check passes it.
      assert.equal(r.of("server-commands", "fail").length, 0);
      // …and leaves it to declared-namespaces rather than saying `deno → deno ok` for it.
      assert.deepEqual(r.of("server-commands").map((f) => f.subject), ["a"]);
    },
  );

  await t.step("a server whose ${VAR} is unset, fixed by the user .env", async () => {
    await using w = await setup({ mcpServers: { api: { command: "ls", env: { T: "${DR_T}" } } } });
    const r = await doctor(w);
    assert.equal(r.code, 1);
    assert.match(r.of("server-commands", "fail")[0].message, /DR_T/);
    await Deno.mkdir(`${w.root}/.config/mcpx`, { recursive: true });
    await Deno.writeTextFile(`${w.root}/.config/mcpx/.env`, "DR_T=from-file\n");
    const fixed = await doctor(w);
    assert.equal(fixed.code, 0);
    assert.match(fixed.of("config", "info")[0].message, /user \.env: 1 variable/);
  });

  await t.step("a URL server that does not answer like an MCP endpoint (--online)", async () => {
    // A port that was just free: nothing listens there.
    const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
    const port = (listener.addr as Deno.NetAddr).port;
    listener.close();
    await using server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, (req) => {
      const path = new URL(req.url).pathname;
      if (path === "/mcp") return mcpAnswer(req);
      if (path === "/teapot") return new Response("short and stout", { status: 418 });
      if (path === "/oauth") {
        return new Response(null, {
          status: 401,
          headers: { "www-authenticate": 'Bearer resource_metadata="http://x.test/.well-known"' },
        });
      }
      return new Response("<html>not here</html>", {
        status: 404,
        headers: { "content-type": "text/html" },
      });
    });
    const at = (path: string) => ({ url: `http://127.0.0.1:${server.addr.port}${path}` });
    await using w = await setup({
      mcpServers: {
        down: { url: `http://u:secret@127.0.0.1:${port}/mcp` },
        up: at("/mcp"),
        page: at("/"),
        teapot: at("/teapot"),
        oauth: at("/oauth"),
      },
    });
    const offline = await doctor(w);
    assert.equal(offline.code, 0);
    assert.match(offline.of("url-servers")[0].message, /--online/);
    const r = await doctor(w, ["--online"]);
    assert.equal(r.code, 1);
    const fails = r.of("url-servers", "fail");
    assert.deepEqual(fails.map((f) => f.subject), ["down", "page", "teapot"]);
    assert.doesNotMatch(JSON.stringify(fails[0]), /secret/);
    assert.match(fails[1].message, /HTTP 404 \(text\/html\), not as an MCP endpoint/);
    assert.match(fails[2].message, /HTTP 418/);
    for (const f of fails) assert.match(f.fix!, /mcpServers\.\w+\.url/);
    assert.match(r.of("url-servers", "ok")[0].message, /answered initialize as an MCP endpoint/);
    assert.match(r.of("url-servers", "info")[0].message, /mcpx auth oauth/);
  });

  await t.step("a state directory other users can write into", async () => {
    await using w = await setup({ mcpServers: { a: LS } });
    const state = `${w.root}/state`;
    await Deno.mkdir(state);
    await Deno.chmod(state, 0o777);
    const r = await doctor({ ...w, env: { ...w.env, MCPX_STATE_DIR: state } });
    assert.equal(r.code, 1);
    const fail = r.of("directories", "fail")[0];
    assert.equal(fail.subject, state);
    assert.match(fail.fix!, /chmod 700/);
  });

  await t.step("a cache directory that is a file", async () => {
    await using w = await setup({ mcpServers: { a: LS } });
    await Deno.writeTextFile(`${w.root}/cache`, "");
    const r = await doctor({ ...w, env: { ...w.env, MCPX_CACHE_DIR: `${w.root}/cache` } });
    assert.equal(r.code, 1);
    assert.match(r.of("directories", "fail")[0].message, /should be a directory/);
  });

  await t.step("a damaged log index", async () => {
    await using w = await setup({ mcpServers: { a: LS } });
    const logs = `${w.root}/.local/state/mcpx/logs`;
    await Deno.mkdir(logs, { recursive: true, mode: 0o700 });
    await Deno.chmod(`${w.root}/.local/state/mcpx`, 0o700);
    await Deno.writeTextFile(`${logs}/index.db`, "this is not a database, just text ".repeat(200));
    const r = await doctor(w);
    assert.equal(r.code, 1);
    const fail = r.of("log-index", "fail")[0];
    assert.match(fail.message, /damaged/);
    assert.match(fail.fix!, /run mcpx log: it moves the index aside and rebuilds it/);
  });

  await t.step("script.runtime names a runtime that is not installed", async () => {
    await using w = await setup({ mcpServers: {} });
    const r = await doctor({
      ...w,
      env: { ...w.env, PATH: `${w.root}/empty`, MCPX_SCRIPT_RUNTIME: "bun" },
    });
    assert.equal(r.code, 1);
    assert.equal(r.of("runtimes", "fail")[0].subject, "bun");
    // Without script.runtime bun, its absence is a note that names it.
    const note = await doctor({ ...w, env: { ...w.env, PATH: `${w.root}/empty` } });
    assert.match(note.of("runtimes", "info").find((f) => f.subject === "bun")!.message, /^bun /);
  });

  await t.step("a browser server with no browser on PATH (a warning)", async () => {
    await using w = await setup({
      mcpServers: { "chrome-devtools": { command: "ls", args: ["chrome-devtools-mcp"] } },
    });
    await Deno.mkdir(`${w.root}/bin`);
    await Deno.symlink("/bin/ls", `${w.root}/bin/ls`);
    const r = await doctor({ ...w, env: { ...w.env, PATH: `${w.root}/bin` } });
    assert.equal(r.code, 0);
    assert.match(r.of("integrations", "warn")[0].message, /no Chromium/);
  });

  await t.step("a configuration with an unknown key (a warning)", async () => {
    await using w = await setup({ mcpServer: { a: LS } });
    const r = await doctor(w);
    assert.equal(r.code, 0);
    assert.match(r.of("config", "warn")[0].message, /mcpServer: unknown top-level key/);
  });
});

Deno.test("npxPackage() finds the package npx runs", () => {
  const cases: [string[], string | undefined][] = [
    [["-y", "@modelcontextprotocol/server-everything"], "@modelcontextprotocol/server-everything"],
    [["--yes", "pkg@1.2.3", "--port", "1"], "pkg@1.2.3"],
    [["-p", "@s/pkg", "bin-name"], "@s/pkg"],
    [["--package=@s/pkg@2", "bin"], "@s/pkg@2"],
    [["-y"], undefined],
  ];
  for (const [args, expected] of cases) assert.equal(npxPackage(args), expected, args.join(" "));
});

Deno.test("render() puts each fix under its finding, a subject the message lacks first, a count last", () => {
  const text = render([
    { check: "runtimes", status: "ok", subject: "/usr/bin/deno", message: "deno 2" },
    {
      check: "server-commands",
      status: "fail",
      subject: "gone",
      message: 'mcpServers.gone.command is "x", which is not on PATH',
      fix: "install x",
    },
  ]);
  assert.match(text, /^runtimes.*:\n {2}ok {4}\/usr\/bin\/deno: deno 2\n/);
  // A message that names its subject is not prefixed with it again.
  assert.match(text, /\n {2}FAIL {2}mcpServers\.gone\.command .*\n {8}fix: install x\n/);
  assert.match(text, /\n1 problem\(s\) to fix\.\n$/);
});

Deno.test("doctor handle() answers failed with { ok: false, checks, findings }; text() is render()", async () => {
  await using w = await setup(`{ "mcpServers": `);
  const io = memoryIo();
  const ctx = new CliContext({ io, env: w.env, cwd: `${w.root}/proj`, flags: {} });
  const outcome = await doctorCommand.handle(ctx, {});
  assert.equal(outcome.kind, "failed");
  assert.equal(outcome.value.ok, false);
  assert.deepEqual(outcome.value.checks.map((c) => c.id), DOCTOR_CHECKS.map((c) => c.id));
  assert.equal(doctorCommand.text(outcome.value), render(outcome.value.findings as never));
  assert.equal(io.stdout + io.stderr, "", "the handler printed");
  assert.equal(await runHandler(ctx, doctorCommand, {}, false), 1);
  assert.match(io.stdout, /problem\(s\) to fix/);
});
