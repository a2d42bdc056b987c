/**
 * The `mcpx` command: argv → command → output. Errors print one `error:`
 * line (plus suggestions), never a stack; a usage error also prints the
 * command's help and exits 2 (exit codes: core/errors.ts `EXIT`).
 *
 * @module
 */

import { type Command, type CommandOption, COMMANDS, GLOBAL_OPTIONS } from "./commands.ts";
import { CliContext } from "./context.ts";
import { type Io, processIo } from "../core/io.ts";
import {
  errorToJson,
  exitCodeOf,
  McpxError,
  NotFoundError,
  ServerError,
  storageProblem,
  UsageError,
} from "../core/errors.ts";
import { settingFlags } from "../config/setting_schema.ts";
import { nearest } from "../core/nearest.ts";
import { VERSION } from "../core/version.ts";
import { tailExcerpt } from "../core/tail_buffer.ts";
import type { Redactor } from "../core/redact.ts";

type ParseOptions = Record<
  string,
  { type: "string" | "boolean"; short?: string; multiple?: boolean }
>;

/**
 * Runs one command line.
 *
 * @param argv Arguments after `mcpx`.
 * @returns The exit code (0 ok, 1 failure, 2 usage).
 */
export async function main(
  argv: string[],
  io: Io = processIo,
  env: Record<string, string> = Deno.env.toObject(),
  cwd: string = Deno.cwd(),
): Promise<number> {
  let command: Command | undefined;
  let ctx: CliContext | undefined;
  try {
    let helpWord: boolean;
    ({ command, help: helpWord } = findCommand(argv));
    const { values, positionals, settingValues, flagSpellings } = await parse(argv, command);
    if (values.version) {
      io.out(`mcpx ${VERSION}\n`);
      return 0;
    }
    if (!command || values.help || helpWord) {
      io.out(help(command));
      return 0;
    }
    ctx = new CliContext({
      io,
      env,
      cwd,
      configPath: values.config as string | undefined,
      session: values.session as string | undefined,
      flags: settingValues,
      flagSpellings,
    });
    const args = positionals.slice(1);
    if (command.maxArgs !== undefined && args.length > command.maxArgs) {
      const extra = args.slice(command.maxArgs).map((a) => JSON.stringify(a)).join(" ");
      throw new UsageError(
        `\`mcpx ${command.name}\` takes ${
          command.maxArgs === 0 ? "no arguments" : `at most ${command.maxArgs}`
        }; unexpected ${extra}`,
      );
    }
    const module = await command.load();
    return await module.run(ctx, args, values);
  } catch (error) {
    const json = argv.includes("--json") || /^(true|1)$/.test(env.MCPX_OUTPUT_JSON ?? "") ||
      env.MCPX_OUTPUT_FORMAT === "json";
    const redactor = await redactorOf(ctx);
    if (json) io.out(JSON.stringify({ ok: false, error: errorDocument(error, redactor) }) + "\n");
    return report(io, error, command, redactor);
  }
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
 * asks for that command's help). @throws {UsageError} For an unknown command.
 */
function findCommand(argv: string[]): { command?: Command; help: boolean } {
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
    const command = COMMANDS.find((c) => c.name === arg);
    if (command) return { command, help };
    if (arg === "help") {
      help = true;
      continue;
    }
    const near = nearest(arg, COMMANDS.map((c) => c.name));
    throw new UsageError(
      `unknown command "${arg}"${near.length ? `; did you mean ${near.join(" or ")}?` : ""}`,
    );
  }
  return { help };
}

async function parse(argv: string[], command: Command | undefined) {
  const options: ParseOptions = {};
  const settingOf = new Map<string, string>();
  const add = (name: string, o: CommandOption) => {
    options[name] = {
      type: o.type,
      ...(o.short ? { short: o.short } : {}),
      ...(o.multiple ? { multiple: true } : {}),
    };
    if (o.setting) settingOf.set(name, o.setting);
  };
  for (const [name, o] of Object.entries(GLOBAL_OPTIONS)) add(name, o);
  for (const [name, o] of Object.entries(command?.options ?? {})) add(name, o);
  for (const flag of settingFlags()) {
    if (!flag.flag.startsWith("--")) continue;
    const name = flag.flag.slice(2);
    if (options[name]) continue;
    options[name] = { type: flag.type === "bool" ? "boolean" : "string" };
    settingOf.set(name, flag.name);
  }
  // `mcpx run script --flag`: everything from the script's name on is the script's.
  let rest: string[] = [];
  if (command?.stopAtPositional) {
    const cut = firstScriptArgument(argv, command.name, options);
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
  const optionLines = (opts: Record<string, CommandOption>) =>
    Object.entries(opts).map(([name, o]) => {
      const flag = `${o.short ? `-${o.short}, ` : "    "}--${name}${
        o.type === "string" ? " <value>" : ""
      }`;
      return `  ${flag.padEnd(26)} ${o.help}`;
    });
  if (command) {
    lines.push(`usage: ${command.usage}`, "", command.summary);
    if (Object.keys(command.options).length) {
      lines.push("", "options:", ...optionLines(command.options));
    }
    lines.push("", "global options:", ...optionLines(GLOBAL_OPTIONS));
  } else {
    lines.push(
      `mcpx ${VERSION} — every MCP server behind one command`,
      "",
      "usage: mcpx <command> [options]",
      "",
      "commands:",
      ...COMMANDS.map((c) => `  ${c.name.padEnd(10)} ${c.summary}`),
      "",
      "global options:",
      ...optionLines(GLOBAL_OPTIONS),
      "",
      "`mcpx help <command>` shows one command's options.",
      "Every setting is also a flag (`mcpx config --schema` lists them).",
      "Start with `mcpx ls`, then `mcpx search <words>`, then `mcpx types <namespace>`.",
    );
  }
  return lines.join("\n") + "\n";
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

function report(
  io: Io,
  error: unknown,
  command: Command | undefined,
  redactor: Pick<Redactor, "text">,
): number {
  // What an error says may hold a server's echo of a secret: shown as its reference.
  const say = (text: string) => io.err(redactor.text(text));
  if (error instanceof UsageError) {
    // The usage line, not the whole help: an agent pays for every line printed.
    say(command ? `usage: ${command.usage}\n` : "usage: mcpx <command> [options]\n");
    say(`error: ${error.message}\n`);
    say(`(\`mcpx ${command ? `${command.name} ` : ""}--help\` shows every option)\n`);
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

if (import.meta.main) {
  Deno.exit(await main(Deno.args));
}
