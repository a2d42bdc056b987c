import { deepEqual, equal, match, ok, throws } from "node:assert/strict";
import { pathToFileURL } from "node:url";
import { UsageError } from "../core/errors.ts";
import {
  buildLauncher,
  BUILTIN_PLACEHOLDERS,
  DEFAULT_TEMPLATE,
  jsString,
  type LauncherOptions,
  tryBuildLauncher,
} from "./default_template.ts";
import { parsePlaceholderFile } from "./placeholder_file.ts";
import { type TmpDir, withTmpDir } from "./_tmp_dir.ts";

/** The client's launcher API, stubbed: prints what it is asked to do. */
const STUB_CLIENT = `
export const launcher = {
  awaiting(promise) { return promise; },
  installGlobals(tools) { globalThis.tools = tools; },
  captureConsole() { console.error("capture on"); },
  async runEntry(mod, script) {
    if (script.export !== undefined) {
      const fn = mod[script.export];
      if (typeof fn !== "function") throw new Error("no export " + script.export);
      return await fn(...script.args);
    }
    return typeof mod.default === "function" ? await mod.default([...script.args]) : undefined;
  },
  printResult(value) { if (value !== undefined) console.log(JSON.stringify(value)); },
  reportError(error) {
    console.error("error: " + (error instanceof Error ? error.message : String(error)));
    if (globalThis.Deno) Deno.exitCode = 1; else process.exitCode = 1;
  },
};
export default { greet: { hello: () => "hi" } };
`;

const SCRIPT = `
export default function main(args) { console.log("main " + args.join("|")); return { args }; }
export function add(a, b) { return Number(a) + Number(b); }
export function fail() { throw new Error("boom"); }
`;

interface Run {
  code: number;
  stdout: string[];
  stderr: string[];
}

async function setUp(tmp: TmpDir) {
  const client = await tmp.write("mcpx-client.ts", STUB_CLIENT);
  const script = await tmp.write("job.ts", SCRIPT);
  return (overrides: Partial<LauncherOptions> & { args?: string[]; export?: string } = {}) => ({
    clientUrl: pathToFileURL(client).href,
    scriptUrl: pathToFileURL(script).href,
    script: { path: script, name: "job", args: overrides.args ?? [], export: overrides.export },
    captureConsole: true,
    ...overrides,
  });
}

async function runLauncher(tmp: TmpDir, program: string): Promise<Run> {
  const file = await tmp.write(`launcher-${crypto.randomUUID()}.ts`, program);
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), 30_000);
  try {
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", "--no-check", "--no-config", file],
      cwd: tmp.path,
      stdout: "piped",
      stderr: "piped",
      signal: controller.signal,
    }).output();
    const lines = (b: Uint8Array) =>
      new TextDecoder().decode(b).split("\n").filter((l) => l !== "");
    return { code: out.code, stdout: lines(out.stdout), stderr: lines(out.stderr) };
  } finally {
    clearTimeout(timer);
  }
}

Deno.test("buildLauncher() runs a default export with argv and prints its result", async () => {
  await using tmp = await withTmpDir();
  const options = await setUp(tmp);
  const run = await runLauncher(tmp, buildLauncher(options({ args: ["a", 'b @entry "q"'] })));
  deepEqual(run, {
    code: 0,
    stdout: ['main a|b @entry "q"', '{"args":["a","b @entry \\"q\\""]}'],
    stderr: ["capture on"],
  });
});

Deno.test("buildLauncher() calls a named export with the arguments spread", async () => {
  await using tmp = await withTmpDir();
  const options = await setUp(tmp);
  const run = await runLauncher(
    tmp,
    buildLauncher(options({ args: ["2", "3"], export: "add", captureConsole: false })),
  );
  deepEqual(run, { code: 0, stdout: ["5"], stderr: [] });
});

Deno.test("buildLauncher() reports a throwing entry and exits 1, running the suffix after it", async () => {
  await using tmp = await withTmpDir();
  const options = await setUp(tmp);
  const run = await runLauncher(
    tmp,
    buildLauncher(options({
      export: "fail",
      captureConsole: false,
      onError: ['console.log("onError " + error.message);'],
      suffix: ['console.log("suffix ok=" + result.ok + " error=" + result.error.message);'],
    })),
  );
  deepEqual(run, {
    code: 1,
    stdout: ["onError boom", "suffix ok=false error=boom"],
    stderr: ["error: boom"],
  });
});

Deno.test("buildLauncher() runs user code in order: before, prefix, script, onSuccess, result, suffix", async () => {
  await using tmp = await withTmpDir();
  const options = await setUp(tmp);
  const run = await runLauncher(
    tmp,
    buildLauncher(options({
      args: ["x"],
      captureConsole: false,
      before: ['console.log("before " + typeof tools.greet.hello);'],
      prefix: [
        'console.log("prefix 1 " + script.name);',
        'console.log("prefix 2 " + script.args);',
      ],
      onSuccess: ['console.log("onSuccess " + JSON.stringify(result.value));'],
      suffix: [
        'console.log("suffix 1 ok=" + result.ok + " ms=" + (result.ms >= 0));',
        'console.log("suffix 2");',
      ],
    })),
  );
  deepEqual(run.stdout, [
    "before function",
    "prefix 1 job",
    "prefix 2 x",
    "main x",
    'onSuccess {"args":["x"]}',
    '{"args":["x"]}',
    "suffix 1 ok=true ms=true",
    "suffix 2",
  ]);
  equal(run.code, 0);
});

Deno.test("buildLauncher() runs a permitted repeat of the entry twice and a user placeholder with arguments", async () => {
  await using tmp = await withTmpDir();
  const options = await setUp(tmp);
  const timed = parsePlaceholderFile(
    "/p/timed.ts",
    '// @mcpx:placeholder timed(body, label)\nconsole.log("start " + @label);\n@body\nconsole.log("end " + @label);\n',
  );
  const template = DEFAULT_TEMPLATE.replace("  @entry\n", '  @timed(entry, "run")\n  @entry\n');
  const run = await runLauncher(
    tmp,
    buildLauncher(options({
      args: ["x"],
      captureConsole: false,
      template,
      placeholders: { timed: timed.fill },
      repeatable: ["entry"],
    })),
  );
  deepEqual(run.stdout, ["start run", "main x", "end run", "main x", '{"args":["x"]}']);
});

Deno.test("buildLauncher() refuses a cycle and a misspelt placeholder at once, and a repeat", async () => {
  await using tmp = await withTmpDir();
  const options = await setUp(tmp);
  const template = DEFAULT_TEMPLATE.replace("  @entry\n", "  @entyr\n  @entry\n  @entry\n");
  throws(
    () =>
      buildLauncher(options({
        template,
        prefix: ["@loop"],
        placeholders: { loop: { body: "@again" }, again: { body: "@loop" } },
      })),
    (error: unknown) => {
      ok(error instanceof UsageError);
      match(error.message, /^the launcher cannot be built: 2 problems:/);
      match(
        error.message,
        /@entyr in the template, line \d+ is not a placeholder; did you mean @entry\?/,
      );
      match(error.message, /@loop → @again → @loop \(reached through @prefix\); remove one/);
      return true;
    },
  );
  const repeat = tryBuildLauncher(options({ template }));
  deepEqual(repeat.problems.map((p) => p.replace(/ in the template.*/, "")), [
    "@entyr",
    "@entry is expanded 2 times; a placeholder is expanded once unless it is listed in plumbing.launcherPlaceholderRepeat, so list it there or remove the extra use",
  ]);
});

Deno.test("buildLauncher() refuses a user placeholder named like a built-in", async () => {
  await using tmp = await withTmpDir();
  const options = await setUp(tmp);
  deepEqual(tryBuildLauncher(options({ placeholders: { entry: { body: "" } } })).problems, [
    "placeholder @entry is built in and cannot be redeclared; choose another name",
  ]);
});

Deno.test("DEFAULT_TEMPLATE uses every built-in placeholder once", () => {
  for (const name of BUILTIN_PLACEHOLDERS) {
    equal(DEFAULT_TEMPLATE.split(`@${name}\n`).length, 2, name);
  }
});

Deno.test("jsString() embeds any string as a literal that no placeholder can match", () => {
  for (const value of ["plain", "@entry", 'q"uote\\', "line\nbreak\u2028\u2029", "é😀"]) {
    const literal = jsString(value);
    ok(!literal.includes("@"), literal);
    equal(JSON.parse(literal), value);
  }
});

Deno.test({
  name: "buildLauncher() emits plain JavaScript: node parses it as a module",
  ignore: !(await Deno.stat("/usr/bin/node").then(() => true, () => false)),
  async fn() {
    await using tmp = await withTmpDir();
    const options = await setUp(tmp);
    const file = await tmp.write(
      "launcher.mjs",
      buildLauncher(options({ args: ["a"], export: "add", prefix: ["globalThis.x = 1;"] })),
    );
    const out = await new Deno.Command("/usr/bin/node", { args: ["--check", file] }).output();
    equal(out.code, 0, new TextDecoder().decode(out.stderr));
  },
});
