/**
 * The shape of one operation (decision 0021): what it takes and answers
 * (zod schemas, from which the wire's JSON Schema is derived), where it runs,
 * its hints, and how the command line spells it. Every surface — the CLI's
 * parser and help, the daemon's `/v1/<op>` routes, docs/cli.md, the
 * completion scripts and the man page — is generated from the table of these
 * (ops/table.ts), so none can drift from another.
 *
 * Handlers are not here: an op's spec is data plus schemas, and its handler
 * is loaded only when the op runs (cli/commands.ts for the CLI process,
 * ops/daemon_ops.ts for the daemon), so the CLI's warm path loads neither
 * zod nor any handler it does not run.
 *
 * @module
 */

import type * as z from "zod";

/** Where an operation runs: in the CLI's own process, or in the daemon (`POST /v1/<op>`). */
export type Where = "cli" | "daemon";

/**
 * What an operation does to the world, as MCP's tool annotations say it
 * (MCP 2025-06-18, "Tool annotations": readOnlyHint, destructiveHint,
 * idempotentHint), so `mcpx serve` can pass them on unchanged.
 */
export interface Hints {
  /** Changes nothing (listing, reading the cache or the log). */
  readOnly: boolean;
  /** May undo or end something another caller holds (stop, restart). */
  destructive: boolean;
  /** Running it twice with the same input has the effect of running it once. */
  idempotent: boolean;
}

/** What a positional's completion offers (the completion scripts read the schema cache). */
export type Completion =
  | "namespace"
  | "tool"
  | "namespace-or-tool"
  | "script"
  | "file"
  | "session"
  | "setting"
  | readonly string[];

/**
 * What the command line accepts for a value beyond the value itself, so its
 * help can say so (ops/cli_help.ts renders each as a hint; the field's own
 * description stays free of shell syntax, since `mcpx serve` and the routes
 * show it too):
 *
 * - `duration`: a duration as config/duration.ts reads it (`30s`, `2m`).
 * - `duration-or-time`: a duration ago (`1h`) or a point in time (`2026-10-01T12:00`).
 * - `json-or-file`: JSON text, `@file` for a file's text, or `-` for stdin.
 * - `stdin`: `-` reads the value from stdin.
 */
export type Syntax = "duration" | "duration-or-time" | "json-or-file" | "stdin";

/** One `--flag` of a command. */
export interface CliFlag {
  /** The input field the flag fills; absent when the flag only sets a setting. */
  field?: string;
  type: "string" | "boolean";
  /** One-letter alias (`-n`). */
  short?: string;
  /** May be given more than once; the field receives every value. */
  multiple?: boolean;
  /**
   * One line of help, only for a flag that fills no input field (a global
   * flag): a flag with a {@link field} is described by that field's schema
   * description, and one that only sets a {@link setting} by the setting's
   * `help` (ops/cli_help.ts renders both; ops/table_test.ts holds ops to it).
   */
  help?: string;
  /** What else the command line accepts for the value ({@link Syntax}). */
  syntax?: Syntax;
  /** The setting the flag sets (e.g. `search.limit` for `-n`): config/settings.ts. */
  setting?: string;
  /** What the value completes to. */
  complete?: Completion;
  /**
   * A string flag whose value may be left out: `--name` alone stands for
   * this value, and a value given must be joined to it (`--wait=30s`), as
   * git's optional values are (`--name <word>` leaves the word a positional).
   */
  bare?: string;
}

/** A positional argument of a command. */
export interface CliArg {
  /** The input field it fills. */
  field: string;
  /** Its name in usage lines (`<namespace>`). */
  name: string;
  /** Takes every remaining word (the field is an array). */
  variadic?: boolean;
  /** May be left out. */
  optional?: boolean;
  /** What it completes to. */
  complete?: Completion;
  /** What else the command line accepts for the value ({@link Syntax}); its help is the field's description. */
  syntax?: Syntax;
}

/** A flag with its help rendered (ops/cli_help.ts), as ops/_table.gen.ts holds it. */
export type FlagRow = CliFlag & { help: string };
/** A positional with its help rendered (ops/cli_help.ts), as ops/_table.gen.ts holds it. */
export type ArgRow = CliArg & { help: string };
/** A command as ops/_table.gen.ts holds it: every flag's and positional's help rendered. */
export type CliRow = Omit<CliSpec, "flags" | "args"> & {
  args?: readonly ArgRow[];
  flags?: Readonly<Record<string, FlagRow>>;
};

/** How the command line spells an operation. */
export interface CliSpec {
  /** The words after `mcpx` (`ls`, `session new`). */
  command: string;
  /**
   * The module holding the op's handler and its terminal renderer, relative
   * to cli/ (`./discovery/ls.ts`): loaded only when the command runs
   * (cli/commands.ts), so a command pays for no other's imports.
   */
  module: string;
  /**
   * One of the commands an agent runs many times per task: bundled into
   * cli/mcpx.bundle.js so a start reads one file (decision 0027;
   * cli/_warm.gen.ts lists them).
   */
  warm?: true;
  /** The usage line shown in help and with usage errors. */
  usage: string;
  /** One line for `mcpx --help`. */
  summary: string;
  /** Positionals in order; words beyond them are a usage error unless the last is variadic. */
  args?: readonly CliArg[];
  /** The command's own flags (global flags are in ops/global_flags.ts). */
  flags?: Readonly<Record<string, CliFlag>>;
  /**
   * Flags end at the first positional (`mcpx run script --flag` hands
   * `--flag` to the script), as `deno run` and `node` do.
   */
  stopAtPositional?: boolean;
  /** Left out of `mcpx --help`, completions' command list and docs' summary table. */
  hidden?: boolean;
}

/**
 * How `mcpx serve` offers an op as an MCP tool (`mcpx_<name>`; decision 0044).
 * An op without it is not a tool. The tool's input is the op's own input
 * schema narrowed to {@link fields}, so the tool and the command cannot
 * disagree on a field's type or wording; its output schema is the op's output
 * when that is an object (MCP requires `outputSchema` to be one).
 */
export interface ServeSpec {
  /**
   * The input fields the tool takes, in the op's spelling (default: every
   * one). Left out: what only a shell has (stdin, files on the caller's
   * disk, a server named on the command line) and what the tool always sets.
   */
  fields?: readonly string[];
  /** The tool's description when the op's own speaks of the shell (default: the op's). */
  description?: string;
  /**
   * Listed by plain `serve` (default); `false`: only under `serve --tools all`
   * or by name, keeping the default list lean.
   */
  core?: false;
  /**
   * `"tool-result"`: the op's value is a server's MCP `CallToolResult`, and
   * the tool answers with it as the server sent it (its content items, its
   * `structuredContent`, its `isError`), the op's notes added as text, rather
   * than with the value as JSON text (decision 0076). Any other value (a
   * task's handle, a question) is answered as every op's is.
   */
  answer?: "tool-result";
  /**
   * Why a call with this input cannot be a tool call — it would stream until
   * interrupted (`log --follow`, `adapter serve`) — or undefined when it can.
   * The tool answers the refusal as an error result; the command line is
   * unaffected.
   */
  // deno-lint-ignore no-explicit-any
  refuse?(input: any): string | undefined;
}

/** One operation. `I` and `O` are zod schemas of its input and output. */
export interface OpSpec<I extends z.ZodType = z.ZodType, O extends z.ZodType = z.ZodType> {
  /** Unique; the daemon route is `POST /v1/<name>`. */
  name: string;
  /** What it does, for people and for agents (serve's tool description). */
  description: string;
  where: Where;
  hints: Hints;
  input: I;
  /** What `--json` prints and the route answers (inside the wire's `{ ok, result }`). */
  output: O;
  /** The command; absent for plumbing ops only other mcpx processes call. */
  cli?: CliSpec;
  /**
   * The result is what a server answered (a tool's result): sent unchanged,
   * while other answers have secrets replaced by their references (decision 0017).
   */
  serverData?: true;
  /** Offered by `mcpx serve` as the MCP tool `mcpx_<name>` ({@link ServeSpec}). */
  serve?: ServeSpec;
  /**
   * `"sse"`: the route is `GET /v1/<name>` answering server-sent events
   * (WHATWG HTML, "Server-sent events") rather than `POST` answering one
   * document: its input is read from the query string (a repeated parameter
   * or a comma list fills a list field), its handler yields items, and each
   * item, which fits {@link output}, is one event's `data:` (decision 0080).
   */
  stream?: "sse";
}

/** The typed input of an op. */
export type InputOf<S extends OpSpec> = z.output<S["input"]>;
/** The typed output of an op. */
export type OutputOf<S extends OpSpec> = z.input<S["output"]>;

/** Declares an op, keeping its schemas' types. */
export function defineOp<I extends z.ZodType, O extends z.ZodType>(
  spec: OpSpec<I, O>,
): OpSpec<I, O> {
  return spec;
}
