/**
 * What an operation's handler answers (decision 0064): a typed result, a
 * tool's failure carried as data, or a server's question — never printed
 * text and never an exit code. Every surface renders the same outcome: the
 * CLI as terminal text or its `--json` document (cli/outcome_render.ts),
 * `mcpx serve` as an MCP tool result (cli/serve/serve_call.ts), the daemon as its
 * `{ ok, result }` answer. A handler's refusal is a thrown typed error
 * (core/errors.ts `McpxError` and its kinds), rendered in one place per
 * surface.
 *
 * The exit code is the outcome's kind, decided here alone ({@link exitCodeOf}).
 *
 * @module
 */

import { EXIT } from "../core/errors.ts";

/** What kind of answer a handler gave; the exit code follows from it alone. */
export type OutcomeKind = "ok" | "failed" | "question" | "exit";

/** An answer that is the op's output document (what `--json` prints, serve's structured content). */
export interface Answered<O = unknown> {
  /**
   * `ok`: the op did what was asked (exit 0). `failed`: it ran, and what it
   * ran failed — a tool answered `isError` — the document says how (exit 1).
   * `question`: a server asked something before it could answer; the
   * document is `{ question }` (exit 75, EX_TEMPFAIL; decision 0040).
   */
  kind: "ok" | "failed" | "question";
  /** The op's output, as its declaration's output schema says. */
  value: O;
  /**
   * Sentences for the person or agent beside the answer (a server shadowed by
   * a nearer configuration, a session note): the CLI prints each as a
   * `note:` line on stderr, serve adds them as text content.
   */
  notes?: string[];
  /**
   * Problems found on the way that did not stop the op (a misspelt key in the
   * configuration): the CLI prints each as a `warning:` line on stderr,
   * before the notes and in either output mode; serve adds them as text
   * content. Absent when there are none.
   */
  warnings?: string[];
  /**
   * What only the terminal rendering shows beyond the document (search's
   * whole descriptions, which a wide table can show where the document cuts
   * them): never part of `--json`, serve or the daemon's answer.
   */
  extra?: unknown;
}

/**
 * An op whose output is a stream the process itself writes (a script's
 * output under `mcpx run`, the daemon's log under `mcpx daemon`, `mcpx serve`'s
 * protocol): its handler ends with the code the stream ended with.
 */
export interface Streamed {
  kind: "exit";
  /** The process's exit code (a script's own status under `mcpx run`). */
  code: number;
}

/** What a handler answers. */
export type Outcome<O = unknown> = Answered<O> | Streamed;

/** An answer: the op did what was asked. */
export function ok<O>(value: O, notes?: string[]): Answered<O> {
  return { kind: "ok", value, ...(notes?.length ? { notes } : {}) };
}

/** An answer that ran and failed (a tool's `isError` result): the value says how. */
export function failed<O>(value: O, notes?: string[]): Answered<O> {
  return { kind: "failed", value, ...(notes?.length ? { notes } : {}) };
}

/** A server's question, before the op could answer (`value` is `{ question }`). */
export function question<O>(value: O, notes?: string[]): Answered<O> {
  return { kind: "question", value, ...(notes?.length ? { notes } : {}) };
}

/** A streamed op ended with `code`. */
export function exited(code: number): Streamed {
  return { kind: "exit", code };
}

/**
 * The process exit code of an outcome: 0 `ok`, 1 `failed`, 75 `question`
 * (EX_TEMPFAIL, sysexits.h: try again once answered), a stream's own code.
 * Errors map through core/errors.ts `exitCodeOf` (1, or 2 for usage).
 */
export function exitCodeOf(outcome: Outcome): number {
  switch (outcome.kind) {
    case "ok":
      return EXIT.ok;
    case "failed":
      return EXIT.failure;
    case "question":
      return EXIT.tempfail;
    case "exit":
      return outcome.code;
  }
}
