/**
 * The settings registry: every knob declared once, then readable from a
 * configuration file at its dotted path, from an `MCPX_…` variable and from a
 * `--flag`, with precedence defaults < files (nearest last) < environment <
 * flags. Every resolved value remembers where it came from and what it overrode.
 *
 * Names map mechanically: `catalog.budget` is `{ "catalog": { "budget": 3000 } }`
 * in a file, `MCPX_CATALOG_BUDGET` in the environment and `--catalog-budget` on
 * the command line (camelCase segments become `_`/`-` separated: `daemon.idleTimeout`
 * is `MCPX_DAEMON_IDLE_TIMEOUT` and `--daemon-idle-timeout`).
 *
 * Source: spec 000, "One declaration per setting", "Plumbing", "Where a setting is read".
 *
 * @module
 */

import { isAbsolute, join, resolve } from "./posix_path.ts";
import { ConfigError, UsageError } from "../errors.ts";
import { DURATION_FORMS, durationLimit, MAX_DURATION_MS, parseDuration } from "./duration.ts";
import { describeValue } from "./_describe.ts";
import { didYouMean } from "./_suggest.ts";

/** The value kinds a setting may hold. */
export type SettingType = "int" | "string" | "bool" | "duration" | "enum" | "path";

/** A typed setting value: ints and durations (ms) are numbers, bools booleans, the rest strings. */
export type SettingValue = number | string | boolean;

/** One declared knob. */
export interface SettingDeclaration {
  /** Dotted name, `section.key`, e.g. `catalog.budget`. */
  name: string;
  type: SettingType;
  /** The default exactly as a user would type it (`"4h"`, `"2000"`, `"false"`). */
  default: string;
  /** The accepted values of an `enum`. */
  values?: readonly string[];
  /** The least an `int` may be. */
  min?: number;
  /**
   * The longest a `duration` may be, in ms: default `MAX_DURATION_MS` (24 days, the timer
   * limit); `Infinity` for one no timer waits on.
   */
  maxMs?: number;
  /** One line for help and `mcpx config --schema`. */
  help: string;
  /** Internal switch: hidden from ordinary help, schema and completion (spec "Plumbing"). */
  plumbing?: boolean;
  /** An extra flag spelling besides the generated one, e.g. `-n` or `--json`. */
  flag?: string;
  /** Older environment spellings read at the same level as the generated one. */
  envAliases?: readonly string[];
}

/** Every setting mcpx has. Add a knob here and it is readable from a file, a variable and a flag. */
export const SETTINGS: readonly SettingDeclaration[] = [
  {
    name: "paths.state",
    type: "path",
    default: "",
    envAliases: ["MCPX_STATE_DIR"],
    help: "Directory for sockets, logs and the log index; empty means $XDG_STATE_HOME/mcpx",
  },
  {
    name: "paths.cache",
    type: "path",
    default: "",
    envAliases: ["MCPX_CACHE_DIR"],
    help: "Directory for the schema cache; empty means $XDG_CACHE_HOME/mcpx",
  },
  {
    name: "daemon.idleTimeout",
    type: "duration",
    default: "4h",
    help: "An auto-started daemon with no requests for this long exits (0 = never)",
  },
  {
    name: "daemon.startWait",
    type: "duration",
    default: "10s",
    help: "How long the CLI waits for a daemon it started to answer before giving up",
  },
  {
    name: "output.json",
    type: "bool",
    default: "false",
    flag: "--json",
    help: "Print machine-readable JSON instead of tables",
  },
  {
    name: "output.format",
    type: "enum",
    values: ["text", "json"],
    default: "text",
    help: "Output format of commands: human text or JSON",
  },
  {
    name: "logging.level",
    type: "enum",
    values: ["debug", "info", "warn", "error"],
    default: "info",
    flag: "--log-level",
    envAliases: ["MCPX_LOG_LEVEL"],
    help: "Least severe log record that is written",
  },
  {
    name: "logging.maxFileSize",
    type: "int",
    min: 65536,
    default: "10485760",
    help: "Bytes a log file under <state>/logs may reach before the next one is started",
  },
  {
    name: "logging.retention",
    type: "duration",
    default: "14d",
    // Compared with file times, never a timer: longer than 24 days is fine.
    maxMs: Infinity,
    help: "Log files last written longer ago than this are removed (0 = keep every file)",
  },
  {
    name: "catalog.budget",
    type: "int",
    min: 0,
    default: "2000",
    help: "Most tokens `mcpx catalog` may spend describing tools",
  },
  {
    name: "catalog.bias",
    type: "string",
    default: "",
    help: "Tags or namespaces the catalogue favours when it must leave tools out",
  },
  {
    name: "search.limit",
    type: "int",
    min: 1,
    default: "20",
    flag: "-n",
    help: "Most results `mcpx search` prints",
  },
  {
    name: "logging.format",
    type: "enum",
    values: ["pretty", "logfmt", "json"],
    default: "pretty",
    flag: "--format",
    help: "How script records are shown on stderr: a readable line, logfmt, or the JSON record",
  },
  {
    name: "logging.source",
    type: "enum",
    values: ["debug", "info", "warn", "error", "true", "false"],
    default: "warn",
    flag: "--log-source",
    help: "Script records at this level and above carry their call site (true: all, false: none)",
  },
  {
    name: "logging.trace",
    type: "bool",
    default: "false",
    envAliases: ["MCPX_TRACE"],
    help:
      "Each tool call prints one line on stderr, and logs it, naming the instance that served it",
  },
  {
    name: "script.runtime",
    type: "enum",
    values: ["auto", "deno", "bun", "node"],
    default: "auto",
    flag: "--runtime",
    help: "Runtime for scripts; auto is deno (mcpx's own), else bun, else node 22.6+",
  },
  {
    name: "script.permissions",
    type: "string",
    default: "all",
    help: "Deno permissions for scripts: all, none, or a list such as read,write,net,env,run",
  },
  {
    name: "paths.scripts",
    type: "string",
    default: "",
    help:
      "Directories (or files) searched for named scripts, ':'-separated, nearest first; an empty entry stands for the built-in places",
  },
  {
    name: "paths.placeholders",
    type: "string",
    default: "",
    help:
      "Files or directories of launcher placeholders (@name fills) for scripts, ':'-separated; empty means none",
  },
  {
    name: "plumbing.launcherPlaceholderRepeat",
    type: "string",
    default: "",
    plumbing: true,
    help: "Launcher placeholders allowed to expand more than once, comma-separated (e.g. entry)",
  },
  {
    name: "plumbing.sourceProbePaths",
    type: "bool",
    default: "true",
    plumbing: true,
    help: "Read a --prefix/--suffix/--launcher value naming an existing file as that file",
  },
  {
    name: "plumbing.version",
    type: "string",
    default: "",
    plumbing: true,
    help: "Overrides the version the daemon reports (for tests of upgrade handling)",
  },
  {
    name: "profiles.active",
    type: "string",
    default: "",
    flag: "--profile",
    help: "Profiles whose servers commands see besides the default set, comma-separated",
  },
  {
    name: "profiles.skipDefault",
    type: "bool",
    default: "false",
    flag: "--skip-default",
    help: "Leave the default set out: only the servers of the named profiles",
  },
  {
    name: "profiles.all",
    type: "bool",
    default: "false",
    flag: "--all-profiles",
    help: "Every configured server, whatever its profiles",
  },
];

const BY_NAME = new Map(SETTINGS.map((s) => [s.name, s]));

/** The top-level sections settings live under (`catalog`, `daemon`, …). */
export const SETTING_SECTIONS: readonly string[] = [
  ...new Set(SETTINGS.map((s) => s.name.split(".")[0])),
];

/**
 * The declaration of a setting.
 *
 * @param name Dotted name.
 * @returns The declaration.
 * @throws {RangeError} When no setting has that name (with a near-miss suggestion).
 * @example
 * ```ts
 * import { settingDeclaration } from "./settings.ts";
 * if (settingDeclaration("catalog.budget").type !== "int") throw new Error();
 * ```
 */
export function settingDeclaration(name: string): SettingDeclaration {
  const decl = BY_NAME.get(name);
  if (!decl) throw new RangeError(`no setting named "${name}"${didYouMean(name, BY_NAME.keys())}`);
  return decl;
}

/**
 * The environment variable of a setting: `MCPX_` + segments in UPPER_SNAKE.
 *
 * @param name Dotted name, e.g. `daemon.idleTimeout`.
 * @returns e.g. `MCPX_DAEMON_IDLE_TIMEOUT`.
 * @example
 * ```ts
 * import { settingEnvName } from "./settings.ts";
 * if (settingEnvName("catalog.budget") !== "MCPX_CATALOG_BUDGET") throw new Error();
 * ```
 */
export function settingEnvName(name: string): string {
  return `MCPX_${splitWords(name).join("_").toUpperCase()}`;
}

/**
 * The environment variable a setting is read from: its generated name, else the first
 * of its `envAliases` that is set. An empty variable counts as unset.
 *
 * @param name Dotted name, e.g. `paths.state`.
 * @param env Environment map.
 * @returns e.g. `MCPX_STATE_DIR`, or undefined when no spelling is set.
 * @throws {ConfigError} When two spellings are set to different values (file
 *   `environment`, path the variables), naming each variable and value.
 * @throws {RangeError} When no setting has that name.
 * @example
 * ```ts
 * import { settingEnvSpelling } from "./settings.ts";
 * if (settingEnvSpelling("paths.state", { MCPX_STATE_DIR: "/s" }) !== "MCPX_STATE_DIR") {
 *   throw new Error();
 * }
 * ```
 */
export function settingEnvSpelling(
  name: string,
  env: Record<string, string | undefined>,
): string | undefined {
  const decl = settingDeclaration(name);
  const spellings = [settingEnvName(decl.name), ...(decl.envAliases ?? [])]
    .filter((v) => env[v] !== undefined && env[v] !== "");
  if (spellings.length > 1 && new Set(spellings.map((v) => env[v])).size > 1) {
    throw new ConfigError(
      "environment",
      spellings.join(", "),
      `two spellings of setting ${decl.name} disagree (${
        spellings.map((v) => `${v}=${describeValue(env[v])}`).join(", ")
      }); unset all but one`,
    );
  }
  return spellings[0];
}

/**
 * The generated flag of a setting: `--` + segments in kebab-case.
 *
 * @param name Dotted name, e.g. `daemon.idleTimeout`.
 * @returns e.g. `--daemon-idle-timeout`.
 * @example
 * ```ts
 * import { settingFlagName } from "./settings.ts";
 * if (settingFlagName("catalog.budget") !== "--catalog-budget") throw new Error();
 * ```
 */
export function settingFlagName(name: string): string {
  return `--${splitWords(name).join("-").toLowerCase()}`;
}

function splitWords(name: string): string[] {
  return name.split(".").flatMap((seg) => seg.replace(/([a-z0-9])([A-Z])/g, "$1 $2").split(" "));
}

/**
 * How a setting's accepted form is described in errors and the schema.
 *
 * @param decl The declaration.
 * @returns e.g. `a whole number ≥ 0`, `one of "text", "json"`.
 */
export function acceptedForm(decl: SettingDeclaration): string {
  switch (decl.type) {
    case "int":
      return decl.min === undefined ? "a whole number" : `a whole number ≥ ${decl.min}`;
    case "bool":
      return "true or false";
    case "duration":
      return Number.isFinite(decl.maxMs ?? MAX_DURATION_MS)
        ? `${DURATION_FORMS}, at most ${durationLimit(decl.maxMs)}`
        : DURATION_FORMS;
    case "enum":
      return `one of ${(decl.values ?? []).map((v) => JSON.stringify(v)).join(", ")}`;
    case "path":
      return "a file system path (empty for the built-in location)";
    case "string":
      return "a string";
  }
}

/** Options for {@link parseSettingValue}. */
export interface ParseSettingOptions {
  /** Directory a relative `path` resolves against (a file's directory, or the cwd). */
  baseDir?: string;
  /** `HOME`, for a leading `~/` in a `path`. */
  home?: string;
}

/**
 * Validates and converts one value of a setting. Strings (defaults, variables, flags) are
 * parsed; JSON values from a file may also be numbers and booleans of the right type.
 *
 * @param decl The declaration.
 * @param raw The value as written.
 * @param options Where relative paths resolve.
 * @returns The typed value: int → number, duration → ms, bool → boolean, else string
 *   (a non-empty path is absolute).
 * @throws {RangeError} When `raw` is not of the accepted form; the message says what is
 *   accepted, and the caller adds the setting, the source and the value.
 * @example
 * ```ts
 * import { parseSettingValue, settingDeclaration } from "./settings.ts";
 * if (parseSettingValue(settingDeclaration("daemon.idleTimeout"), "5m") !== 300_000) throw new Error();
 * ```
 */
export function parseSettingValue(
  decl: SettingDeclaration,
  raw: unknown,
  options: ParseSettingOptions = {},
): SettingValue {
  const fail = (): never => {
    throw new RangeError(`must be ${acceptedForm(decl)}`);
  };
  switch (decl.type) {
    case "int": {
      const n = typeof raw === "number"
        ? raw
        : typeof raw === "string" && /^\s*-?\d+\s*$/.test(raw)
        ? Number(raw)
        : NaN;
      if (!Number.isSafeInteger(n) || (decl.min !== undefined && n < decl.min)) fail();
      return n;
    }
    case "bool": {
      if (typeof raw === "boolean") return raw;
      const text = typeof raw === "string" ? raw.trim().toLowerCase() : "";
      if (["true", "1", "yes", "on"].includes(text)) return true;
      if (["false", "0", "no", "off"].includes(text)) return false;
      return fail();
    }
    case "duration":
      try {
        return parseDuration(raw, { maxMs: decl.maxMs });
      } catch {
        return fail();
      }
    case "enum":
      if (typeof raw !== "string" || !(decl.values ?? []).includes(raw)) fail();
      return raw as string;
    case "path": {
      if (typeof raw !== "string") return fail();
      if (raw === "") return "";
      const home = options.home;
      const expanded = home && (raw === "~" || raw.startsWith("~/"))
        ? join(home, raw.slice(1))
        : raw;
      return isAbsolute(expanded) ? expanded : resolve(options.baseDir ?? Deno.cwd(), expanded);
    }
    case "string":
      if (typeof raw !== "string") fail();
      return raw as string;
  }
}

/** Where a value came from: `default`, `file:<path>`, `env:MCPX_X` or `flag:--x`. */
export type SettingSource = "default" | `file:${string}` | `env:${string}` | `flag:${string}`;

/** One setting after precedence. */
export interface ResolvedSetting {
  name: string;
  /** Typed; see {@link parseSettingValue}. */
  value: SettingValue;
  /** The value as written at its source. */
  raw: unknown;
  source: SettingSource;
  /** The values this one overrode, lowest precedence first (starting with the default). */
  overrode: { value: SettingValue; source: SettingSource }[];
}

/** Every declared setting resolved, plus warnings about keys nothing reads. */
export interface ResolvedSettings {
  /** By dotted name; every declared setting is present. */
  values: Record<string, ResolvedSetting>;
  /** e.g. an unknown key under a settings section of a file, with a suggestion. */
  warnings: string[];
}

/** Inputs of {@link resolveSettings}. */
export interface ResolveSettingsOptions {
  /** Parsed configuration files, farthest first, nearest last. */
  layers: { file: string; document: Record<string, unknown> }[];
  /** Environment map. */
  env: Record<string, string | undefined>;
  /** Command-line values keyed by dotted name (`{ "catalog.budget": "3000" }`). */
  flags?: Record<string, string | boolean>;
  /**
   * The spelling the user typed for a flag, by dotted name (`{ "catalog.budget": "--budget" }`),
   * so sources and errors name what is on the command line; the generated spelling otherwise.
   */
  flagSpellings?: Record<string, string>;
  /** Directory relative `path` values from the environment or flags resolve against. */
  cwd?: string;
}

/**
 * Resolves every setting: defaults < files (in order; nearest last) < environment < flags.
 * An empty environment variable counts as unset. All problems are collected first.
 *
 * @param options Layers, environment, flags.
 * @returns {@link ResolvedSettings}.
 * @throws {UsageError} When only flags are invalid (unknown name, bad value).
 * @throws {ConfigError} When a file or the environment holds an invalid value, a settings
 *   section is not an object, or two environment spellings of one setting disagree; one
 *   error lists every problem, one per line, each naming the setting, source, value and form.
 * @example
 * ```ts
 * import { resolveSettings } from "./settings.ts";
 * const s = resolveSettings({
 *   layers: [{ file: "/p/.mcpx.json", document: { catalog: { budget: 3000 } } }],
 *   env: {},
 *   flags: {},
 * });
 * if (s.values["catalog.budget"].value !== 3000) throw new Error();
 * ```
 */
export function resolveSettings(options: ResolveSettingsOptions): ResolvedSettings {
  const { layers, env } = options;
  const flags = options.flags ?? {};
  const cwd = options.cwd ?? Deno.cwd();
  const home = env.HOME || undefined;
  const fileProblems: Error[] = [];
  const flagProblems: Error[] = [];
  const warnings: string[] = [];
  const values: Record<string, ResolvedSetting> = {};

  for (const layer of layers) checkSections(layer, fileProblems, warnings);
  for (const name of Object.keys(flags)) {
    if (!BY_NAME.has(name)) {
      flagProblems.push(
        new UsageError(`unknown setting "${name}"${didYouMean(name, BY_NAME.keys())}`),
      );
    }
  }

  for (const decl of SETTINGS) {
    let current: ResolvedSetting = {
      name: decl.name,
      value: parseSettingValue(decl, decl.default, { baseDir: cwd, home }),
      raw: decl.default,
      source: "default",
      overrode: [],
    };
    const apply = (raw: unknown, source: SettingSource, baseDir: string, sink: Error[]) => {
      let value: SettingValue;
      try {
        value = parseSettingValue(decl, raw, { baseDir, home });
      } catch (error) {
        sink.push(settingError(decl, source, raw, error as Error));
        return;
      }
      current = {
        name: decl.name,
        value,
        raw,
        source,
        overrode: [...current.overrode, { value: current.value, source: current.source }],
      };
    };

    for (const layer of layers) {
      const found = lookup(layer.document, decl.name);
      if (found.present) {
        apply(found.value, `file:${layer.file}`, join(layer.file, ".."), fileProblems);
      }
    }

    let variable: string | undefined;
    try {
      variable = settingEnvSpelling(decl.name, env);
    } catch (error) {
      fileProblems.push(error as Error);
    }
    if (variable !== undefined) apply(env[variable], `env:${variable}`, cwd, fileProblems);

    if (Object.hasOwn(flags, decl.name)) {
      const raw = flags[decl.name];
      const spelling = options.flagSpellings?.[decl.name] ?? settingFlagName(decl.name);
      if (raw === true && decl.type !== "bool") {
        flagProblems.push(
          new UsageError(
            `${spelling} needs a value: ${acceptedForm(decl)}, e.g. ${spelling}=${
              decl.default || "value"
            }`,
          ),
        );
      } else {
        apply(raw, `flag:${spelling}`, cwd, flagProblems);
      }
    }
    values[decl.name] = current;
  }

  const problems = [...fileProblems, ...flagProblems];
  if (problems.length === 1) throw problems[0];
  if (problems.length > 1) {
    const lines = problems.map((p) => `  ${p.message}`).join("\n");
    const cause = new AggregateError(problems, "settings problems");
    if (fileProblems.length === 0) {
      throw new UsageError(`${problems.length} problems with settings:\n${lines}`, { cause });
    }
    const first = fileProblems[0] as ConfigError;
    throw new ConfigError(first.file, "", `${problems.length} problems with settings:\n${lines}`, {
      cause,
    });
  }
  return { values, warnings };
}

/**
 * The typed value of one resolved setting.
 *
 * @param settings The result of {@link resolveSettings}.
 * @param name Dotted name.
 * @returns The value (number, string or boolean; see {@link parseSettingValue}).
 * @throws {RangeError} When no setting has that name.
 * @example
 * ```ts
 * import { resolveSettings, settingValue } from "./settings.ts";
 * const s = resolveSettings({ layers: [], env: {} });
 * if (settingValue(s, "search.limit") !== 20) throw new Error();
 * ```
 */
export function settingValue(settings: ResolvedSettings, name: string): SettingValue {
  const resolved = settings.values[name];
  if (!resolved) settingDeclaration(name); // throws with a suggestion
  return resolved.value;
}

/** One flag spelling for the CLI's argv parser. */
export interface SettingFlag {
  /** `--catalog-budget`, or an alias such as `-n` or `--json`. */
  flag: string;
  /** Dotted setting name the flag sets. */
  name: string;
  type: SettingType;
  /** True for plumbing settings: accepted, but hidden from help and completion. */
  hidden: boolean;
}

/**
 * Every flag spelling of every setting: the generated `--section-key` and any alias.
 *
 * @returns Flags in declaration order, generated spelling first.
 * @example
 * ```ts
 * import { settingFlags } from "./settings.ts";
 * if (!settingFlags().some((f) => f.flag === "--catalog-budget")) throw new Error();
 * ```
 */
export function settingFlags(): SettingFlag[] {
  return SETTINGS.flatMap((s) => {
    const hidden = s.plumbing === true;
    const out: SettingFlag[] = [{
      flag: settingFlagName(s.name),
      name: s.name,
      type: s.type,
      hidden,
    }];
    if (s.flag) out.push({ flag: s.flag, name: s.name, type: s.type, hidden });
    return out;
  });
}

/** One row of `mcpx config --schema`. */
export interface SettingSchemaEntry {
  name: string;
  type: SettingType;
  default: string;
  values?: readonly string[];
  /** What the value must look like, in words. */
  accepts: string;
  help: string;
  env: string[];
  flags: string[];
  plumbing: boolean;
}

/**
 * The data `mcpx config --schema` prints.
 *
 * @param options `plumbing: true` includes the internal switches (spec "Plumbing").
 * @returns One entry per setting, in declaration order.
 * @example
 * ```ts
 * import { renderSchema } from "./settings.ts";
 * if (renderSchema().some((e) => e.plumbing)) throw new Error();
 * ```
 */
export function renderSchema(options: { plumbing?: boolean } = {}): SettingSchemaEntry[] {
  return SETTINGS.filter((s) => options.plumbing || !s.plumbing).map((s) => ({
    name: s.name,
    type: s.type,
    default: s.default,
    ...(s.values ? { values: s.values } : {}),
    accepts: acceptedForm(s),
    help: s.help,
    env: [settingEnvName(s.name), ...(s.envAliases ?? [])],
    flags: [settingFlagName(s.name), ...(s.flag ? [s.flag] : [])],
    plumbing: s.plumbing === true,
  }));
}

function lookup(document: Record<string, unknown>, name: string): {
  present: boolean;
  value?: unknown;
} {
  let node: unknown = document;
  for (const segment of name.split(".")) {
    if (node === null || typeof node !== "object" || Array.isArray(node)) return { present: false };
    if (!Object.hasOwn(node, segment)) return { present: false };
    node = (node as Record<string, unknown>)[segment];
  }
  return { present: true, value: node };
}

function checkSections(
  layer: { file: string; document: Record<string, unknown> },
  problems: Error[],
  warnings: string[],
): void {
  for (const section of SETTING_SECTIONS) {
    if (!Object.hasOwn(layer.document, section)) continue;
    const node = layer.document[section];
    if (node === null || typeof node !== "object" || Array.isArray(node)) {
      problems.push(
        new ConfigError(
          layer.file,
          section,
          `must be an object of settings, got ${describeValue(node)}; write e.g. ` +
            `{ "${section}": { ... } } (see mcpx config --schema)`,
        ),
      );
      continue;
    }
    const known = SETTINGS.filter((s) => s.name.startsWith(`${section}.`))
      .map((s) => s.name.slice(section.length + 1));
    for (const key of Object.keys(node)) {
      if (!known.includes(key)) {
        warnings.push(
          `config ${layer.file}: ${section}.${key}: unknown setting, ignored${
            didYouMean(key, known)
          } (see mcpx config --schema)`,
        );
      }
    }
  }
}

function settingError(
  decl: SettingDeclaration,
  source: SettingSource,
  raw: unknown,
  error: Error,
): Error {
  const detail = `${error.message}, got ${describeValue(raw)}`;
  if (source.startsWith("file:")) {
    return new ConfigError(
      source.slice(5),
      decl.name,
      `${detail}; fix the value (default ${JSON.stringify(decl.default)})`,
      { cause: error },
    );
  }
  if (source.startsWith("env:")) {
    const variable = source.slice(4);
    return new ConfigError(
      "environment",
      variable,
      `setting ${decl.name} ${detail}; export a valid value or unset ${variable}`,
      { cause: error },
    );
  }
  return new UsageError(`${source.slice(5)}: setting ${decl.name} ${detail}`, { cause: error });
}
