/**
 * What the daemon has to tell the person at the shell that no request asked
 * about: records of the durable log it could not write (a full disk), a
 * damaged state file it read what it could of. The daemon has no terminal, so
 * each notice rides on the answer to the next request from `mcpx` (the CLI
 * asks with `notices: true`; a script's client does not), which prints it as
 * a `warning:` line, once.
 *
 * Source: issue 9, "Damaged state never breaks more than itself": records
 * that cannot be written are never dropped silently, and a damaged entry is
 * skipped with a warning naming the file.
 *
 * @module
 */

import { droppedRecords } from "./log.ts";
import { droppedSentence } from "../logs/writer.ts";
import { type Notice, takePosted } from "../core/notice_queue.ts";

export { type Notice, postNotice } from "../core/notice_queue.ts";

let reportedDrops = 0;

/**
 * The notices not yet handed to a caller, emptied: the queued ones, and one
 * about log records not written when more were lost since the last report.
 */
export function takeNotices(): Notice[] {
  const out = takePosted();
  const dropped = droppedRecords();
  if (dropped && dropped.records > reportedDrops) {
    out.push({
      code: "log-records-dropped",
      message: `${droppedSentence(dropped)} (\`mcpx status\` shows the count)`,
    });
    reportedDrops = dropped.records;
  }
  return out;
}
