/**
 * One `mcpx` command line: argv → command → output, with the command modules
 * from a loader the entry gives (cli/main.ts: every command, cli/commands.ts;
 * cli/warm.ts: the warm ones, bundled into cli/mcpx.bundle.js). Errors print
 * one `error:` line (plus suggestions), never a stack; a usage error also
 * prints the command's help and exits 2 (exit codes: core/errors.ts `EXIT`).
 *
 * @module
 */

import { OP_ROWS } from "../ops/_table.gen.ts";
import type { OpRow } from "../ops/gen.ts";
import type { CliFlag } from "../ops/op.ts";
import { GLOBAL_FLAGS as GLOBAL_OPTIONS } from "../ops/global_flags.ts";
import type { CommandModule } from "./commands.ts";
import { inputOf } from "./argv_input.ts";
import { readSyntaxFields } from "./syntax_fields.ts";
import { CliContext } from "./context.ts";
import type { ContextOptions } from "./context_settings.ts";
import { jsonWithoutFiles } from "./output_mode.ts";
import { runHandler } from "./outcome_render.ts";
import { type Io, processIo } from "../core/io.ts";
import {
  errorToJson,
  exitCodeOf,
  McpxError,
  NotFoundError,
  RunInCallerError,
  ServerError,
  storageProblem,
  UsageError,
} from "../core/errors.ts";
import { settingFlags } from "../config/setting_schema.ts";
import { nearest } from "../core/nearest.ts";
import { VERSION } from "../core/version.ts";
import { tailExcerpt } from "../core/tail_buffer.ts";
import type { Redactor } from "../core/redact.ts";
import { takePosted } from "../core/notice_queue.ts";

/** A command: an op the command line can name. */
type Command = OpRow & { cli: NonNullable<OpRow["cli"]> };

/** The ops with a command, in help order. */
const COMMANDS: Command[] = OP_ROWS.filter((op): op is Command => op.cli !== undefined);

type ParseOptions = Record<
  string,
  { type: "string" | "boolean"; short?: string; multiple?: boolean }
>;

/** Loads the module of the op `name` (cli/commands.ts `loadCommand`). */
export type CommandLoader = (name: string) => Promise<CommandModule>;

/**
 * The op name of the command argv names (`mcpx help call`: `call`), or
 * undefined when it names none (`mcpx` off a terminal, `mcpx --version`).
 * `mcpx --tui`, and `mcpx` with no command on a terminal, name `tui`
 * (spec 000, "The browser").
 *
 * @param argv Arguments after `mcpx`.
 * @param terminal Whether stdin and stdout are terminals ({@link onTerminal}).
 * @throws {UsageError} For an unknown command word.
 */
export function commandNameOf(argv: string[], terminal = false): string | undefined {
  return findCommand(argv, terminal).command?.name;
}

/**
 * Whether this process's stdin and stdout are both terminals: what `mcpx`
 * with no command needs to open the browser rather than print its usage.
 * `isTerminal` asks the kernel for the terminal's attributes (isatty), so
 * stdin from /dev/null, a character device, is not one.
 */
export function onTerminal(): boolean {
  return Deno.stdin.isTerminal() && Deno.stdout.isTerminal();
}

/**
 * Runs one command line.
 *
 * @param argv Arguments after `mcpx`.
 * @param loadCommand The module of each op the command line may name.
 * @returns The exit code (0 ok, 1 failure, 2 usage).
 */
export async function runCommandLine(
  argv: string[],
  loadCommand: CommandLoader,
  io: Io = processIo,
  env: Record<string, string> = Deno.env.toObject(),
  cwd: string = Deno.cwd(),
  caller: Pick<ContextOptions, "callerPid" | "signal" | "shared" | "spawner"> = {},
): Promise<number> {
  let command: Command | undefined;
  // A word after `help` that names no command: the help topic asked for.
  let topic: string | undefined;
  let ctx: CliContext | undefined;
  // The setting flags as parsed; until parsing succeeds, only a `--json` before any operand.
  let flags: Record<string, string | boolean> | undefined;
  try {
    let helpWord: boolean;
    // Only the process's own streams can be drawn on: a relayed or captured run never opens it.
    const terminal = io === processIo && onTerminal();
    ({ command, help: helpWord, topic } = findCommand(argv, terminal));
    const { values, positionals, settingValues, flagSpellings } = await parse(argv, command);
    flags = settingValues;
    if (values.tui && command && command.name !== "tui") {
      throw new UsageError(
        `--tui opens the browser and takes no command; run \`mcpx tui\` or \`mcpx ${command.cli.command}\``,
      );
    }
    if (values.version) {
      io.out(`mcpx ${VERSION}\n`);
      return 0;
    }
    if (!command || values.help || helpWord) {
      io.out(command ? help(command) : await guideHelp(topic));
      return 0;
    }
    const options = {
      io,
      env,
      cwd,
      configPath: values.config as string | undefined,
      session: values.session as string | undefined,
      flags: settingValues,
      flagSpellings,
      ...caller,
    };
    let words = positionals.slice(1);
    // A server named on the command line (a URL, `--stdio`): its own generated configuration.
    if (
      values.stdio !== undefined || values.header !== undefined || /^https?:/i.test(words[0] ?? "")
    ) {
      const { directCommand } = await import("./direct_target.ts");
      const { stateDir } = new CliContext(options).paths();
      const direct = await directCommand(command.name, words, values, stateDir, cwd);
      if (direct) {
        words = direct.words;
        Object.assign(options, { configPath: direct.configPath, direct: direct.target });
      }
    }
    ctx = new CliContext(options);
    // What the command line's syntax offers (JSON as text, @file or -; 30s) is read once, here.
    const input = await readSyntaxFields(ctx, command, inputOf(command, words, values));
    const module = await loadCommand(command.name);
    try {
      return await runHandler(ctx, module, input);
    } finally {
      // The daemon inside the command (daemon.inline) ends with it, with its servers.
      await ctx.close();
      printPosted(io);
    }
  } catch (error) {
    // Not the command's failure: the process it runs in (the front) must hand it back.
    if (error instanceof RunInCallerError) throw error;
    printPosted(io);
    const json = await jsonOutput(ctx, { io, env, cwd, flags: flags ?? flagsOf(argv) });
    const redactor = await redactorOf(ctx);
    if (json) io.out(JSON.stringify({ ok: false, error: errorDocument(error, redactor) }) + "\n");
    const code = report(io, error, command, redactor, topic !== undefined);
    // A namespace the configuration in use does not have may be in a file it shadows.
    if (ctx && error instanceof NotFoundError && error.namespace !== undefined) {
      const { noteShadowed } = await import("./discovery/shadow_note.ts");
      await noteShadowed(ctx);
    }
    // A server named on the command line that failed: what to check, in terms of that command line.
    if (ctx?.direct && error instanceof ServerError) {
      const { directFix } = await import("../config/direct_target.ts");
      io.err(`${directFix(ctx.direct)}\n`);
    }
    return code;
  }
}

/**
 * Whether an error prints its JSON document: decided as the command's answer
 * is (SettingsContext.json: flag, environment, configuration), by the
 * command's context, or, for a command line that failed before it had one, by
 * a context of the working directory with `--json` if argv holds it.
 */
async function jsonOutput(ctx: CliContext | undefined, bare: ContextOptions): Promise<boolean> {
  try {
    return await (ctx ?? new CliContext(bare)).json();
  } catch {
    return jsonWithoutFiles(bare.flags, bare.env);
  }
}

/** `--json` from a command line that may not have parsed: the only setting flag read from it. */
function flagsOf(argv: string[]): Record<string, string | boolean> {
  const end = argv.indexOf("--");
  return (end < 0 ? argv : argv.slice(0, end)).includes("--json") ? { "output.json": true } : {};
}

/**
 * The configuration's redactor (config/secrets.ts), for what an error prints:
 * one without known secrets (URL credentials only) when no configuration
 * could be loaded. Loaded only when there is an error to print.
 */
async function redactorOf(ctx: CliContext | undefined): Promise<Redactor> {
  const { Redactor } = await import("../core/redact.ts");
  if (!ctx) return new Redactor();
  try {
    const { configRedactor } = await import("../config/secrets.ts");
    return configRedactor(await ctx.config(), ctx.env);
  } catch {
    return new Redactor();
  }
}

/**
 * The command argv names, and whether it came after `help` (`mcpx help call`
 * asks for that command's help); a word after `help` that is no command is
 * the `topic` asked for (`mcpx help slow-tools`; cli/help_topics.ts says
 * whether there is one). No command word: `tui` when `--tui` is given, or on
 * a `terminal` unless help or the version is asked for.
 * @throws {UsageError} For an unknown command.
 */
function findCommand(
  argv: string[],
  terminal = false,
): { command?: Command; help: boolean; topic?: string } {
  let help = false;
  const valued = new Set(
    [...Object.entries(GLOBAL_OPTIONS)]
      .filter(([, o]) => o.type === "string")
      .map(([name]) => `--${name}`)
      .concat(settingFlags().filter((f) => f.type !== "bool").map((f) => f.flag)),
  );
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === "--") return { help };
    if (arg.startsWith("-")) {
      if (valued.has(arg)) i++;
      continue;
    }
    const command = COMMANDS.find((c) => c.cli.command === arg);
    if (command) return { command, help };
    if (arg === "help") {
      help = true;
      continue;
    }
    if (help) return { help, topic: arg };
    const near = nearest(arg, COMMANDS.filter((c) => !c.cli.hidden).map((c) => c.cli.command));
    throw new UsageError(
      `unknown command "${arg}"${near.length ? `; did you mean ${near.join(" or ")}?` : ""}`,
    );
  }
  const end = argv.indexOf("--");
  const flags = end < 0 ? argv : argv.slice(0, end);
  const asks = ["--help", "-h", "--version", "-V"].some((flag) => flags.includes(flag));
  if (!help && (flags.includes("--tui") || (terminal && !asks))) {
    return { command: COMMANDS.find((c) => c.name === "tui"), help };
  }
  return { help };
}

async function parse(argv: string[], command: Command | undefined) {
  const options: ParseOptions = {};
  const settingOf = new Map<string, string>();
  const add = (name: string, o: CliFlag) => {
    options[name] = {
      type: o.type,
      ...(o.short ? { short: o.short } : {}),
      ...(o.multiple ? { multiple: true } : {}),
    };
    if (o.setting) settingOf.set(name, o.setting);
  };
  for (const [name, o] of Object.entries(GLOBAL_OPTIONS)) add(name, o);
  for (const [name, o] of Object.entries(command?.cli.flags ?? {})) add(name, o);
  for (const flag of settingFlags()) {
    if (!flag.flag.startsWith("--")) continue;
    const name = flag.flag.slice(2);
    if (options[name]) continue;
    options[name] = { type: flag.type === "bool" ? "boolean" : "string" };
    settingOf.set(name, flag.name);
  }
  // A flag whose value may be left out (`--wait`) stands for its bare value (ops/op.ts `bare`).
  const bare = new Map(
    Object.entries(command?.cli.flags ?? {}).filter(([, o]) => o.bare !== undefined)
      .map(([name, o]) => [`--${name}`, `--${name}=${o.bare}`]),
  );
  if (bare.size) {
    const end = argv.indexOf("--");
    argv = argv.map((a, i) => (end >= 0 && i > end) ? a : bare.get(a) ?? a);
  }
  // `mcpx run script --flag`: everything from the script's name on is the script's.
  let rest: string[] = [];
  if (command?.cli.stopAtPositional) {
    const cut = firstScriptArgument(argv, command.cli.command, options);
    if (cut >= 0) {
      rest = argv.slice(cut);
      argv = argv.slice(0, cut);
    }
  }
  const parsed = await parseFlags(argv, options, settingOf);
  parsed.positionals.push(...rest);
  return parsed;
}

/**
 * Index of the first argument after the command word that is not an option
 * or an option's value (`--` skipped over), or -1.
 */
function firstScriptArgument(argv: string[], commandName: string, options: ParseOptions): number {
  const start = argv.indexOf(commandName);
  const short = new Map(
    Object.entries(options).filter(([, o]) => o.short).map(([n, o]) => [o.short!, n]),
  );
  for (let i = start + 1; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === "--") return i + 1 < argv.length ? i + 1 : -1;
    if (arg === "-" || !arg.startsWith("-")) return i;
    if (arg.includes("=")) continue;
    const name = arg.startsWith("--") ? arg.slice(2) : short.get(arg.slice(1)) ?? "";
    if (options[name]?.type === "string") i++;
  }
  return -1;
}

async function parseFlags(
  argv: string[],
  options: ParseOptions,
  settingOf: Map<string, string>,
) {
  // The common shapes — no options, or only known boolean `--flags` — need no
  // parser; anything else goes to node:util parseArgs, whose compatibility
  // layer costs ~8–20 ms of start-up (decision 0002).
  const isBooleanFlag = (a: string) =>
    a.startsWith("--") && options[a.slice(2)]?.type === "boolean";
  if (argv.every((a) => !a.startsWith("-") || isBooleanFlag(a))) {
    const values: Record<string, unknown> = {};
    const settingValues: Record<string, string | boolean> = {};
    const flagSpellings: Record<string, string> = {};
    for (const flag of argv.filter(isBooleanFlag)) {
      const name = flag.slice(2);
      values[name] = true;
      const setting = settingOf.get(name);
      if (setting) {
        settingValues[setting] = true;
        flagSpellings[setting] = flag;
      }
    }
    return {
      values,
      positionals: argv.filter((a) => !a.startsWith("-")),
      settingValues,
      flagSpellings,
    };
  }
  const { parseArgs } = await import("node:util");
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options, allowPositionals: true, strict: true });
  } catch (error) {
    // parseArgs writes several sentences over several lines; keep the problem and its fix.
    const lines = (error as Error).message.split("\n");
    const fix = lines.find((l) => /^To specify/.test(l));
    const message = lines[0].split(". ")[0].replace(/\.$/, "") +
      (fix ? ` (${fix.replace(/\.$/, "")})` : "");
    const flag = message.match(/'(-{1,2}[^' ]+)'/)?.[1];
    const near = flag && !(flag.replace(/^-+/, "") in options)
      ? nearest(flag.replace(/^-+/, ""), Object.keys(options))
      : [];
    throw new UsageError(`${message}${near.length ? `; did you mean --${near[0]}?` : ""}`);
  }
  const settingValues: Record<string, string | boolean> = {};
  const flagSpellings: Record<string, string> = {};
  for (const [name, value] of Object.entries(parsed.values)) {
    const setting = settingOf.get(name);
    if (setting && value !== undefined) {
      settingValues[setting] = value as string | boolean;
      flagSpellings[setting] = options[name].short && !argv.includes(`--${name}`)
        ? `-${options[name].short}`
        : `--${name}`;
    }
  }
  return {
    values: parsed.values as Record<string, unknown>,
    positionals: parsed.positionals,
    settingValues,
    flagSpellings,
  };
}

/** The help text: every command, or one command's usage and options. */
export function help(command?: Command): string {
  const lines: string[] = [];
  const optionLines = (opts: Readonly<Record<string, CliFlag & { help: string }>>) =>
    Object.entries(opts).map(([name, o]) => {
      const flag = `${o.short ? `-${o.short}, ` : "    "}--${name}${
        o.bare !== undefined ? "[=<value>]" : o.type === "string" ? " <value>" : ""
      }`;
      return `  ${flag.padEnd(26)} ${o.help}`;
    });
  if (command) {
    lines.push(`usage: ${command.cli.usage}`, "", command.cli.summary);
    if (Object.keys(command.cli.flags ?? {}).length) {
      lines.push("", "options:", ...optionLines(command.cli.flags ?? {}));
    }
    lines.push("", "global options:", ...optionLines(GLOBAL_OPTIONS));
  } else {
    lines.push(
      `mcpx ${VERSION} — every MCP server behind one command`,
      "",
      "usage: mcpx <command> [options]",
      "",
      "commands:",
      ...COMMANDS.filter((c) => !c.cli.hidden).map((c) =>
        `  ${c.cli.command.padEnd(10)} ${c.cli.summary}`
      ),
      "",
      "global options:",
      ...optionLines(GLOBAL_OPTIONS),
      "",
      "`mcpx help <command>` shows one command's options; `mcpx help <topic>` prints a topic.",
      "Every setting is also a flag (`mcpx config --schema` lists them).",
      "Start with `mcpx ls`, then `mcpx search <words>`, then `mcpx types <namespace>`.",
    );
  }
  return lines.join("\n") + "\n";
}

/**
 * `mcpx help` with no command: every command, then the guide's topics; or,
 * given a topic, its text. The topics' module and text are loaded only here
 * (cli/help_topics.ts; decision 0070).
 *
 * @throws {UsageError} When `topic` is neither a topic nor a command.
 */
async function guideHelp(topic: string | undefined): Promise<string> {
  const { topicText, topicsSection } = await import("./help_topics.ts");
  if (topic === undefined) return help() + await topicsSection();
  const commands = COMMANDS.filter((c) => !c.cli.hidden).map((c) => c.cli.command);
  return await topicText(topic, commands);
}

/**
 * The error as `--json` prints it on stdout, so a caller parsing stdout gets a
 * document either way: `{ ok: false, error: { code, message, suggestions?, stderrTail? } }`,
 * with the configuration's secrets shown as their references (decision 0017).
 */
export function errorDocument(
  error: unknown,
  redactor?: Pick<Redactor, "json">,
): Record<string, unknown> {
  return errorToJson(error, redactor);
}

/**
 * Prints what this process queued for the person at the shell while the
 * command ran (a damaged state file moved aside, core/damaged_json.ts), one
 * `warning:` line each; the daemon's own notices arrive with its answers.
 */
function printPosted(io: Io): void {
  for (const notice of takePosted()) io.err(`warning: ${notice.message}\n`);
}

function report(
  io: Io,
  error: unknown,
  command: Command | undefined,
  redactor: Pick<Redactor, "text">,
  helpTopic = false,
): number {
  // What an error says may hold a server's echo of a secret: shown as its reference.
  const say = (text: string) => io.err(redactor.text(text));
  if (error instanceof UsageError) {
    // The usage line, not the whole help: an agent pays for every line printed.
    let usage = "mcpx <command> [options]";
    if (command) usage = command.cli.usage;
    else if (helpTopic) usage = "mcpx help [<command> | <topic>]";
    say(`usage: ${usage}\n`);
    say(`error: ${error.message}\n`);
    say(`(\`mcpx ${command ? `${command.cli.command} ` : ""}--help\` shows every option)\n`);
    return exitCodeOf(error);
  }
  if (error instanceof McpxError) {
    say(`error: ${error.message}\n`);
    if (
      error instanceof NotFoundError && error.suggestions.length &&
      !/did you mean/.test(error.message)
    ) {
      say(`did you mean: ${error.suggestions.slice(0, 3).join(", ")}?\n`);
    }
    const tail = error instanceof ServerError && error.stderrTail
      ? tailExcerpt(error.stderrTail)
      : "";
    if (tail && !error.message.includes("stderr")) say(`stderr tail:\n${tail}\n`);
    return exitCodeOf(error);
  }
  // A file system refusal (full disk, quota, read-only, permission) is the machine's state,
  // not a bug: core/errors.ts names it and the fix, from the error's errno code.
  if (storageProblem(error)) {
    io.err(`error: ${errorToJson(error).message}\n`);
    return exitCodeOf(error);
  }
  const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  say(`error: ${message}\n(this is a bug in mcpx; please report it with the command you ran)\n`);
  return 1;
}
