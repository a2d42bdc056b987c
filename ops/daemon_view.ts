/**
 * What a discovery route answered by the daemon (ops/daemon_search.ts,
 * ops/daemon_ls.ts) shows: the caller's profile selection of the daemon's
 * own cache, its servers without a usable entry listed first, as the CLI
 * would have asked before reading the cache's files (decision 0030).
 *
 * @module
 */

import type { Daemon } from "../engine/engine.ts";
import { DEFAULT_SELECTION, isSelected, type ProfileSelection } from "../config/profiles.ts";
import { listingOf } from "../config/types.ts";
import { needsListing } from "../engine/schema_cache.ts";
import type { NamespaceView } from "../discovery/view.ts";
import type { NamespaceEntry, StartingListing } from "../discovery/types.ts";
import type { ListingWait } from "../engine/tool_listing.ts";
import { own } from "../core/own.ts";

/**
 * Lists the selected servers the daemon's cache has no usable entry for
 * (not disabled, not kept from starting), then returns the selection's view.
 *
 * @param daemon The daemon.
 * @param selection The caller's profile selection (config/profiles.ts).
 * @param listMissing false: the view as it is, nothing listed.
 * @param wait How long to wait for those listings (absent: until each ends);
 *   the ones still in progress are the view's `starting` (decision 0010).
 * @returns The view (engine/listings.ts `view`), built once per cache change.
 * @throws the cache write's error when a listing could not be stored (a full disk).
 */
export async function listedView(
  daemon: Daemon,
  selection: ProfileSelection,
  listMissing = true,
  wait?: ListingWait,
): Promise<NamespaceView> {
  const starting: StartingListing[] = [];
  if (listMissing) {
    const missing = daemon.config.servers.filter((s) =>
      !s.disabled && !s.unavailable && isSelected(s, selection) &&
      needsListing(daemon.entry(s), listingOf(s).listingId)
    );
    const results = missing.length ? await daemon.list(missing.map((s) => s.name), true, wait) : {};
    for (const spec of missing) {
      const going = own(results, spec.name)?.starting;
      if (going) starting.push({ server: spec.name, namespace: spec.namespace, ...going });
    }
  }
  const view = daemon.view(selection);
  return starting.length ? { ...view, starting } : view;
}

/**
 * The `namespaces` route (ops/view_routes.ts): the caller's selection of the
 * daemon's cache, its unlisted servers listed first (unless `listMissing` is
 * false). Namespaces outside `schemas` come as the CLI's own index-only view
 * has them (`summary`, tools without schemas), so an answer for one
 * namespace does not carry every other's schemas; search's words are left out.
 *
 * @param daemon The daemon.
 * @param input `schemas` (namespaces or server names; absent: every one),
 *   `listMissing`, and the caller's selection.
 * @returns discovery/view.ts `NamespaceView` as JSON.
 * @throws the cache write's error when a listing could not be stored (a full disk).
 */
export async function viewInDaemon(
  daemon: Daemon,
  input: {
    schemas?: string[];
    listMissing?: boolean;
    wait?: ListingWait;
    selection?: ProfileSelection;
  },
): Promise<NamespaceView> {
  const view = await listedView(
    daemon,
    input.selection ?? DEFAULT_SELECTION,
    input.listMissing,
    input.wait,
  );
  const whole = (ns: NamespaceEntry) =>
    !input.schemas || input.schemas.includes(ns.namespace) || input.schemas.includes(ns.server);
  return {
    ...view,
    namespaces: view.namespaces.map((ns) => ({
      ...ns,
      tools: ns.tools.map(({ terms: _terms, ...tool }) =>
        whole(ns) ? tool : {
          namespace: tool.namespace,
          server: tool.server,
          tool: tool.tool,
          fn: tool.fn,
          description: tool.description,
          tags: tool.tags,
          inputSchema: {},
          ...(tool.taskSupport ? { taskSupport: tool.taskSupport } : {}),
        }
      ),
      ...(whole(ns) ? {} : { summary: true }),
    })),
  };
}
