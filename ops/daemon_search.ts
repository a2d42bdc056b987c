/**
 * The `searchTools` route's handler: the `search` op (ops/search.ts) run in
 * the daemon against its own view of its cache, which it holds parsed and in
 * memory with its code warm, so a search costs the same with 1 server or 100
 * (decision 0030). What the CLI reads from its own settings travels in the
 * request: the limit, and the caller's profile selection.
 *
 * @module
 */

import type { Daemon } from "../engine/engine.ts";
import { DEFAULT_SELECTION } from "../config/profiles.ts";
import type { InputOf, OutputOf } from "./op.ts";
import type { searchTools } from "./routes.ts";
import { factsOf } from "../discovery/cache_entry.ts";
import { callerOf } from "./caller_schema.ts";
import { answer, type SearchHost } from "./search.ts";
import { listedView } from "./daemon_view.ts";

/**
 * Answers a search from the daemon's cache: the servers of the caller's
 * selection that have no usable entry are listed first, as the CLI would
 * have asked, then the hits are ranked and the types hint made.
 *
 * @param daemon The daemon.
 * @param input The route's validated input.
 * @returns What ops/search.ts `answer` returns.
 * @throws {UsageError} For empty words with no tag (as the CLI's own answer).
 * @throws the cache write's error when a listing could not be stored (a full disk).
 */
export async function searchInDaemon(
  daemon: Daemon,
  input: InputOf<typeof searchTools>,
): Promise<OutputOf<typeof searchTools>> {
  const selection = callerOf(input).selection ?? DEFAULT_SELECTION;
  const host: SearchHost = {
    setting: () => Promise.resolve(input.limit),
    namespaces: async (options = {}) => ({
      ...await listedView(daemon, selection, options.listMissing !== false, input.wait),
      entry: (spec) => factsOf(daemon.entry(spec)),
    }),
  };
  return await answer(
    { words: input.words, tag: input.tag, explain: input.explain },
    host,
    input.wait,
  );
}
