/**
 * The namespaces a script run's client is made from, without waiting
 * silently for a server whose first listing is in progress (decision 0010,
 * point 4): the daemon's listing gets the same `discovery.wait` grace `ls`
 * has, and a server still starting after it is marked `starting`, so the
 * generated client passes any tool name through to the daemon (which waits
 * for that server's start as `mcpx call` does), and the run says so once.
 *
 * @module
 */

import type { NamespaceEntry } from "../discovery/types.ts";
import type { NamespaceView } from "../discovery/view.ts";
import { graceWait, type ListingWait } from "../engine/tool_listing.ts";
import { pronoun, startingSoFar } from "../discovery/starting_note.ts";

/** What {@link scriptNamespaces} asks of the run's host (cli/context.ts `namespaces`). */
export interface NamespaceSource {
  namespaces(options: { optional?: boolean; wait?: ListingWait }): Promise<NamespaceView>;
}

/**
 * The visible namespaces for a script's client, and the note for those still starting.
 *
 * @param host Where the view comes from.
 * @param graceMs The `discovery.wait` setting, in ms: how long from its start
 *   a listing is waited for before its server counts as starting.
 * @returns `namespaces`, a starting one carrying `starting: true` (part of
 *   the client's cache key, so the next run once it is listed is generated
 *   with its real tools); `note`, one sentence naming them, when any are.
 * @throws What `host.namespaces` throws (a profile no server has).
 * @example
 * ```ts
 * import { scriptNamespaces } from "./script_namespaces.ts";
 * const host = {
 *   namespaces: () => Promise.resolve({
 *     namespaces: [{ namespace: "hang", server: "hang", description: "", tools: [] }],
 *     problems: [], unusable: [], disabled: [],
 *     starting: [{ server: "hang", namespace: "hang", elapsedMs: 1200, allowanceMs: 300_000,
 *       bound: "firstStartTimeout" as const }],
 *   }),
 * };
 * const { namespaces, note } = await scriptNamespaces(host, 1000);
 * if (namespaces[0].starting !== true || !note?.startsWith("hang is starting (1s so far")) {
 *   throw new Error(note);
 * }
 * ```
 */
export async function scriptNamespaces(
  host: NamespaceSource,
  graceMs: number,
): Promise<{ namespaces: NamespaceEntry[]; note?: string }> {
  const view = await host.namespaces({ optional: true, wait: graceWait(graceMs) });
  const starting = view.starting ?? [];
  if (starting.length === 0) return { namespaces: view.namespaces };
  const going = new Set(starting.map((s) => s.namespace));
  const namespaces = view.namespaces.map((ns) =>
    going.has(ns.namespace) ? { ...ns, starting: true as const } : ns
  );
  const one = pronoun(starting) === "it";
  const note =
    `${startingSoFar(starting)}: the script's calls to ${
      one ? "it wait for its" : "them wait for their"
    } ` +
    `start, and ${one ? "its" : "their"} tools are typed loosely until a run after ${
      one ? "it is" : "they are"
    } listed.`;
  return { namespaces, note };
}
