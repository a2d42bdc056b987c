/**
 * The whole `mcpx types` blocks of a listed server's namespaces, laid out and
 * sized, stored with its cache entry by the daemon (engine/listings.ts): the
 * sizes so search's types hint does not lay out every declaration of a large
 * namespace per command (decision 0028), the text so `mcpx types <namespace>`
 * prints it as it is (issue 11).
 *
 * @module
 */

import { listingOf, type ServerSpec } from "../config/types.ts";
import type { BlockSize, CachedServer, RenderedBlock } from "../discovery/types.ts";
import { namespacesFromCache } from "../discovery/view.ts";
import { setOwn } from "../core/own.ts";
import { emptySchemaCache } from "./schema_cache.ts";
import { log } from "./log.ts";
import { describe } from "./error_text.ts";

/** What {@link laidOutBlocks} gives: one of each per namespace that reads the entry. */
export interface LaidOutBlocks {
  /** Each block's size (`CachedServer.blocks`). */
  blocks: BlockSize[];
  /** Each block's text (`CachedServer.rendered`). */
  rendered: RenderedBlock[];
}

/**
 * The whole `mcpx types` blocks of the namespaces that read `entry` (a server
 * and its aliases; discovery/types_hint.ts `wholeBlock`), laid out and sized.
 * Made only once every tool has its declaration (so the daemon never loads
 * the generator for them); a failure leaves them out, and the readers work
 * them out themselves.
 *
 * @param servers The configuration's servers.
 * @param name The entry's listing name (config/types.ts `listingOf`).
 * @param entry The server's entry, with its tools' declarations.
 * @returns Both lists, empty when none could be made (logged as `daemon.error`).
 */
export async function laidOutBlocks(
  servers: ServerSpec[],
  name: string,
  entry: CachedServer,
): Promise<LaidOutBlocks> {
  try {
    const { wholeBlock, sizeOf } = await import("../discovery/types_hint.ts");
    const readers = servers.filter((s) => !s.disabled && listingOf(s).name === name);
    const cache = emptySchemaCache(null);
    setOwn(cache.servers, name, entry);
    const { namespaces } = namespacesFromCache(readers, cache);
    // A declaration that does not parse would be made again from its schema, loading the
    // generator into the daemon (decision 0029): such a namespace's block is worked out by
    // its readers, in the CLI, instead.
    const { parseDeclaration } = await import("../discovery/_ts_model.ts");
    // Parsed once here and handed to wholeBlock, which would otherwise parse them again.
    const parsed = (ns: (typeof namespaces)[number]) => {
      try {
        return ns.tools.map((t) => {
          if (t.declaration === undefined) throw new Error(`${t.tool} has no declaration`);
          return parseDeclaration(t.declaration);
        });
      } catch {
        return undefined;
      }
    };
    const rendered: RenderedBlock[] = [];
    for (const ns of namespaces) {
      const decls = ns.tools.length > 0 ? parsed(ns) : undefined;
      if (decls) rendered.push(await wholeBlock(ns, decls));
    }
    return { blocks: rendered.map(sizeOf), rendered };
  } catch (error) {
    log("warn", "daemon.error", "laying out types blocks failed: {error}", {
      error: describe(error),
    });
    return { blocks: [], rendered: [] };
  }
}

/**
 * Stores {@link laidOutBlocks}' lists on `entry`, or none when empty.
 *
 * @param entry The server's entry, changed in place.
 * @param laid What {@link laidOutBlocks} gave for it.
 */
export function keepBlocks(entry: CachedServer, laid: LaidOutBlocks): void {
  if (laid.blocks.length) entry.blocks = laid.blocks;
  if (laid.rendered.length) entry.rendered = laid.rendered;
}
