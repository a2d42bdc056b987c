import { deepStrictEqual as deepEqual, match, ok, rejects, throws } from "node:assert/strict";
import { join } from "node:path";
import { searchTools } from "../discovery/search.ts";
import { toolEntry } from "../discovery/_fixtures.ts";
import type { LogRecord } from "../logs/record.ts";
import {
  callTool,
  configureClient,
  describe,
  emit,
  launcher,
  log,
  McpxCallError,
  reloadRuntimeEnv,
  runtimeIo,
  search,
  ToolError,
  unwrapResult,
} from "./script_runtime.ts";

/** What a promise rejected with (the test fails if it resolves). */
async function rejection(promise: Promise<unknown>): Promise<any> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error("expected a rejection");
}

const ENV_NAMES = [
  "MCPX_SOCKET",
  "MCPX_SESSION",
  "MCPX_PARENT_SESSION_ID",
  "MCPX_CWD",
  "MCPX_PID",
  "MCPX_RUN",
  "MCPX_LOG_LEVEL",
  "MCPX_LOG_SOURCE",
  "MCPX_OUTPUT",
  "GIT_DIR",
  "GIT_WORK_TREE",
];

/** Runs `fn` with these variables (others of ENV_NAMES unset), then restores them. */
async function withEnv<T>(vars: Record<string, string>, fn: () => T | Promise<T>): Promise<T> {
  const saved = Object.fromEntries(ENV_NAMES.map((n) => [n, Deno.env.get(n)]));
  for (const n of ENV_NAMES) Deno.env.delete(n);
  for (const [k, v] of Object.entries(vars)) Deno.env.set(k, v);
  reloadRuntimeEnv();
  try {
    return await fn();
  } finally {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) Deno.env.delete(k);
      else Deno.env.set(k, v);
    }
    reloadRuntimeEnv();
  }
}

/** What `fn` wrote: stdout text, the records on stderr, other stderr text. */
async function captured(
  fn: () => unknown,
): Promise<{ out: string; records: LogRecord[]; stderr: string }> {
  const { out: realOut, err: realErr } = runtimeIo;
  let out = "";
  let err = "";
  runtimeIo.out = (t) => void (out += t);
  runtimeIo.err = (t) => void (err += t);
  try {
    await fn();
  } finally {
    runtimeIo.out = realOut;
    runtimeIo.err = realErr;
  }
  const records: LogRecord[] = [];
  let stderr = "";
  for (const line of err.split(/(?<=\n)/)) {
    if (line.startsWith("\u001e")) records.push(JSON.parse(line.slice(1)));
    else stderr += line;
  }
  return { out, records, stderr };
}

const text = (t: string) => ({ content: [{ type: "text", text: t }] });

Deno.test("log fills templates, keeps the template, and collects args and errors", async () => {
  await withEnv({ MCPX_RUN: "run-0123456789ab" }, async () => {
    const failure = new Error("upload failed");
    const { records } = await captured(() => {
      log.info("fetched {count} pages in {ms}ms, {missing} {{literal}}", { count: 3, ms: 412 });
      log.error("upload failed", failure);
      log.debug("state", { id: 7 }, "extra", 42); // below the default threshold
      log("plain {x}", { x: [1] }, "more");
    });
    deepEqual(records.length, 3);
    const [first, second, third] = records;
    deepEqual(first.msg, "fetched 3 pages in 412ms, {missing} {literal}");
    deepEqual(first.template, "fetched {count} pages in {ms}ms, {missing} {{literal}}");
    deepEqual(first.attrs, { count: 3, ms: 412 });
    deepEqual([first.level, first.event, first.span], ["info", "log", "run-0123456789ab"]);
    match(first.id, /^[0-9a-f]{20}$/);
    ok(first.id < second.id && second.id.slice(0, 12) === first.id.slice(0, 12));
    deepEqual(Object.keys(first), [
      "time",
      "level",
      "event",
      "msg",
      "template",
      "id",
      "span",
      "attrs",
    ]);
    const [error] = second.attrs.args as Record<string, unknown>[];
    deepEqual([error.name, error.message], ["Error", "upload failed"]);
    match(error.stack as string, /^Error: upload failed\n\s+at /);
    ok((error.frames as { file: string }[])[0].file.endsWith("script_runtime_test.ts"));
    deepEqual([third.msg, third.attrs.x, third.attrs.args], ["plain [1]", [1], ["more"]]);
  });
});

Deno.test("log below the threshold returns before touching its arguments", async () => {
  await withEnv({ MCPX_LOG_LEVEL: "warn" }, async () => {
    const trap = {
      get boom(): never {
        throw new Error("attributes were read");
      },
    };
    const { records } = await captured(() => {
      log.info("hidden", trap);
      log.debug("hidden", trap);
      log("hidden", trap);
      log.warn("shown");
    });
    deepEqual(records.map((r) => r.msg), ["shown"]);
  });
});

Deno.test("log records call sites from MCPX_LOG_SOURCE's level (default warn)", async () => {
  const sourced = async (vars: Record<string, string>) =>
    await withEnv(vars, async () => {
      const { records } = await captured(() => {
        log.info("i");
        log.warn("w");
      });
      return records.map((r) => r.attrs.source as { file: string; line: number } | undefined);
    });
  const [info, warn] = await sourced({});
  deepEqual(info, undefined);
  ok(warn!.file.endsWith("client/script_runtime_test.ts"), warn!.file);
  deepEqual(typeof warn!.line, "number");
  deepEqual((await sourced({ MCPX_LOG_SOURCE: "true" })).filter(Boolean).length, 2);
  deepEqual((await sourced({ MCPX_LOG_SOURCE: "false" })).filter(Boolean).length, 0);
  deepEqual((await sourced({ MCPX_LOG_SOURCE: "error" })).filter(Boolean).length, 0);
});

Deno.test("log.with() binds attributes to every record of the returned logger", async () => {
  const { records } = await captured(() => {
    const scoped = log.with({ phase: "scan", run: 1 });
    scoped.info("{phase} started", { file: "a.ts" });
    scoped.with({ run: 2 })("again");
    log.info("unbound");
  });
  deepEqual(records.map((r) => [r.msg, r.attrs]), [
    ["scan started", { phase: "scan", run: 1, file: "a.ts" }],
    ["again", { phase: "scan", run: 2 }],
    ["unbound", {}],
  ]);
});

Deno.test("emit() writes a JSON line, or a run.emit record under --json", async () => {
  const plain = await captured(() => {
    emit({ file: "a", n: 1n });
    emit("text");
  });
  deepEqual(plain.out, '{"file":"a","n":"1"}\n"text"\n');
  deepEqual(plain.records, []);
  await withEnv({ MCPX_OUTPUT: "json" }, async () => {
    const json = await captured(() => emit({ file: "a" }));
    deepEqual(json.out, "");
    deepEqual(json.records.map((r) => [r.event, r.attrs.value]), [["run.emit", { file: "a" }]]);
  });
});

Deno.test("launcher.runEntry() calls the named export, the default, or nothing", async () => {
  const script = { path: "/s/x.ts", name: "x", args: ["a", "b"] };
  const mod = {
    default: (args: string[]) => ({ args }),
    pair: (a: string, b: string) => `${a}+${b}`,
    value: 1,
  };
  deepEqual(await launcher.runEntry(mod, script), { args: ["a", "b"] });
  deepEqual(await launcher.runEntry(mod, { ...script, export: "pair" }), "a+b");
  await rejects(
    () => launcher.runEntry(mod, { ...script, export: "missing" }),
    /has no exported function "missing"; it exports: default, pair/,
  );
  deepEqual(await launcher.runEntry({ value: 1 }, script), undefined);
  deepEqual(await launcher.runEntry({ default: async () => await 5 }, script), 5);
});

Deno.test("launcher.printResult() prints text as text and the rest as JSON", async () => {
  const cases: [unknown, string][] = [
    [undefined, ""],
    ["line", "line\n"],
    ["line\n", "line\n"],
    [unwrapResult(text("boxed")), "boxed\n"],
    [{ a: [1] }, '{\n  "a": [\n    1\n  ]\n}\n'],
    [null, "null\n"],
    [0, "0\n"],
  ];
  for (const [value, want] of cases) {
    deepEqual((await captured(() => launcher.printResult(value))).out, want, String(value));
  }
  await withEnv({ MCPX_OUTPUT: "json" }, async () => {
    const { out, records } = await captured(() => launcher.printResult({ count: 2 }));
    deepEqual(out, "");
    deepEqual(records.map((r) => [r.event, r.attrs.value]), [["run.result", { count: 2 }]]);
  });
});

Deno.test("launcher.reportError() writes run.error and sets the exit code", async () => {
  const error = new ToolError("srv", "ns", "tool", { isError: true }, "it broke");
  try {
    const { records } = await captured(() => launcher.reportError(error));
    deepEqual(Deno.exitCode, 1);
    const [record] = records;
    deepEqual([record.level, record.event, record.msg], [
      "error",
      "run.error",
      "ToolError: it broke",
    ]);
    const data = record.attrs.error as Record<string, unknown>;
    deepEqual([data.name, data.message, data.server, data.namespace, data.tool], [
      "ToolError",
      "it broke",
      "srv",
      "ns",
      "tool",
    ]);
    ok(Array.isArray(data.frames) && data.frames.length > 0);
    match(data.stack as string, /^ToolError: it broke\n/);
  } finally {
    Deno.exitCode = 0;
  }
});

const ENTRIES = [
  toolEntry("fff", "grep", "search file contents", {
    inputSchema: { type: "object", required: ["query"] },
  }),
  toolEntry("fff", "find_files", "find files by name; grep-like globbing"),
  toolEntry("chrome_devtools", "take_screenshot", "take a screenshot", {
    tool: "take-screenshot",
    server: "chrome-devtools",
  }),
  toolEntry("memory", "search_nodes", "search the graph"),
];

Deno.test("search() ranks as searchTools() does and names the function and the tool", () => {
  configureClient({ version: "0.0.0-test", tools: ENTRIES, declarations: {} });
  for (const query of ["grep", "search", "screenshot take", "files nothing", ""]) {
    const want = searchTools(ENTRIES, query).hits.map((
      h,
    ) => [h.entry.namespace, h.entry.fn, h.score]);
    deepEqual(search(query).map((h) => [h.namespace, h.tool, h.score]), want, query);
  }
  const [grep] = search("grep");
  deepEqual(grep, {
    namespace: "fff",
    tool: "grep",
    name: "grep",
    description: "search file contents",
    required: ["query"],
    score: 100,
  });
  deepEqual(search("screenshot")[0].name, "take-screenshot");
  deepEqual(search("", { limit: 1 }).length, 1);
});

Deno.test("describe() finds a declaration by function, real name or namespace", () => {
  configureClient({
    version: "0.0.0-test",
    tools: ENTRIES,
    declarations: {
      "fff.grep": "function grep(args: { query: string }): Promise<unknown>;",
      "fff.find_files": "function find_files(args: {}): Promise<unknown>;",
      "chrome_devtools.take_screenshot": "function take_screenshot(): Promise<unknown>;",
    },
  });
  match(describe("fff.grep"), /function grep/);
  match(describe("chrome_devtools.take-screenshot"), /function take_screenshot/);
  match(describe("fff"), /function grep[^]*function find_files|function find_files[^]*grep/);
  throws(() => describe("fff.grpe"), /no tool "fff.grpe".*; did you mean fff\.grep\?/);
});

// ---------------------------------------------------------------------------
// Transport against a fake daemon

interface Seen {
  url: string;
  headers: Headers;
  body: Record<string, unknown>;
}

async function fakeDaemon(
  answer: (body: Record<string, unknown>, signal: AbortSignal) => Response | Promise<Response>,
) {
  const dir = await Deno.makeTempDir({ prefix: "mcpx-rt-" });
  const path = join(dir, "d.sock");
  const seen: Seen[] = [];
  const server = Deno.serve({ transport: "unix", path, onListen() {} }, async (request) => {
    const body = await request.json();
    seen.push({ url: new URL(request.url).pathname, headers: request.headers, body });
    return await answer(body, request.signal);
  });
  return {
    path,
    seen,
    async [Symbol.asyncDispose]() {
      await server.shutdown();
      await Deno.remove(dir, { recursive: true });
    },
  };
}

Deno.test("callTool() sends one POST /v1/call with the caller's context and unwraps", async () => {
  await using daemon = await fakeDaemon(() =>
    Response.json({ ok: true, result: { content: [{ type: "text", text: '{"sum":3}' }] } })
  );
  configureClient({ version: "9.9.9-test", tools: [], declarations: {} });
  const vars = {
    MCPX_SOCKET: daemon.path,
    MCPX_SESSION: "sess-1",
    MCPX_PARENT_SESSION_ID: "parent-1",
    MCPX_CWD: "/work/here",
    MCPX_PID: "4242",
    GIT_DIR: "/repo/.git",
  };
  const result = await withEnv(
    vars,
    () => callTool("every-thing", "everything", "add", { a: 1, b: 2 }, { timeoutMs: 5000 }),
  );
  deepEqual(result, { sum: 3 });
  deepEqual(daemon.seen.length, 1);
  const [{ url, headers, body }] = daemon.seen;
  deepEqual(url, "/v1/call");
  deepEqual(headers.get("x-mcpx-version"), "9.9.9-test");
  // Under Deno the wire keeps the connection for the script's next call (decision 0077).
  deepEqual(headers.get("connection"), null);
  deepEqual(body, {
    target: "everything.add",
    arguments: { a: 1, b: 2 },
    timeout: 5000,
    session: "sess-1",
    parentSession: "parent-1",
    cwd: "/work/here",
    pid: 4242,
    gitDir: "/repo/.git",
  });
});

Deno.test("callTool() reads a chunked body and throws ToolError for isError", async () => {
  await using daemon = await fakeDaemon((body) => {
    const envelope = body.target === "ns.fail"
      ? { isError: true, content: [{ type: "text", text: "bad input ✗" }] }
      : { content: [{ type: "text", text: "héllo ".repeat(20000) }] };
    const bytes = new TextEncoder().encode(JSON.stringify({ ok: true, result: envelope }));
    // A stream answers with transfer-encoding: chunked; cut inside a character.
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < bytes.length; i += 4099) controller.enqueue(bytes.slice(i, i + 4099));
        controller.close();
      },
    });
    return new Response(stream, { headers: { "content-type": "application/json" } });
  });
  await withEnv({ MCPX_SOCKET: daemon.path }, async () => {
    const long = await callTool("s", "ns", "echo", {});
    deepEqual(String(long), "héllo ".repeat(20000));
    const error = await rejection(callTool("s", "ns", "fail", {}));
    ok(error instanceof ToolError);
    deepEqual([error.message, error.server, error.namespace, error.tool], [
      "bad input ✗",
      "s",
      "ns",
      "fail",
    ]);
  });
});

Deno.test("callTool() turns a daemon error into McpxCallError with its code", async () => {
  await using daemon = await fakeDaemon(() =>
    Response.json({ ok: false, error: { code: "not-found", message: "no tool ns.nope" } })
  );
  await withEnv({ MCPX_SOCKET: daemon.path }, async () => {
    const error = await rejection(callTool("s", "ns", "nope", {}));
    ok(error instanceof McpxCallError);
    deepEqual([error.code, error.message], ["not-found", "no tool ns.nope"]);
  });
});

Deno.test("callTool() aborts: the connection closes and the signal's reason rejects", async () => {
  const released = Promise.withResolvers<void>();
  let closedByClient = false;
  await using daemon = await fakeDaemon(async (_body, signal) => {
    signal.addEventListener("abort", () => (closedByClient = true));
    await released.promise;
    return Response.json({ ok: true, result: text("late") });
  });
  try {
    await withEnv({ MCPX_SOCKET: daemon.path }, async () => {
      const controller = new AbortController();
      const pending = callTool("s", "ns", "slow", {}, { signal: controller.signal });
      while (daemon.seen.length === 0) await new Promise((r) => setTimeout(r, 5));
      const reason = new Error("stop now");
      controller.abort(reason);
      deepEqual(await rejection(pending), reason);
      const deadline = Date.now() + 5000;
      while (!closedByClient && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
      ok(closedByClient, "the daemon saw the connection close");
      const already = await rejection(
        callTool("s", "ns", "slow", {}, { signal: controller.signal }),
      );
      deepEqual(already, reason);
    });
  } finally {
    released.resolve();
  }
});

Deno.test("callTool() says to use mcpx run without MCPX_SOCKET, and names a dead socket", async () => {
  await withEnv({}, async () => {
    const error = await rejection(callTool("s", "ns", "t", {}));
    deepEqual(error.code, "no-socket");
    match(error.message, /MCPX_SOCKET is not set.*mcpx run/);
  });
  await withEnv({ MCPX_SOCKET: "/nonexistent/mcpx.sock" }, async () => {
    const error = await rejection(callTool("s", "ns", "t", {}));
    deepEqual(error.code, "daemon-unavailable");
    match(error.message, /\/nonexistent\/mcpx\.sock/);
  });
});

// ---------------------------------------------------------------------------
// Console capture, compared with the real console in a subprocess

const CONSOLE_CALLS = `
console.info("%s scored %d points (%i, %f)", "ann", 4.5, 7.9, 1.25);
console.error("%o and %O", { a: [1, { b: "x" }] }, new Map([[1, "one"]]));
console.warn("%j %c styled 100%% done %s", 1, "color: red", "x");
console.info({ a: 1, s: "x", nested: { deep: { deeper: { deepest: 1 } } } });
console.debug("multi", [1, 2], null, undefined, 3n, Symbol("s"));
console.error("no specifiers", "two", { k: ["v"] });
console.warn("%s", { toString() { return "custom"; } }, "%d", 5);
console.info("tail %s");
console.info(new Set([1, 2]), class Foo {}, function bar() {});
console.group("outer");
console.warn("inside\\nmultiline");
console.group();
console.error("deeper");
console.groupEnd();
console.groupEnd();
console.info("after");
console.assert(1 === 1, "not shown");
console.assert(false, "assertion %s", "shown");
console.error(Object.assign(new Error("with props"), { code: "E1" }).message);
`;

Deno.test("console capture: record messages equal what the real console prints", async () => {
  const dir = await Deno.makeTempDir({ prefix: "mcpx-console-" });
  try {
    const runtime = new URL("./script_runtime.ts", import.meta.url).href;
    await Deno.writeTextFile(join(dir, "plain.ts"), CONSOLE_CALLS);
    await Deno.writeTextFile(
      join(dir, "captured.ts"),
      `import { launcher } from ${JSON.stringify(runtime)};\n` +
        `launcher.captureConsole();\n` +
        `if (console.info.name !== "info" || console.log.name !== "log") throw new Error("names");\n` +
        `Deno.env.set("MCPX_LOG_LEVEL", "debug");\n${CONSOLE_CALLS}`,
    );
    const run = async (file: string, merge: boolean) => {
      const cmd = merge
        ? new Deno.Command("sh", {
          args: ["-c", `"${Deno.execPath()}" run -A --no-check "$0" 2>&1`, file],
          env: { NO_COLOR: "1", MCPX_LOG_LEVEL: "debug" },
          stdout: "piped",
          stderr: "piped",
        })
        : new Deno.Command(Deno.execPath(), {
          args: ["run", "-A", "--no-check", file],
          env: { NO_COLOR: "1", MCPX_LOG_LEVEL: "debug" },
          stdout: "piped",
          stderr: "piped",
        });
      const out = await cmd.output();
      return {
        code: out.code,
        stdout: new TextDecoder().decode(out.stdout),
        stderr: new TextDecoder().decode(out.stderr),
      };
    };
    const plain = await run(join(dir, "plain.ts"), true);
    const capturedRun = await run(join(dir, "captured.ts"), false);
    deepEqual(capturedRun.code, 0, capturedRun.stderr);
    deepEqual(capturedRun.stdout, "outer\n", "only the group's label reached stdout");
    const records = capturedRun.stderr.split("\n").filter((l) => l.startsWith("\u001e"))
      .map((l) => JSON.parse(l.slice(1)) as LogRecord);
    deepEqual(
      capturedRun.stderr.split("\n").filter((l) => l && !l.startsWith("\u001e")),
      [],
      "nothing but records on stderr",
    );
    deepEqual(records.map((r) => r.msg + "\n").join(""), plain.stdout);
    deepEqual(records.map((r) => r.level), [
      "info",
      "error",
      "warn",
      "info",
      "debug",
      "error",
      "warn",
      "info",
      "info",
      "info",
      "warn",
      "error",
      "info",
      "error",
      "error",
    ]);
    deepEqual(records.filter((r) => r.attrs.fileOnly).map((r) => r.msg), ["outer"]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("console capture: log stays on stdout and is also recorded file-only", async () => {
  const dir = await Deno.makeTempDir({ prefix: "mcpx-console-" });
  try {
    const runtime = new URL("./script_runtime.ts", import.meta.url).href;
    const calls = `console.log("%s=%d", "n", 1, { a: 1 });
console.group("g");
console.log("in");
console.groupEnd();
console.count(); console.count("x"); console.count();
console.table([{ a: 1 }]);
console.dir({ a: { b: { c: { d: 1 } } } }, { depth: 0 });
console.timeStamp("mark");
console.trace("where %s", "here");
Deno.stdout.writeSync(new TextEncoder().encode("raw bytes\\n"));
`;
    await Deno.writeTextFile(
      join(dir, "captured.ts"),
      `import { launcher } from ${JSON.stringify(runtime)};\nlauncher.captureConsole();\n${calls}`,
    );
    await Deno.writeTextFile(join(dir, "plain.ts"), calls);
    const run = async (file: string) => {
      const out = await new Deno.Command(Deno.execPath(), {
        args: ["run", "-A", "--no-check", file],
        env: { NO_COLOR: "1" },
        stdout: "piped",
        stderr: "piped",
      }).output();
      return {
        stdout: new TextDecoder().decode(out.stdout),
        stderr: new TextDecoder().decode(out.stderr),
      };
    };
    const plain = await run(join(dir, "plain.ts"));
    const got = await run(join(dir, "captured.ts"));
    deepEqual(got.stdout, plain.stdout, "stdout is untouched");
    const records = got.stderr.split("\n").filter((l) => l.startsWith("\u001e"))
      .map((l) => JSON.parse(l.slice(1)) as LogRecord);
    const fileOnly = records.filter((r) => r.attrs.fileOnly);
    deepEqual(
      fileOnly.filter((r) => !r.msg.startsWith("console.")).map((r) => r.msg + "\n").join(""),
      plain.stdout.replace("raw bytes\n", ""),
    );
    ok(fileOnly.some((r) => r.msg === "console.timeStamp mark"));
    const trace = records.find((r) => r.msg.startsWith("Trace: where here"))!;
    deepEqual(trace.attrs.fileOnly, undefined);
    const [frame] = trace.attrs.frames as { file: string; line: number }[];
    ok(frame.file.endsWith("captured.ts"));
    deepEqual(frame.line, 11);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
