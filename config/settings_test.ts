import assert from "node:assert/strict";
import { ConfigError, UsageError } from "../core/errors.ts";
import {
  parsePathList,
  parseSettingValue,
  type SettingDeclaration,
  settingDeclaration,
  settingEnvName,
  settingFlagName,
  SETTINGS,
} from "./settings.ts";
import { resolveSettings, settingValue } from "./resolve_settings.ts";
import { renderSchema, settingFlags } from "./setting_schema.ts";

Deno.test("SETTINGS behaviour", async (t) => {
  await t.step("every default validates through the same parser as an override", () => {
    for (const decl of SETTINGS) {
      assert.doesNotThrow(() => parseSettingValue(decl, decl.default), decl.name);
    }
  });
  await t.step("names are unique, dotted, and enums list their values", () => {
    assert.equal(new Set(SETTINGS.map((s) => s.name)).size, SETTINGS.length);
    for (const s of SETTINGS) {
      assert.match(s.name, /^[a-z]+\.[a-zA-Z]+$/);
      if (s.type === "enum") assert.ok(s.values && s.values.length > 0, s.name);
    }
  });
  await t.step("flag spellings do not collide", () => {
    const flags = settingFlags().map((f) => f.flag);
    assert.equal(new Set(flags).size, flags.length);
  });
  await t.step("declares the settings the brief asks for", () => {
    for (
      const name of [
        "paths.state",
        "paths.cache",
        "daemon.idleTimeout",
        "daemon.startWait",
        "output.json",
        "output.format",
        "logging.level",
        "catalog.budget",
        "catalog.bias",
        "search.limit",
        "plumbing.version",
      ]
    ) assert.ok(settingDeclaration(name), name);
  });
});

Deno.test("settingEnvName() and settingFlagName() behaviour", async (t) => {
  const cases: [string, string, string][] = [
    ["catalog.budget", "MCPX_CATALOG_BUDGET", "--catalog-budget"],
    ["daemon.idleTimeout", "MCPX_DAEMON_IDLE_TIMEOUT", "--daemon-idle-timeout"],
    ["paths.state", "MCPX_PATHS_STATE", "--paths-state"],
    ["plumbing.version", "MCPX_PLUMBING_VERSION", "--plumbing-version"],
  ];
  for (const [name, env, flag] of cases) {
    await t.step(`maps ${name}`, () => {
      assert.equal(settingEnvName(name), env);
      assert.equal(settingFlagName(name), flag);
    });
  }
});

Deno.test("parseSettingValue() behaviour", async (t) => {
  const decl = (type: SettingDeclaration["type"], extra: Partial<SettingDeclaration> = {}) => ({
    name: "x.y",
    type,
    default: "",
    help: "",
    ...extra,
  });
  const good: [string, SettingDeclaration, unknown, unknown][] = [
    ["int from string", decl("int"), "42", 42],
    ["int from number", decl("int"), 7, 7],
    ["negative int", decl("int"), "-3", -3],
    ["int at min", decl("int", { min: 1 }), "1", 1],
    ["bool true", decl("bool"), "true", true],
    ["bool yes", decl("bool"), "yes", true],
    ["bool 0", decl("bool"), "0", false],
    ["bool json", decl("bool"), false, false],
    ["duration", decl("duration"), "5m", 300_000],
    ["duration number", decl("duration"), 250, 250],
    ["duration of 24 days", decl("duration"), "24d", 2_073_600_000],
    ["long duration where allowed", decl("duration", { maxMs: Infinity }), "30d", 2_592_000_000],
    ["logging.retention of 30 days", settingDeclaration("logging.retention"), "30d", 2_592_000_000],
    ["enum", decl("enum", { values: ["a", "b"] }), "b", "b"],
    ["string", decl("string"), "hello", "hello"],
    ["empty string", decl("string"), "", ""],
    ["absolute path", decl("path"), "/var/x", "/var/x"],
    ["relative path", decl("path"), "x/y", "/base/x/y"],
    ["home path", decl("path"), "~/s", "/home/u/s"],
    ["empty path", decl("path"), "", ""],
  ];
  for (const [name, d, raw, expected] of good) {
    await t.step(`accepts ${name}`, () => {
      assert.equal(parseSettingValue(d, raw, { baseDir: "/base", home: "/home/u" }), expected);
    });
  }
  const bad: [string, SettingDeclaration, unknown, RegExp][] = [
    ["int word", decl("int"), "many", /whole number/],
    ["int fraction", decl("int"), "1.5", /whole number/],
    ["int below min", decl("int", { min: 1 }), "0", /≥ 1/],
    ["int bool", decl("int"), true, /whole number/],
    ["bool word", decl("bool"), "maybe", /true or false/],
    ["duration word", decl("duration"), "soon", /"30m"/],
    ["duration over 24 days", decl("duration"), "30d", /at most 24d \(2073600000 ms\)/],
    ["daemon.idleTimeout of 30 days", settingDeclaration("daemon.idleTimeout"), "30d", /24d/],
    ["enum outside", decl("enum", { values: ["a", "b"] }), "c", /one of "a", "b"/],
    ["string number", decl("string"), 3, /a string/],
    ["path number", decl("path"), 3, /path/],
  ];
  for (const [name, d, raw, message] of bad) {
    await t.step(`rejects ${name}`, () => {
      assert.throws(() => parseSettingValue(d, raw), (e: unknown) => {
        assert.ok(e instanceof RangeError);
        assert.match(e.message, message);
        return true;
      });
    });
  }
});

Deno.test("resolveSettings() behaviour", async (t) => {
  const far = { file: "/home/u/.mcpx.json", document: { catalog: { budget: 1000 } } };
  const near = { file: "/p/.mcpx.json", document: { catalog: { budget: 3000, bias: "web" } } };
  const cases: {
    name: string;
    layers?: { file: string; document: Record<string, unknown> }[];
    env?: Record<string, string>;
    flags?: Record<string, string | boolean>;
    setting: string;
    value: unknown;
    source: string;
    overrode: string[];
  }[] = [
    {
      name: "uses the default with nothing set",
      setting: "catalog.budget",
      value: 2000,
      source: "default",
      overrode: [],
    },
    {
      name: "a file overrides the default",
      layers: [far],
      setting: "catalog.budget",
      value: 1000,
      source: "file:/home/u/.mcpx.json",
      overrode: ["default"],
    },
    {
      name: "the nearest file wins",
      layers: [far, near],
      setting: "catalog.budget",
      value: 3000,
      source: "file:/p/.mcpx.json",
      overrode: ["default", "file:/home/u/.mcpx.json"],
    },
    {
      name: "the environment overrides files",
      layers: [far, near],
      env: { MCPX_CATALOG_BUDGET: "4000" },
      setting: "catalog.budget",
      value: 4000,
      source: "env:MCPX_CATALOG_BUDGET",
      overrode: ["default", "file:/home/u/.mcpx.json", "file:/p/.mcpx.json"],
    },
    {
      name: "flags override the environment",
      layers: [near],
      env: { MCPX_CATALOG_BUDGET: "4000" },
      flags: { "catalog.budget": "5000" },
      setting: "catalog.budget",
      value: 5000,
      source: "flag:--catalog-budget",
      overrode: ["default", "file:/p/.mcpx.json", "env:MCPX_CATALOG_BUDGET"],
    },
    {
      name: "an empty variable counts as unset",
      layers: [near],
      env: { MCPX_CATALOG_BUDGET: "" },
      setting: "catalog.budget",
      value: 3000,
      source: "file:/p/.mcpx.json",
      overrode: ["default"],
    },
    {
      name: "a duration from a file is ms",
      layers: [{ file: "/p/c.json", document: { daemon: { idleTimeout: "30m" } } }],
      setting: "daemon.idleTimeout",
      value: 1_800_000,
      source: "file:/p/c.json",
      overrode: ["default"],
    },
    {
      name: "a boolean flag",
      flags: { "output.json": true },
      setting: "output.json",
      value: true,
      source: "flag:--output-json",
      overrode: ["default"],
    },
    {
      name: "an env alias is read",
      env: { MCPX_LOG_LEVEL: "debug" },
      setting: "logging.level",
      value: "debug",
      source: "env:MCPX_LOG_LEVEL",
      overrode: ["default"],
    },
    {
      name: "two env spellings that agree are fine",
      env: { MCPX_LOG_LEVEL: "warn", MCPX_LOGGING_LEVEL: "warn" },
      setting: "logging.level",
      value: "warn",
      source: "env:MCPX_LOGGING_LEVEL",
      overrode: ["default"],
    },
    {
      name: "a relative path in a file resolves against the file's directory",
      layers: [{ file: "/p/.mcpx.json", document: { paths: { cache: "cache" } } }],
      setting: "paths.cache",
      value: "/p/cache",
      source: "file:/p/.mcpx.json",
      overrode: ["default"],
    },
  ];
  for (const c of cases) {
    await t.step(c.name, () => {
      const resolved = resolveSettings({
        layers: c.layers ?? [],
        env: c.env ?? {},
        flags: c.flags ?? {},
        cwd: "/cwd",
      });
      const s = resolved.values[c.setting];
      assert.equal(s.value, c.value);
      assert.equal(s.source, c.source);
      assert.deepEqual(s.overrode.map((o) => o.source), c.overrode);
    });
  }

  await t.step("records the overridden values, not only their sources", () => {
    const s = resolveSettings({ layers: [far, near], env: {}, flags: {} });
    assert.deepEqual(s.values["catalog.budget"].overrode.map((o) => o.value), [2000, 1000]);
    assert.equal(s.values["catalog.budget"].raw, 3000);
    assert.equal(settingValue(s, "catalog.bias"), "web");
  });

  const failures: {
    name: string;
    layers?: { file: string; document: Record<string, unknown> }[];
    env?: Record<string, string>;
    flags?: Record<string, string | boolean>;
    kind: typeof ConfigError | typeof UsageError;
    parts: string[];
  }[] = [
    {
      name: "a bad value in a file names the file, setting, value and form",
      layers: [{ file: "/p/.mcpx.json", document: { catalog: { budget: "lots" } } }],
      kind: ConfigError,
      parts: ["/p/.mcpx.json", "catalog.budget", '"lots"', "whole number"],
    },
    {
      name: "a bad variable names the variable, setting, value and form",
      env: { MCPX_SEARCH_LIMIT: "0" },
      kind: ConfigError,
      parts: ["MCPX_SEARCH_LIMIT", "search.limit", '"0"', "≥ 1"],
    },
    {
      name: "a bad flag is a usage error naming the flag",
      flags: { "logging.level": "loud" },
      kind: UsageError,
      parts: ["--logging-level", "logging.level", '"loud"', '"debug"'],
    },
    {
      name: "a valueless flag for a non-bool is a usage error",
      flags: { "catalog.budget": true },
      kind: UsageError,
      parts: ["--catalog-budget", "needs a value"],
    },
    {
      name: "an unknown flag setting suggests the near miss",
      flags: { "catalog.budgit": "1" },
      kind: UsageError,
      parts: ["catalog.budgit", "did you mean `catalog.budget`"],
    },
    {
      name: "two env spellings that disagree are refused",
      env: { MCPX_LOG_LEVEL: "warn", MCPX_LOGGING_LEVEL: "debug" },
      kind: ConfigError,
      parts: ["MCPX_LOG_LEVEL", "MCPX_LOGGING_LEVEL", "logging.level", "unset"],
    },
    {
      name: "a section that is not an object",
      layers: [{ file: "/p/.mcpx.json", document: { catalog: 5 } }],
      kind: ConfigError,
      parts: ["/p/.mcpx.json", "catalog", "5", "object"],
    },
    {
      name: "several problems are reported together",
      layers: [{
        file: "/p/.mcpx.json",
        document: { catalog: { budget: "x" }, search: { limit: -1 } },
      }],
      env: { MCPX_OUTPUT_JSON: "perhaps" },
      kind: ConfigError,
      parts: ["3 problems", "catalog.budget", "search.limit", "MCPX_OUTPUT_JSON"],
    },
  ];
  for (const f of failures) {
    await t.step(f.name, () => {
      assert.throws(
        () => resolveSettings({ layers: f.layers ?? [], env: f.env ?? {}, flags: f.flags ?? {} }),
        (e: unknown) => {
          assert.ok(e instanceof f.kind, String(e));
          for (const part of f.parts) {
            assert.ok((e as Error).message.includes(part), `${(e as Error).message} lacks ${part}`);
          }
          return true;
        },
      );
    });
  }

  await t.step("warns about an unknown key in a settings section with a suggestion", () => {
    const s = resolveSettings({
      layers: [{ file: "/p/.mcpx.json", document: { catalog: { budgett: 1 } } }],
      env: {},
    });
    assert.equal(s.warnings.length, 1);
    assert.match(s.warnings[0], /catalog\.budgett.*did you mean `budget`/);
  });
});

Deno.test("settingFlags() behaviour", async (t) => {
  await t.step("lists generated flags and aliases with their setting", () => {
    const flags = settingFlags();
    const find = (flag: string) => flags.find((f) => f.flag === flag);
    assert.deepEqual(find("--catalog-budget"), {
      flag: "--catalog-budget",
      name: "catalog.budget",
      type: "int",
      hidden: false,
    });
    assert.equal(find("--json")?.name, "output.json");
    assert.equal(find("-n")?.name, "search.limit");
    assert.equal(find("--plumbing-version")?.hidden, true);
  });
});

Deno.test("renderSchema() behaviour", async (t) => {
  await t.step("leaves plumbing out unless asked", () => {
    assert.ok(!renderSchema().some((e) => e.name.startsWith("plumbing.")));
    assert.ok(renderSchema({ plumbing: true }).some((e) => e.name === "plumbing.version"));
  });
  await t.step("gives each entry its env, flags and accepted form", () => {
    const budget = renderSchema().find((e) => e.name === "catalog.budget")!;
    assert.deepEqual(budget.env, ["MCPX_CATALOG_BUDGET"]);
    assert.deepEqual(budget.flags, ["--catalog-budget"]);
    assert.equal(budget.default, "2000");
    assert.match(budget.accepts, /whole number/);
  });
});

Deno.test("resolveSettings() paths lists: null splice in a file, empty entry elsewhere", async (t) => {
  const resolve = (document: Record<string, unknown>, env: Record<string, string> = {}) =>
    resolveSettings({
      layers: [{ file: "/proj/.mcpx.json", document }],
      env: { HOME: "/h", ...env },
      cwd: "/work",
    });
  await t.step("a file's list resolves relative entries against the file's directory", () => {
    const s = resolve({ paths: { scripts: ["./mine", null, "~/more"] } });
    assert.equal(settingValue(s, "paths.scripts"), "/proj/mine::/h/more");
    assert.deepEqual(parsePathList(String(settingValue(s, "paths.scripts"))), [
      "/proj/mine",
      null,
      "/h/more",
    ]);
  });
  await t.step("a list without null replaces the built-in places", () => {
    const s = resolve({ paths: { scripts: ["/only"] } });
    assert.deepEqual(parsePathList(String(settingValue(s, "paths.scripts"))), ["/only"]);
  });
  await t.step("the environment's ':'-separated form, relative to the working directory", () => {
    const s = resolve({}, { MCPX_PATHS_CONFIG: "conf::/etc/x.json" });
    assert.deepEqual(parsePathList(String(settingValue(s, "paths.config"))), [
      "/work/conf",
      null,
      "/etc/x.json",
    ]);
  });
  await t.step("the default is the built-in places alone", () => {
    assert.deepEqual(parsePathList(String(settingValue(resolve({}), "paths.config"))), [null]);
  });
  await t.step("an empty list, a number or a ':' inside an entry is refused with the fix", () => {
    for (
      const [value, reason] of [
        [[], /an empty list would search nowhere; write \[null\]/],
        [[3], /must be a list of paths/],
        [["/a:b"], /must not contain ':'/],
      ] as const
    ) {
      assert.throws(() => resolve({ paths: { scripts: value } }), (e: unknown) => {
        assert.ok(e instanceof ConfigError);
        assert.match(e.message, /config \/proj\/\.mcpx\.json: paths\.scripts: /);
        assert.match(e.message, reason);
        return true;
      });
    }
  });
});

Deno.test("SETTINGS declares every setting spec 000 says is read from the resolved set", () => {
  // Spec 000, "Where a setting is read" and "Search paths".
  for (
    const name of [
      "logging.format",
      "logging.level",
      "logging.source",
      "logging.dir",
      "catalog.budget",
      "catalog.bias",
      "script.typecheck",
      "paths.scripts",
      "paths.config",
      "plumbing.allowTsJsOverlap",
    ]
  ) {
    assert.doesNotThrow(() => settingDeclaration(name), name);
  }
  assert.equal(settingDeclaration("paths.config").type, "paths");
  assert.equal(settingDeclaration("plumbing.allowTsJsOverlap").plumbing, true);
});

Deno.test("resolveSettings(): a userOnly setting is not read from a project's file", () => {
  assert.equal(settingDeclaration("security.trustProjectConfigs").userOnly, true);
  const document = { security: { trustProjectConfigs: "always" } };
  const project = resolveSettings({
    layers: [{ file: "/p/.mcp.json", document, project: true }],
    env: {},
  });
  assert.equal(project.values["security.trustProjectConfigs"].value, "ask");
  assert.match(
    project.warnings.join("\n"),
    /set in \/p\/\.mcp\.json, a project's configuration, and is ignored/,
  );
  const own = resolveSettings({ layers: [{ file: "/h/.mcpx.json", document }], env: {} });
  assert.equal(own.values["security.trustProjectConfigs"].value, "always");
  const env = resolveSettings({
    layers: [],
    env: { MCPX_SECURITY_TRUST_PROJECT_CONFIGS: "always" },
  });
  assert.equal(
    env.values["security.trustProjectConfigs"].source,
    "env:MCPX_SECURITY_TRUST_PROJECT_CONFIGS",
  );
});
