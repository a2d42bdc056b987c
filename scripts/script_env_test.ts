import { deepStrictEqual, equal, ok } from "node:assert/strict";
import { fileURLToPath } from "node:url";
import {
  renderScriptEnvMarkdown,
  SCRIPT_ENV,
  scriptEnv,
  scriptEnvDocument,
  type ScriptFacts,
} from "./script_env.ts";
import { envReads } from "./_env_reads.ts";
import { execHookEnv, observeHookEnv } from "../engine/hook_env.ts";
import { settingEnvName, SETTINGS } from "../config/settings.ts";

const ROOT = fileURLToPath(new URL("../", import.meta.url));

/** Folders whose reads of `MCPX_…` must be declared (tests excluded). */
/** Every folder of mcpx's own source (decision 0021's layers); a missing one fails the scan. */
const SCANNED = [
  "core",
  "wire",
  "config",
  "discovery",
  "logs",
  "engine",
  "client",
  "launcher",
  "scripts",
  "runner",
  "ops",
  "daemon",
  "cli",
];

/**
 * Variables read by name that are neither a setting nor in the script
 * environment table, each with the reason. An entry nothing reads fails.
 */
const ALLOWED_READS: Record<string, string> = {
  MCPX_CONFIG:
    "which configuration file to load: read before there is a configuration to resolve settings from",
};

const FACTS: ScriptFacts = {
  session: "s-1",
  sessionId: "host-7",
  parentSessionId: "parent-3",
  ephemeral: false,
  run: "run-9",
  socket: "/state/mcpx/d.sock",
  cwd: "/work",
  pid: 4242,
  entry: "/cache/launchers/ab.ts",
  client: "/work/.mcpx/scripts/mcpx-client.ts",
  configPath: "/work/.mcp.json",
  scriptDirs: ["/work/.mcpx/scripts", "/home/u/.config/mcpx/scripts"],
  runtime: "bun",
  logLevel: "debug",
  logSource: "warn",
  outputJson: true,
};

function sourceFiles(dir: string): string[] {
  const files: string[] = [];
  const entries = [...Deno.readDirSync(`${ROOT}${dir}`)];
  for (const entry of entries) {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory) files.push(...sourceFiles(path));
    else if (/\.(ts|mts|js|mjs)$/.test(entry.name) && !/_test\.[mc]?[jt]s$/.test(entry.name)) {
      files.push(path);
    }
  }
  return files.sort();
}

/** Every read of an `MCPX_…` name under the scanned folders, as name → ["file:line", …]. */
function readsByName(dirs = SCANNED): Map<string, string[]> {
  const found = new Map<string, string[]>();
  for (const file of dirs.flatMap((d) => sourceFiles(d))) {
    for (const read of envReads(file, Deno.readTextFileSync(`${ROOT}${file}`))) {
      found.set(read.name, [...(found.get(read.name) ?? []), `${file}:${read.line}`]);
    }
  }
  return found;
}

const SETTING_NAMES = new Set(
  SETTINGS.flatMap((s) => [settingEnvName(s.name), ...(s.envAliases ?? [])]),
);

Deno.test("SCRIPT_ENV names each variable once, every name MCPX_ in upper snake case", () => {
  const names = SCRIPT_ENV.map((v) => v.name);
  deepStrictEqual(names.filter((n, i) => names.indexOf(n) !== i), []);
  deepStrictEqual(names.filter((n) => !/^MCPX_[A-Z0-9_]+$/.test(n)), []);
  for (const v of SCRIPT_ENV) {
    ok(v.setBy.length > 0 && v.readBy.length > 0, `${v.name}: setBy and readBy must be filled`);
    ok(v.when && v.meaning, `${v.name}: when and meaning must be filled`);
  }
});

Deno.test("scriptEnv() sets exactly the variables the table says the runner sets", () => {
  const fromTable = SCRIPT_ENV.filter((v) => v.setBy.includes("runner")).map((v) => v.name).sort();
  deepStrictEqual(Object.keys(scriptEnv(FACTS)).sort(), fromTable);
});

Deno.test("the hook setters set exactly the variables the table says they set", () => {
  const rows = (setter: string) =>
    SCRIPT_ENV.filter((v) => (v.setBy as readonly string[]).includes(setter)).map((v) => v.name)
      .sort();
  const event = { id: "e-1", seq: 1, kind: "server.crashed" as const, at: 0, data: {} };
  deepStrictEqual(Object.keys(observeHookEnv("h", event)).sort(), rows("hook-runner"));
  for (const phase of ["pre", "onSuccess", "onError", "post"] as const) {
    deepStrictEqual(Object.keys(execHookEnv(phase, "boom")).sort(), rows("exec-hooks"));
  }
});

Deno.test("MCPX_HOOK_ variables are set only by engine/hook_env.ts", () => {
  const setters = SCANNED.flatMap((d) => sourceFiles(d)).filter((file) =>
    /\bMCPX_HOOK_[A-Z_]+\s*:/.test(Deno.readTextFileSync(`${ROOT}${file}`)) &&
    file !== "scripts/script_env.ts" && !file.endsWith(".bundle.js")
  );
  deepStrictEqual(setters, ["engine/hook_env.ts"]);
});

Deno.test("scriptEnv() turns facts into strings, empty where a fact is absent", () => {
  const env = scriptEnv(FACTS);
  equal(env.MCPX_SESSION, "s-1");
  equal(env.MCPX_SESSION_ID, "host-7");
  equal(env.MCPX_PARENT_SESSION_ID, "parent-3");
  equal(env.MCPX_EPHEMERAL, "0");
  equal(env.MCPX_ENDPOINT, "unix:/state/mcpx/d.sock");
  equal(env.MCPX_PID, "4242");
  equal(env.MCPX_SCRIPT_DIRS, "/work/.mcpx/scripts:/home/u/.config/mcpx/scripts");
  equal(env.MCPX_RUNTIME, "bun");
  equal(env.MCPX_OUTPUT, "json");
  const bare = scriptEnv({
    ...FACTS,
    sessionId: undefined,
    parentSessionId: undefined,
    configPath: null,
    ephemeral: true,
    outputJson: false,
    endpoint: "http://127.0.0.1:7777",
  });
  equal(bare.MCPX_SESSION_ID, "");
  equal(bare.MCPX_PARENT_SESSION_ID, "");
  equal(bare.MCPX_CONFIG_PATH, "");
  equal(bare.MCPX_EPHEMERAL, "1");
  equal(bare.MCPX_OUTPUT, "");
  equal(bare.MCPX_ENDPOINT, "http://127.0.0.1:7777");
});

Deno.test("scriptEnv() refuses a script directory containing ':' (the list separator)", () => {
  let message = "";
  try {
    scriptEnv({ ...FACTS, scriptDirs: ["/a:b"] });
  } catch (error) {
    ok(error instanceof TypeError);
    message = error.message;
  }
  ok(message.includes('"/a:b"'), message);
});

Deno.test("docs/script-environment.md is what scriptEnvDocument() generates", async () => {
  const doc = Deno.readTextFileSync(`${ROOT}docs/script-environment.md`);
  equal(
    doc,
    await scriptEnvDocument(),
    "docs/script-environment.md is stale: run " +
      "`deno run -A scripts/script_env.ts --markdown > docs/script-environment.md`",
  );
});

Deno.test("renderScriptEnvMarkdown() has one table row per variable, in table order", () => {
  const rows = renderScriptEnvMarkdown().split("\n").filter((l) => l.startsWith("| `MCPX_"));
  deepStrictEqual(rows.map((r) => r.slice(3, r.indexOf("`", 3))), SCRIPT_ENV.map((v) => v.name));
});

const RUNTIME = `${ROOT}client/script_runtime.ts`;
const runtimeExists = (() => {
  try {
    return Deno.statSync(RUNTIME).isFile;
  } catch {
    return false;
  }
})();

Deno.test({
  name: runtimeExists
    ? "the generated client reads every variable the table says it reads"
    : "the generated client reads every variable the table says it reads " +
      "(SKIPPED: client/script_runtime.ts does not exist yet)",
  ignore: !runtimeExists,
  fn() {
    const source = Deno.readTextFileSync(RUNTIME);
    const missing = SCRIPT_ENV.filter((v) => v.readBy.includes("client"))
      .map((v) => v.name)
      .filter((name) => !new RegExp(`\\b${name}\\b`).test(source));
    deepStrictEqual(
      missing,
      [],
      `SCRIPT_ENV says the generated client reads ${missing.join(", ")}, but ` +
        `client/script_runtime.ts never names them: read them there, or fix readBy`,
    );
    const reads = new Set(envReads(RUNTIME, source).map((r) => r.name));
    const unsaid = SCRIPT_ENV.filter((v) => reads.has(v.name) && !v.readBy.includes("client"))
      .map((v) => v.name);
    deepStrictEqual(
      unsaid,
      [],
      `client/script_runtime.ts reads ${unsaid.join(", ")}, but SCRIPT_ENV's readBy omits 'client'`,
    );
  },
});

Deno.test("every MCPX_ variable read in mcpx's source is declared", () => {
  const inTable = new Set(SCRIPT_ENV.map((v) => v.name));
  const reads = readsByName();
  const undeclared = [...reads].filter(([name]) =>
    !inTable.has(name) && !SETTING_NAMES.has(name) && !(name in ALLOWED_READS)
  ).map(([name, where]) => `${name} (${where.join(", ")})`);
  deepStrictEqual(
    undeclared,
    [],
    "declare each as a setting (config/settings.ts), in SCRIPT_ENV (scripts/script_env.ts), " +
      "or in ALLOWED_READS here with the reason it is read by name",
  );
  const unused = Object.keys(ALLOWED_READS).filter((name) => !reads.has(name));
  deepStrictEqual(unused, [], "ALLOWED_READS entries nothing reads any more: remove them");
  const shadowing = Object.keys(ALLOWED_READS).filter((n) =>
    inTable.has(n) || SETTING_NAMES.has(n)
  );
  deepStrictEqual(shadowing, [], "ALLOWED_READS entries that are declared elsewhere already");
});

Deno.test("SCRIPT_ENV's readBy 'mcpx' matches what cli/ reads", () => {
  const cliReads = readsByName(["cli"]);
  for (const v of SCRIPT_ENV) {
    const said = v.readBy.includes("mcpx");
    const does = cliReads.has(v.name) || SETTING_NAMES.has(v.name);
    equal(
      said,
      does,
      said
        ? `${v.name}: readBy says mcpx reads it, but nothing in cli/ does and no setting has it`
        : `${v.name}: read in ${cliReads.get(v.name)?.join(", ")}, but readBy omits 'mcpx'`,
    );
  }
});

Deno.test("envReads() finds property, index, get() and destructured reads, not writes or text", () => {
  const source = `
// env.MCPX_IN_COMMENT
const a = env.MCPX_A;
const b = process.env["MCPX_B"];
const b2 = rtEnv("MCPX_B2");
const c = Deno.env.get("MCPX_C");
const { MCPX_D } = env;
env.MCPX_SET = "1";
delete env.MCPX_GONE;
const keys = new Set(["MCPX_LISTED"]);
const out = { MCPX_KEY: "v" };
const msg = "set MCPX_MESSAGE";
`;
  deepStrictEqual(envReads("probe.ts", source).map((r) => `${r.name}:${r.line}`), [
    "MCPX_A:3",
    "MCPX_B:4",
    "MCPX_B2:5",
    "MCPX_C:6",
    "MCPX_D:7",
  ]);
});
