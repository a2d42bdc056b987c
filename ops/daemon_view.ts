/**
 * What a discovery route answered by the daemon (ops/daemon_search.ts,
 * ops/daemon_ls.ts) shows: the caller's profile selection of the daemon's
 * own cache, its servers without a usable entry listed first, as the CLI
 * would have asked before reading the cache's files (decision 0030).
 *
 * @module
 */

import type { Daemon } from "../engine/engine.ts";
import { isSelected, type ProfileSelection } from "../config/profiles.ts";
import { listingOf } from "../config/types.ts";
import { needsListing } from "../engine/schema_cache.ts";
import type { NamespaceView } from "../discovery/view.ts";

/**
 * Lists the selected servers the daemon's cache has no usable entry for
 * (not disabled, not kept from starting), then returns the selection's view.
 *
 * @param daemon The daemon.
 * @param selection The caller's profile selection (config/profiles.ts).
 * @param listMissing false: the view as it is, nothing listed.
 * @returns The view (engine/listings.ts `view`), built once per cache change.
 * @throws the cache write's error when a listing could not be stored (a full disk).
 */
export async function listedView(
  daemon: Daemon,
  selection: ProfileSelection,
  listMissing = true,
): Promise<NamespaceView> {
  if (listMissing) {
    const missing = daemon.config.servers.filter((s) =>
      !s.disabled && !s.unavailable && isSelected(s, selection) &&
      needsListing(daemon.entry(s), listingOf(s).listingId)
    );
    if (missing.length) await daemon.list(missing.map((s) => s.name), true);
  }
  return daemon.view(selection);
}
