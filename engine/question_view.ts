/**
 * A stored question as the commands show it (decision 0040): its row, its
 * requested schema in short form and the exact commands that answer and
 * decline it. Pure, so the CLI renders questions without the SDK.
 *
 * @module
 */

import { shellWord } from "../config/shell_word.ts";
import { shortSchema } from "./question_form.ts";
import type { QuestionRow } from "./questions_store.ts";

/** A question as the commands show it. */
export interface QuestionView extends QuestionRow {
  /** The requested schema, one field a line (engine/question_form.ts `shortSchema`). */
  schema: string[];
  /** The exact command that answers it. */
  command: string;
  /** The command that declines it. */
  decline: string;
}

/** The view of a stored row. */
export function viewOf(row: QuestionRow): QuestionView {
  const schema = row.kind === "elicitation" && row.mode !== "url"
    ? shortSchema((row.request as { requestedSchema?: unknown }).requestedSchema)
    : [];
  return {
    ...row,
    schema,
    command: commandOf(row),
    decline: `mcpx elicit decline ${shellWord(row.id)}`,
  };
}

/** The command that answers a question, with a placeholder for each field. */
export function commandOf(row: QuestionRow): string {
  const base = `mcpx elicit answer ${shellWord(row.id)}`;
  if (row.kind === "sampling") return `${base} text='…'`;
  if (row.mode === "url") return base;
  const properties = (row.request as { requestedSchema?: { properties?: object } }).requestedSchema
    ?.properties ?? {};
  return [base, ...Object.keys(properties).map((k) => `${shellWord(k)}=…`)].join(" ");
}
