/**
 * The sizes of a listed server's whole `mcpx types` blocks, stored with its
 * cache entry by the daemon (engine/listings.ts) so search's types hint
 * does not lay out every declaration of a large namespace per command
 * (decision 0028).
 *
 * @module
 */

import { listingOf, type ServerSpec } from "../config/types.ts";
import type { BlockSize, CachedServer } from "../discovery/types.ts";
import { namespacesFromCache } from "../discovery/view.ts";
import { setOwn } from "../core/own.ts";
import { emptySchemaCache } from "./schema_cache.ts";
import { log } from "./log.ts";
import { describe } from "./error_text.ts";

/**
 * The sizes of the whole `mcpx types` blocks of the namespaces that read
 * `entry` (a server and its aliases; discovery/types_hint.ts `blockSize`),
 * stored with it so search's hint does not lay out every declaration of a
 * large namespace each time. Made only once every tool has its declaration
 * (so the daemon never loads the generator for them); a failure leaves them out: the hint works them out.
 */
export async function blockSizes(
  servers: ServerSpec[],
  name: string,
  entry: CachedServer,
): Promise<BlockSize[]> {
  try {
    const { blockSize } = await import("../discovery/types_hint.ts");
    const readers = servers.filter((s) => !s.disabled && listingOf(s).name === name);
    const cache = emptySchemaCache(null);
    setOwn(cache.servers, name, entry);
    const { namespaces } = namespacesFromCache(readers, cache);
    // A declaration that does not parse would be made again from its schema, loading the
    // generator into the daemon (decision 0029): such a namespace's size is worked out by
    // the hint, in the CLI, instead.
    const { parseDeclaration } = await import("../discovery/_ts_model.ts");
    // Parsed once here and handed to blockSize, which would otherwise parse them again.
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
    const sizes: BlockSize[] = [];
    for (const ns of namespaces) {
      const decls = ns.tools.length > 0 ? parsed(ns) : undefined;
      if (decls) sizes.push(await blockSize(ns, decls));
    }
    return sizes;
  } catch (error) {
    log("warn", "daemon.error", "sizing types blocks failed: {error}", { error: describe(error) });
    return [];
  }
}
