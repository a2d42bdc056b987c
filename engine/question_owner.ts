/**
 * Whose a question is (decision 0059): a question belongs to the caller whose
 * call raised it. A caller is named by a key ({@link ownerKey}); a stored
 * question lists the keys it belongs to (engine/questions_store.ts `owners`).
 * Only those callers see and answer it, unless one deliberately names another
 * session's question (`mcpx elicit --any-session`); the call's result goes to
 * its own caller alone whoever answers. Pure, so the CLI and the daemon hold
 * the same rule.
 *
 * @module
 */

import { McpxError } from "../core/errors.ts";

/**
 * Who is looking at or answering a question: a caller key ({@link ownerKey}),
 * and whether it deliberately names another session's question.
 */
export interface QuestionCaller {
  owner: string;
  anySession?: boolean;
}

/** The error code of a question acted on by a caller it does not belong to. */
export const NOT_YOURS = "question-not-yours";

/**
 * The key a caller's questions are kept under: the identity it names for them
 * (`owner`: a client of `mcpx serve` that named no session; `""` from a script
 * run whose session was made up), else its session, else `""`, which stands
 * for the callers that named no session, as one.
 *
 * @example
 * ```ts
 * import { ownerKey } from "./question_owner.ts";
 * if (ownerKey({ session: "alice" }) !== "alice" || ownerKey({}) !== "") throw new Error();
 * ```
 */
export function ownerKey(caller: { owner?: string; session?: string }): string {
  return caller.owner ?? (caller.session || "");
}

/**
 * Checks that `caller` may see and act on question `row`.
 * @throws {McpxError} `question-not-yours` when the question is another
 *   caller's and `anySession` was not given.
 */
export function checkOwner(row: { id: string; owners: string[] }, caller: QuestionCaller): void {
  if (caller.anySession || row.owners.includes(caller.owner)) return;
  throw new McpxError(
    NOT_YOURS,
    `question ${row.id} belongs to another session's call, so this session neither sees nor ` +
      `answers it; to answer it deliberately, name it: \`mcpx elicit answer ${row.id} ` +
      "--any-session` (the call's result still goes only to the caller that made it)",
  );
}

/**
 * The error for a wait on another caller's call: its result goes to that caller alone.
 */
export function notYourCall(id: string): McpxError {
  return new McpxError(
    NOT_YOURS,
    `question ${id} was asked in another session's call, and the call's result goes only to ` +
      `the caller that made it; answer it without waiting (\`mcpx elicit answer ${id} ` +
      "--any-session`), and that caller collects the result",
  );
}
