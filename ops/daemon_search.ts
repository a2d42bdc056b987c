/**
 * The `search` route's handler: the `search` op (ops/search.ts) run in
 * the daemon against its own view of its cache, which it holds parsed and in
 * memory with its code warm, so a search costs the same with 1 server or 100
 * (decision 0030). What the caller's settings say travels in the request:
 * the limit, the listing grace, and the caller's profile selection.
 *
 * @module
 */

import type { Daemon } from "../engine/engine.ts";
import { DEFAULT_SELECTION } from "../config/profiles.ts";
import { settingDeclaration } from "../config/settings.ts";
import type { InputOf } from "./op.ts";
import type { search } from "./discovery_ops.ts";
import { listingWaitOf } from "./wait_flag.ts";
import { factsOf } from "../discovery/cache_entry.ts";
import { callerOf } from "./caller_schema.ts";
import { answer, type SearchAnswer, type SearchHost } from "./search.ts";
import { listedView } from "./daemon_view.ts";

/**
 * Answers a search from the daemon's cache: the servers of the caller's
 * selection that have no usable entry are listed first, as the CLI would
 * have asked, then the hits are ranked and the types hint made.
 *
 * @param daemon The daemon.
 * @param input The op's validated input: `wait` as typed (ops/wait_flag.ts);
 *   without it, `graceMs` (the caller's `discovery.wait`) bounds a listing the
 *   search starts, and with neither each listing is waited for to its end.
 * @returns What ops/search.ts `answer` returns: the output, and the whole
 *   descriptions and untrusted namespaces a person's rendering adds.
 * @throws {UsageError} For empty words with no tag, or a limit that is not a
 *   whole number ≥ 1 (as the CLI's own answer).
 * @throws the cache write's error when a listing could not be stored (a full disk).
 */
export async function searchInDaemon(
  daemon: Daemon,
  input: InputOf<typeof search>,
): Promise<SearchAnswer> {
  const selection = callerOf(input).selection ?? DEFAULT_SELECTION;
  const wait = input.wait === undefined && input.graceMs === undefined
    ? undefined
    : listingWaitOf(input.wait, input.graceMs ?? 0);
  const host: SearchHost = {
    // A caller that sent no limit (a plain HTTP client) gets the setting's default.
    setting: () =>
      Promise.resolve(input.limit ?? Number(settingDeclaration("search.limit")!.default)),
    namespaces: async (options = {}) => ({
      ...await listedView(daemon, selection, options.listMissing !== false, wait),
      entry: (spec) => factsOf(daemon.entry(spec)),
    }),
  };
  return await answer(input, host, wait);
}
