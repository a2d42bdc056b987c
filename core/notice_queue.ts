/**
 * What a process has to tell the person at the shell that no request asked
 * about (a damaged state file moved aside, records the log could not write),
 * queued where it happened and printed by whoever reaches a terminal: the CLI
 * prints its own process's notices after the command (cli/command_line.ts);
 * the daemon hands its own to the next `mcpx` command (engine/notices.ts).
 * It lives in core so that a state file's reader, at any layer, can queue one.
 *
 * Source: issue 9 and issue 24, "Damaged state is never a bug in mcpx": a
 * damaged file is reported with a warning naming it and what was lost.
 *
 * @module
 */

/** One thing to tell the caller. */
export interface Notice {
  /** `log-records-dropped` or `state-damaged`. */
  code: "log-records-dropped" | "state-damaged";
  /** The sentence to print: what happened, where, and what to do. */
  message: string;
}

/** At most this many notices wait for a caller; older ones give way (the log has them too). */
const MAX_PENDING = 20;

const pending: Notice[] = [];

/** Queues a notice for the person at the shell (the same sentence twice is queued once). */
export function postNotice(notice: Notice): void {
  if (pending.some((n) => n.message === notice.message)) return;
  pending.push(notice);
  if (pending.length > MAX_PENDING) pending.splice(0, pending.length - MAX_PENDING);
}

/** The notices queued so far, emptied. */
export function takePosted(): Notice[] {
  return pending.splice(0);
}
