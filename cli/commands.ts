/**
 * Every CLI command, declared once: name, usage, one line of help, its own
 * options, and the module that runs it (loaded only when that command runs,
 * so `mcpx ls` never pays for the MCP SDK or the type generator).
 *
 * @module
 */

import type { CliContext } from "./context.ts";

/** An option of one command, in `node:util` parseArgs form plus help. */
export interface CommandOption {
  type: "string" | "boolean";
  short?: string;
  multiple?: boolean;
  help: string;
  /** The setting this option sets (e.g. `catalog.budget` for `--budget`). */
  setting?: string;
}

/** What a command module exports. */
export interface CommandModule {
  run(ctx: CliContext, positionals: string[], options: Record<string, unknown>): Promise<number>;
}

/** One command. */
export interface Command {
  name: string;
  usage: string;
  summary: string;
  options: Record<string, CommandOption>;
  /** Most positional arguments the command takes (absent: any number). */
  maxArgs?: number;
  /**
   * Options end at the first positional (`mcpx run script --flag` hands
   * `--flag` to the script), as `deno run` and `node` do.
   */
  stopAtPositional?: boolean;
  load(): Promise<CommandModule>;
}

/** Options of `mcpx run` and `mcpx exec` (spec 000, "The script contract", "The launcher is replaceable"). */
const SCRIPT_OPTIONS: Record<string, CommandOption> = {
  export: { type: "string", help: "call this named export with the arguments spread" },
  runtime: { type: "string", help: "deno, bun or node (default: deno)", setting: "script.runtime" },
  env: {
    type: "string",
    multiple: true,
    help: "KEY=VALUE for the script's environment (repeatable)",
  },
  "env-file": {
    type: "string",
    multiple: true,
    help: "a dotenv file of KEY=VALUE lines (repeatable)",
  },
  launcher: { type: "string", help: "replace the launcher template (source, file or directory)" },
  "no-launcher": {
    type: "boolean",
    help: "hand the script to the runtime bare: no globals, no capture",
  },
  prefix: {
    type: "string",
    multiple: true,
    help: "code run before the script is imported (source, file or directory)",
  },
  suffix: { type: "string", multiple: true, help: "code run after it, in finally; sees `result`" },
  before: { type: "string", multiple: true, help: "code run before anything else in the launcher" },
  "on-success": { type: "string", multiple: true, help: "code run when the entry returned" },
  "on-error": { type: "string", multiple: true, help: "code run when the script threw" },
  "no-capture-console": { type: "boolean", help: "leave console.* as the runtime has it" },
  "log-level": {
    type: "string",
    help: "least severe script record shown: debug, info, warn, error",
    setting: "logging.level",
  },
  "log-source": {
    type: "string",
    help: "record call sites from this level up (true: all, false: none)",
    setting: "logging.source",
  },
  format: {
    type: "string",
    help: "how records are shown: pretty, logfmt or json",
    setting: "logging.format",
  },
  typecheck: {
    type: "boolean",
    help: "type-check the generated program first (deno only)",
    setting: "script.typecheck",
  },
  timeout: { type: "string", help: "stop the script after this long (e.g. 5m)" },
};

/** The commands in the order `mcpx --help` lists them. */
export const COMMANDS: Command[] = [
  {
    name: "ls",
    maxArgs: 0,
    usage: "mcpx ls",
    summary:
      "list namespaces: tools, sharing, scope, live instances, state (from the schema cache)",
    options: {},
    load: () => import("./ls.ts"),
  },
  {
    name: "search",
    usage: "mcpx search <words…> [--tag T] [--explain] [-n N]",
    summary: "find tools by name, tag and description, ranked",
    options: {
      tag: { type: "string", help: "only tools carrying this tag (exact)" },
      explain: { type: "boolean", help: "show the per-term, per-field scores behind each hit" },
      limit: {
        type: "string",
        short: "n",
        help: "most results (default 20)",
        setting: "search.limit",
      },
    },
    load: () => import("./search.ts"),
  },
  {
    name: "types",
    usage: "mcpx types <namespace>[.<tool>] …",
    summary: "TypeScript signatures of whole namespaces, or of just the tools named",
    options: {},
    load: () => import("./types.ts"),
  },
  {
    name: "catalog",
    maxArgs: 0,
    usage: "mcpx catalog [--budget TOKENS] [--bias words]",
    summary: "every namespace plus as many signatures as fit a token budget",
    options: {
      budget: {
        type: "string",
        help: "most tokens the block may take (default 2000)",
        setting: "catalog.budget",
      },
      bias: { type: "string", help: "words whose tools are shown first", setting: "catalog.bias" },
    },
    load: () => import("./catalog.ts"),
  },
  {
    name: "call",
    usage: "mcpx call <namespace>.<tool> [json | - | @file]",
    summary: "call one tool with JSON arguments, no script runtime involved",
    options: {
      raw: { type: "boolean", help: "print the whole MCP result envelope" },
      timeout: { type: "string", help: "cancel the call after this long (e.g. 30s)" },
    },
    load: () => import("./call.ts"),
  },
  {
    name: "run",
    usage:
      "mcpx run [--export NAME] [--runtime deno|bun|node] [--env K=V] … <name|path> [args…]  (options before the name; after it, everything is the script's)",
    summary: "run a script (a name from `mcpx scripts`, or a path) with the generated client",
    stopAtPositional: true,
    options: SCRIPT_OPTIONS,
    load: () => import("./run.ts"),
  },
  {
    name: "exec",
    usage: "mcpx exec [--env K=V] … '<code>' | - [args…]",
    summary: "run TypeScript given inline (or on stdin with -); every namespace is a global",
    stopAtPositional: true,
    options: SCRIPT_OPTIONS,
    load: () => import("./exec.ts"),
  },
  {
    name: "scripts",
    maxArgs: 0,
    usage: "mcpx scripts",
    summary: "named scripts reachable from here: name, description, path (shadowed ones marked)",
    options: {},
    load: () => import("./scripts.ts"),
  },
  {
    name: "client",
    maxArgs: 0,
    usage: "mcpx client -o <path>",
    summary: "write the generated typed client (mcpx-client.ts) for a checked-in script",
    options: {
      output: {
        type: "string",
        short: "o",
        help: "file to write (a directory gets mcpx-client.ts)",
      },
    },
    load: () => import("./client.ts"),
  },
  {
    name: "session",
    usage: "mcpx session new [--name N] [--ttl 30m] | ls | end <name>",
    summary: "named sessions: lease keys that outlive the process that made them",
    options: {
      name: { type: "string", help: "the session's name (default: a fresh one)" },
      ttl: { type: "string", help: "end the session after this long unused (e.g. 30m)" },
    },
    load: () => import("./session.ts"),
  },
  {
    name: "status",
    maxArgs: 0,
    usage: "mcpx status",
    summary: "live instances: pid, key, holders, uptime, calls, last error and stderr tail",
    options: {},
    load: () => import("./status.ts"),
  },
  {
    name: "refresh",
    usage: "mcpx refresh [namespace…]",
    summary: "list servers again and rewrite the schema cache",
    options: {},
    load: () => import("./refresh.ts"),
  },
  {
    name: "restart",
    usage: "mcpx restart <namespace> [--session <key>]",
    summary:
      "stop a namespace's instances (or one session's, with --session); the next call starts fresh ones",
    options: {},
    load: () => import("./restart.ts"),
  },
  {
    name: "trust",
    maxArgs: 1,
    usage: "mcpx trust [file] | --list",
    summary:
      "let mcpx start the servers of a project's configuration as written now (for a person, not an agent)",
    options: { list: { type: "boolean", help: "the trusted files, and which changed since" } },
    load: () => import("./trust.ts"),
  },
  {
    name: "untrust",
    maxArgs: 1,
    usage: "mcpx untrust [file]",
    summary: "take back `mcpx trust`: start none of that configuration's servers",
    options: {},
    load: async () => ({ run: (await import("./trust.ts")).untrust }),
  },
  {
    name: "config",
    maxArgs: 0,
    usage: "mcpx config [--schema] [--plumbing]",
    summary: "every resolved setting and where it came from; --schema prints the declarations",
    options: {
      schema: { type: "boolean", help: "print every setting's declaration" },
      plumbing: { type: "boolean", help: "include internal switches" },
    },
    load: () => import("./config_cmd.ts"),
  },
  {
    name: "daemon",
    maxArgs: 0,
    usage: "mcpx daemon",
    summary: "run this configuration's daemon in the foreground (stays up)",
    options: {},
    load: () => import("./daemon_cmd.ts"),
  },
  {
    name: "daemons",
    maxArgs: 0,
    usage: "mcpx daemons",
    summary: "list every live daemon with its configuration",
    options: {},
    load: () => import("./daemons.ts"),
  },
  {
    name: "stop",
    maxArgs: 0,
    usage: "mcpx stop [--all]",
    summary: "stop this configuration's daemon (and its servers), or every daemon",
    options: {
      all: { type: "boolean", help: "stop every daemon that uses this state directory" },
    },
    load: () => import("./stop.ts"),
  },
  {
    name: "log",
    usage:
      "mcpx log [--since 1h] [--level warn] [--event 'server.*'] [--server S] [--session K] [--grep RE] [-n N] [-f] | --chain [id] | sql '<select …>' [--schema] [--path]",
    summary: "the durable log: records newest last, a call's chain, or a read-only SQL query",
    options: {
      since: {
        type: "string",
        help: "records since a duration ago (1h, 2d) or a time (2026-10-01T12:00)",
      },
      level: { type: "string", help: "least severe level shown: debug, info, warn, error" },
      event: {
        type: "string",
        help: "event names or globs, comma-separated ('server.*,call.end')",
      },
      server: { type: "string", help: "records of one server" },
      grep: { type: "string", help: "regular expression over the message and the attributes" },
      limit: { type: "string", short: "n", help: "most records (the newest; default 100)" },
      follow: { type: "boolean", short: "f", help: "keep printing records as they arrive" },
      chain: {
        type: "boolean",
        help: "the call (or span, or record) <id> and what led to it; no id: recent calls",
      },
      schema: { type: "boolean", help: "with sql: print the index's tables and views" },
      path: { type: "boolean", help: "with sql: print the index file's path" },
    },
    load: () => import("./log.ts"),
  },
  {
    name: "stats",
    maxArgs: 1,
    usage: "mcpx stats [calls|slowest|servers|instances|errors|sessions|volume] [--since T] [-n N]",
    summary: "aggregates of the log: latency percentiles, slowest calls, processes, errors, volume",
    options: {
      since: { type: "string", help: "only what happened since a duration ago (1h) or a time" },
      limit: {
        type: "string",
        short: "n",
        help: "most rows (slowest, instances, errors, sessions)",
      },
    },
    load: () => import("./stats.ts"),
  },
];

/** Options every command accepts. */
export const GLOBAL_OPTIONS: Record<string, CommandOption> = {
  json: { type: "boolean", help: "machine-readable JSON output", setting: "output.json" },
  config: {
    type: "string",
    help: "use this configuration file (else MCPX_CONFIG, else discovery)",
  },
  session: { type: "string", help: "session key for scoped servers (else MCPX_SESSION_ID)" },
  profile: {
    type: "string",
    multiple: true,
    help: "also see the servers of this profile (repeatable, or a,b)",
    setting: "profiles.active",
  },
  "skip-default": {
    type: "boolean",
    help: "with --profile: only that profile's servers, not the default set",
    setting: "profiles.skipDefault",
  },
  "all-profiles": {
    type: "boolean",
    help: "see every configured server, whatever its profiles",
    setting: "profiles.all",
  },
  help: { type: "boolean", short: "h", help: "show help" },
  version: { type: "boolean", short: "V", help: "print the version" },
};
