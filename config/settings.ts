/**
 * The settings registry: every knob declared once, then readable from a
 * configuration file at its dotted path, from an `MCPX_…` variable and from a
 * `--flag`, with precedence defaults < files (nearest last) < environment <
 * flags (config/resolve_settings.ts). Every resolved value remembers where it
 * came from and what it overrode.
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

import { ConfigError } from "../core/errors.ts";
import { describeValue } from "./_describe.ts";
import { didYouMean } from "./_suggest.ts";
import type { SettingDeclaration, SettingType, SettingValue } from "./setting_value.ts";
import { settingEnvName } from "./setting_names.ts";
import { PATH_SETTINGS } from "./settings_paths.ts";
import { REACH_SETTINGS } from "./settings_reach.ts";
import { DAEMON_SETTINGS } from "./settings_daemon.ts";
import { LOG_BOUND_SETTINGS } from "./settings_log_bounds.ts";
import { HOOK_SETTINGS, HOOKS_BLOCK, HOOKS_SECTION } from "./settings_hooks.ts";

export { settingEnvName, settingFlagName } from "./setting_names.ts";

export {
  acceptedForm,
  parsePathList,
  type ParseSettingOptions,
  parseSettingValue,
  type SettingDeclaration,
  type SettingType,
  type SettingValue,
} from "./setting_value.ts";

/**
 * Every setting mcpx has, declared once. Add a knob here and it is readable
 * from a file, a variable and a flag, and typed for its readers
 * ({@link settingOf}).
 */
const DECLARED = [
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
  ...DAEMON_SETTINGS,
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
    name: "logging.dir",
    type: "path",
    default: "",
    help: "Directory of the durable log (JSONL files and index.db); empty means <paths.state>/logs",
  },
  ...LOG_BOUND_SETTINGS,
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
    name: "discovery.wait",
    type: "duration",
    default: "1s",
    help:
      "How long from its start `ls`, `search`, `types`, `catalog` and a script run wait for a server's first listing before treating the server as starting (`--wait` waits longer)",
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
    name: "log.sqlTimeout",
    type: "duration",
    default: "10s",
    help: "`mcpx log sql` stops a statement that runs longer than this (0 = no limit)",
  },
  {
    name: "log.sqlMaxRows",
    type: "int",
    min: 1,
    default: "1000",
    help: "`mcpx log sql` prints at most this many rows and says where it stopped",
  },
  {
    name: "log.sqlMaxBytes",
    type: "int",
    min: 1024,
    default: "8388608",
    help: "`mcpx log sql` returns at most this many bytes of JSON, and no longer value",
  },
  {
    name: "cache.maxAge",
    type: "duration",
    default: "14d",
    // Compared with file times, never a timer: longer than 24 days is fine.
    maxMs: Infinity,
    help:
      "Launchers, generated clients, schema caches and compiled configurations unused this long are removed by the daemon (0 = keep them)",
  },
  {
    name: "input.maxBytes",
    type: "int",
    min: 1024,
    default: "67108864",
    help:
      "The most bytes mcpx reads of one input it takes whole: call arguments from @file or -, exec code from -, --env-file, --prefix/--launcher sources, placeholder files, a script",
  },
  {
    name: "listing.maxPages",
    type: "int",
    min: 1,
    default: "1000",
    help:
      "Most pages mcpx follows of one server's prompts, resources or templates listing before it stops with an error (the schema cache's tools listing keeps the default)",
  },
  {
    name: "listing.maxItems",
    type: "int",
    min: 1,
    default: "100000",
    help:
      "Most prompts, resources or templates one server's listing may hold (the schema cache's tools listing keeps the default)",
  },
  {
    name: "response.maxBytes",
    type: "int",
    min: 1024,
    default: "16777216",
    help:
      "Most bytes (as JSON) of one server answer to a listing page, prompts/get or resources/read",
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
    name: "script.typecheck",
    type: "bool",
    default: "false",
    help:
      "Type-check a script's generated program before `mcpx run` starts it (deno only; --typecheck)",
  },
  {
    name: "script.permissions",
    type: "string",
    default: "all",
    help:
      "What a script may do: all (no sandbox), none, or a list of read,write,net,env,run,sys,ffi,import; narrower than all runs it in a bubblewrap sandbox (Linux; refused where none can run) and is refused under a runtime that cannot enforce it; the environment is inherited unfiltered under every level (docs/scripts.md)",
  },
  ...PATH_SETTINGS,
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
    name: "plumbing.allowTsJsOverlap",
    type: "bool",
    default: "false",
    plumbing: true,
    help: "Let a script name match both <name>.ts and <name>.js in one place; the .ts runs",
  },
  {
    name: "plumbing.version",
    type: "string",
    default: "",
    plumbing: true,
    help: "Overrides the version the daemon reports (for tests of upgrade handling)",
  },
  {
    name: "protocol.default",
    type: "enum",
    values: ["legacy", "auto", "preferModern", "modern"],
    default: "auto",
    help:
      "Protocol era of a server whose entry sets no mcpx.protocol: legacy (initialize only), auto (over stdio initialize, then 2026-07-28 for a modern-only server; over HTTP as preferModern), preferModern (2026-07-28 first), modern (2026-07-28 only)",
  },
  {
    name: "tasks.ttl",
    type: "duration",
    default: "5m",
    minMs: 1,
    maxMs: 86_400_000,
    help:
      "How long a task mcpx makes (mcpx call --task, or a task-only tool called plainly) may live: the TTL asked of the server and how long the daemon remembers the task's instance (never unbounded)",
  },
  {
    name: "events.retention",
    type: "int",
    min: 1,
    default: "10000",
    help:
      "How many events the daemon's event bus keeps for replay (GET /v1/events, mcpx events); a reader further behind gets a gap event",
  },
  {
    name: "elicit.timeout",
    type: "duration",
    default: "10m",
    minMs: 1000,
    maxMs: 86_400_000,
    help:
      "How long a question a server asks (elicitation, sampling) stays open for an answer; then the server hears cancel and the call's callTimeout runs on",
  },
  {
    name: "elicit.inputRounds",
    type: "int",
    min: 1,
    default: "8",
    help:
      "Most input_required rounds one request to a 2026-07-28 server may take (each answers the server's questions and sends the request again)",
  },
  {
    name: "oauth.clientMetadataUrl",
    type: "string",
    default: "",
    help:
      "The HTTPS URL of a client ID metadata document describing mcpx, used as its client id by an authorization server that accepts them; empty means register dynamically",
  },
  ...REACH_SETTINGS,
  ...HOOK_SETTINGS,
  {
    name: "sessions.attach",
    type: "enum",
    values: ["same-user", "owner-only", "none"],
    default: "same-user",
    userOnly: true,
    help:
      "Who may attach to a named session (`mcpx session attach`): same-user, any caller of the daemon (its socket admits only its user); owner-only, callers under the MCPX_PARENT_SESSION_ID that made it; none, nobody (decision 0085)",
  },
  {
    name: "security.trustProjectConfigs",
    type: "enum",
    values: ["ask", "always"],
    default: "ask",
    userOnly: true,
    help:
      "ask: start no server of a project's configuration until `mcpx trust` records it; always: no check (CI, tests); not read from project files",
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
] as const satisfies readonly SettingDeclaration[];

/** Every setting mcpx has (the declarations, read as their common shape). */
export const SETTINGS: readonly SettingDeclaration[] = DECLARED;

/** The name of a setting mcpx has (`search.limit`, `logging.trace`, …). */
export type SettingName = typeof DECLARED[number]["name"];

/** The value type of a setting type: ints and durations (ms) are numbers, bools booleans, the rest strings. */
type ValueOfType<T extends SettingType> = T extends "int" | "duration" ? number
  : T extends "bool" ? boolean
  : string;

/** The typed value of the setting `N`, from its declaration in {@link SETTINGS}. */
export type SettingValueOf<N extends SettingName> = ValueOfType<
  Extract<typeof DECLARED[number], { name: N }>["type"]
>;

/**
 * The typed value of `name` in resolved settings: the one place a setting's
 * value is narrowed from {@link SettingValue} to its declared type, so callers
 * need no `Number(…)`, `String(…)` or `as`.
 *
 * @param settings What {@link resolveSettings} resolved.
 * @param name A declared setting.
 */
export function settingOf<N extends SettingName>(
  settings: { values: Record<string, { value: SettingValue }> },
  name: N,
): SettingValueOf<N> {
  return settings.values[name].value as SettingValueOf<N>;
}

const BY_NAME = new Map(SETTINGS.map((s) => [s.name, s]));

/**
 * Keys of a settings section that hold declarations rather than a setting
 * (`hooks.observe`: config/hooks.ts), as dotted paths: read by their own
 * parsers, not reported as unknown settings, and part of the section for trust.
 */
export const SECTION_DECLARATIONS: readonly string[] = [`${HOOKS_SECTION}.${HOOKS_BLOCK}`];

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
