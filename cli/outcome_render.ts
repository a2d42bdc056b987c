/**
 * The command line's rendering of an op's outcome (ops/outcome.ts): the one
 * place that prints what a handler answered and picks the exit code from its
 * kind. Under `--json` the document is printed as it is (two-space indent,
 * or one line for the ops whose module says `jsonLine`); otherwise the
 * module's `text` renderer turns it into terminal text. Warnings and notes
 * go to stderr as `warning:` and `note:` lines either way. A question a
 * person at this terminal can answer is asked inline and the call goes on
 * (cli/call/question.ts); any other is printed (its `{ question }` document, or
 * its text on stderr) with exit 75. A question's `extra` may name the daemon
 * that holds the call (`{ socket }`) and is kept for the outcome the call
 * resumes with.
 *
 * @module
 */

import type { CliContext } from "./context.ts";
import type { HandlerModule, TextView } from "./commands.ts";
import { type Answered, exitCodeOf, type Outcome } from "../ops/outcome.ts";
import { printJson, printJsonLine } from "./json_out.ts";
import type { QuestionView } from "../engine/question_view.ts";

/**
 * Prints `outcome` on `ctx.io` and answers its exit code.
 *
 * @param module The op's handler module (its `text` renderer and JSON style).
 * @param outcome What the handler answered.
 * @param input The op's parsed input (renderers read display flags such as `--explain`).
 * @param json Whether output is JSON (decided once per command line: cli/command_line.ts).
 * @returns The exit code (ops/outcome.ts `exitCodeOf`).
 */
export async function renderOutcome(
  ctx: CliContext,
  module: HandlerModule,
  outcome: Outcome,
  input: unknown,
  json: boolean,
): Promise<number> {
  if (outcome.kind === "exit") return outcome.code;
  if (outcome.kind === "question") {
    printAside(ctx, outcome);
    // Where the call waits, and what its result is rendered with (cli/call/elicit.ts `--wait`).
    const extra = outcome.extra as { socket?: string } | undefined;
    const asked = outcome.value as { question: QuestionView };
    const { askAtTerminal, questionText } = await import("./call/question.ts");
    const next = await askAtTerminal(ctx, asked.question, extra?.socket);
    if (next === undefined) {
      // Nobody here can answer: the question is the answer, with the command that answers it.
      if (json) printJson(ctx.io, asked);
      else ctx.io.err(questionText(asked.question));
      return exitCodeOf(outcome);
    }
    const resumed = module.resumed ?? ((answer: unknown) => ({ kind: "ok", value: answer }));
    return await renderOutcome(
      ctx,
      module,
      { ...(outcome.extra !== undefined ? { extra: outcome.extra } : {}), ...resumed(next) },
      input,
      json,
    );
  }
  printAnswer(ctx, module, outcome, input, json);
  return exitCodeOf(outcome);
}

/** An outcome's warnings and notes, on stderr before its document, in either mode. */
function printAside(ctx: CliContext, outcome: Answered): void {
  for (const warning of outcome.warnings ?? []) ctx.io.err(`warning: ${warning}\n`);
  for (const note of outcome.notes ?? []) ctx.io.err(`note: ${note}\n`);
}

function printAnswer(
  ctx: CliContext,
  module: HandlerModule,
  outcome: Answered,
  input: unknown,
  json: boolean,
): void {
  printAside(ctx, outcome);
  printDocument(ctx, module, outcome, input, json);
  const errors = module.errorLines?.(outcome.value);
  if (errors) ctx.io.err(errors);
}

function printDocument(
  ctx: CliContext,
  module: HandlerModule,
  outcome: Answered,
  input: unknown,
  json: boolean,
): void {
  if (json || !module.text) {
    const line = typeof module.jsonLine === "function" ? module.jsonLine(input) : module.jsonLine;
    (line ? printJsonLine : printJson)(ctx.io, outcome.value);
    return;
  }
  const view: TextView = {
    input,
    columns: Number(ctx.env.COLUMNS) || 120,
    kind: outcome.kind,
    extra: outcome.extra,
  };
  const text = module.text(outcome.value, view);
  const { out, err } = typeof text === "string" ? { out: text, err: "" } : text;
  if (err) ctx.io.err(err);
  if (out) ctx.io.out(out);
}

/**
 * Runs a handler module's op and renders its outcome: what the command line
 * does once it has parsed the input (and what in-process tests call).
 *
 * @param json Whether output is JSON (default: the context's one decision, `ctx.json()`;
 *   `--json` itself for a module that says `jsonFlagOnly`).
 * @returns The exit code.
 */
export async function runHandler(
  ctx: CliContext,
  module: HandlerModule,
  input: unknown,
  json?: boolean,
): Promise<number> {
  const outcome = await module.handle(ctx, input);
  json ??= module.jsonFlagOnly ? ctx.jsonFlag : await ctx.json();
  return await renderOutcome(ctx, module, outcome, input, json);
}
