/**
 * The module that renders each op on the command line, loaded only when its
 * command runs (so `mcpx ls` never pays for the MCP SDK or the type
 * generator). What each command takes is declared in the op table
 * (ops/table.ts); a test holds this map and the table to each other.
 *
 * @module
 */

import type { CliContext } from "./context.ts";
import type { Outcome, OutcomeKind } from "../ops/outcome.ts";
import { OP_ROWS } from "../ops/_table.gen.ts";

/**
 * What a command's text renderer is given besides the document: the op's
 * input (display flags such as `--explain`), the terminal's width and the
 * outcome's kind and terminal-only extra (ops/outcome.ts `Answered.extra`).
 */
export interface TextView {
  // deno-lint-ignore no-explicit-any
  input: any;
  /** Columns of the terminal (`COLUMNS`, default 120). */
  columns: number;
  kind: OutcomeKind;
  extra?: unknown;
}

/** Terminal text: stdout alone, or stdout and stderr (a tool's error goes to stderr). */
export type Text = string | { out?: string; err?: string };

/**
 * A command module that answers data (decision 0064): `handle` runs the op
 * and answers an outcome, never printing; `text` renders a document for the
 * terminal (absent: the document is printed as JSON either way). The CLI
 * (cli/outcome_render.ts) and `mcpx serve` (cli/serve/serve_call.ts) both call
 * `handle`; only the CLI calls `text`.
 */
export interface HandlerModule {
  // deno-lint-ignore no-explicit-any
  handle(ctx: CliContext, input: any): Promise<Outcome>;
  // deno-lint-ignore no-explicit-any
  text?(value: any, view: TextView): Text;
  /**
   * What the op says on stderr after its document in either mode, `--json`
   * too (the `error:` lines of the namespaces a listing could not reach,
   * which the document also carries); absent: nothing.
   */
  // deno-lint-ignore no-explicit-any
  errorLines?(value: any): string;
  /**
   * `--json` prints the document on one line (the small acknowledgements: stop, restart, …);
   * a function decides by the op's input (`mcpx log sql --path` is one line, its rows are not).
   */
  // deno-lint-ignore no-explicit-any
  jsonLine?: boolean | ((input: any) => boolean);
  /**
   * Only `--json` on this command line chooses the document; `output.json` from the
   * environment or a file does not (context_settings.ts `jsonFlag`). For plain output another
   * program consumes (`completion`, `man`, `completion-words`): a shell sourcing
   * `mcpx completion bash` with MCPX_OUTPUT_JSON exported must still get a script.
   */
  jsonFlagOnly?: boolean;
  /**
   * The outcome of what the daemon answered once a question was answered
   * inline (default: `ok` with the answer): `call` makes an `isError` result `failed`.
   */
  resumed?(answer: unknown): Outcome;
}

/** What a command module exports (decision 0064). */
export type CommandModule = HandlerModule;

/**
 * A loader of the command module `file` (relative to this folder), by a
 * computed specifier. Deno fetches the npm packages of every import it can
 * read before it runs anything, a literal `import("./discovery/types.ts")` that never
 * runs included; a literal here would make every command fetch every
 * command's packages (a first `mcpx stop` downloaded the type generator;
 * issue 24). Computed, a command loads what it uses. cli/load_graph_test.ts
 * holds this; `deno task compile` includes the folder for the same reason.
 */
function command(file: string): () => Promise<CommandModule> {
  return () => import(new URL(file, import.meta.url).href);
}

/**
 * Each op name's command module file, relative to this folder, as its
 * declaration names it (ops/op.ts `CliSpec.module`). cli/install.ts fetches
 * what each imports at install, so no first command downloads.
 */
export const COMMAND_FILES: Readonly<Record<string, string>> = Object.fromEntries(
  OP_ROWS.flatMap((op) => op.cli ? [[op.name, op.cli.module]] : []),
);

/** Each op name's command module. */
export const COMMAND_MODULES: Record<string, () => Promise<CommandModule>> = Object.fromEntries(
  Object.entries(COMMAND_FILES).map(([name, file]) => [name, command(file)]),
);

/**
 * The module of the op `name`.
 *
 * @throws {Error} When the table has an op with a command and this map none
 *   (tests/parity_test.ts fails first).
 */
export function loadCommand(name: string): Promise<CommandModule> {
  const load = COMMAND_MODULES[name];
  if (!load) throw new Error(`no command module for the op ${name}`);
  return load();
}
