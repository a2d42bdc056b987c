/**
 * The key of a namespace's whole `mcpx types` block, under which the daemon
 * stores the block's size and text with the server's cache entry
 * (engine/block_sizes.ts) and its readers find them again.
 *
 * @module
 */

import type { NamespaceEntry } from "./types.ts";
import { fnv1a64 } from "../core/fnv1a64.ts";

/**
 * What a namespace's whole `mcpx types` block is made of besides its
 * server's listing: its name, its description, where relative paths resolve
 * (`pathsIn`), and which tools it shows
 * under which names, hashed (FNV-1a 64, config/pool_id.ts). A block laid out
 * or sized under one key holds for a view with the same key.
 *
 * @param ns A namespace of the discovery view.
 * @returns 16 hex digits.
 */
export function blockKey(
  ns: Pick<NamespaceEntry, "namespace" | "description" | "tools" | "pathsIn">,
): string {
  return fnv1a64(
    JSON.stringify([
      ns.namespace,
      ns.description,
      ns.tools.map((t) => [t.tool, t.fn]),
      // Absent for most: their keys stay what they were.
      ...(ns.pathsIn === undefined ? [] : [ns.pathsIn]),
    ]),
  );
}

/**
 * The namespace's whole block as the daemon laid it out when it listed the
 * server (`NamespaceEntry.rendered`), when it was laid out under the
 * namespace's present key; else undefined.
 *
 * @param ns A namespace of the discovery view.
 */
export function laidOutBlock(
  ns: Pick<NamespaceEntry, "namespace" | "description" | "tools" | "rendered" | "pathsIn">,
): string | undefined {
  if (!ns.rendered?.length) return undefined;
  const key = blockKey(ns);
  return ns.rendered.find((b) => b.key === key)?.text;
}
