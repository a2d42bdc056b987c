/**
 * `mcpx completion-words <kind>`: the names a completion script offers for a
 * positional or a flag value that takes them (ops/op.ts `Completion`), one
 * per line. Plumbing: the scripts `mcpx completion` prints call it, and it
 * must answer while a person waits on <Tab>, so it reads files only — the
 * schema cache as `mcpx ls` reads it, without listing a server that is not
 * cached (`listMissing: false`), the script folders and the named-sessions
 * file. It starts no server and no daemon.
 *
 * @module
 */

import type { CliContext } from "../context.ts";
import type { InputOf } from "../../ops/op.ts";
import type { completionWords } from "../../ops/meta_ops.ts";
import { type Answered, ok } from "../../ops/outcome.ts";
import { wordsOf } from "./completion_candidates.ts";

/**
 * Answers `mcpx completion-words`: `{ words }` ({@link wordsOf}).
 *
 * @throws {ConfigError} When the configuration cannot be read (a completion
 *   script discards stderr, so <Tab> then offers nothing).
 */
export async function handle(
  ctx: CliContext,
  input: InputOf<typeof completionWords>,
): Promise<Answered<{ words: string[] }>> {
  return ok({ words: await wordsOf(ctx, input.kind) });
}

/** One name a line; nothing at all when there are none. */
export function text({ words }: { words: string[] }): string {
  return words.length ? words.join("\n") + "\n" : "";
}

/** `--json` prints `{ "words": […] }` on one line. */
export const jsonLine = true;

/** Only `--json` itself asks for the document: the completion scripts read one name a line. */
export const jsonFlagOnly = true;
