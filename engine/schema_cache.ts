/**
 * The on-disk schema cache: what each server's `tools/list` returned, so
 * `ls`, `search`, `types` and `catalog` answer without starting a server
 * (spec 000, "Zero-context discovery").
 *
 * The file is `<cacheDir>/schemas-<fingerprint>.json`. The daemon writes it
 * (atomically: a temporary file, fsync, rename); the CLI only reads it. This
 * module imports nothing heavy, so reading costs the CLI one file read.
 *
 * @module
 */

import { join } from "../core/posix_path.ts";
import type { CachedServer, SchemaCacheFile } from "../discovery/types.ts";
import {
  cachedServerOf,
  DECLARATION_FORMAT,
  lastFailure,
  listingRetryDue,
} from "../discovery/cache_entry.ts";
import { parseSalvaging } from "../core/damaged_json.ts";
import { ensurePrivateDir, writePrivateFile } from "../core/private_fs.ts";
import { VERSION } from "../core/version.ts";
import type { Redactor } from "../core/redact.ts";
import { own, setOwn } from "../core/own.ts";

/** The cache file's path for a configuration fingerprint. */
export function schemaCachePath(cacheDir: string, fingerprint: string): string {
  return join(cacheDir, `schemas-${fingerprint}.json`);
}

/**
 * Reads the cache file, or returns null when it is missing or unreadable
 * (an unreadable cache is a cold cache, never an error: the servers can be
 * listed again).
 *
 * Damage costs only what is damaged (issue 9): each entry is checked on its
 * own (discovery/cache_entry.ts `cachedServerOf`) and one of the wrong shape
 * is left out, as if never listed; a `servers` that is not an object is no
 * entries; a file cut short keeps the entries before the cut
 * (core/damaged_json.ts). The daemon lists what is missing and writes the
 * file whole again.
 */
export function readSchemaCache(path: string): SchemaCacheFile | null {
  let text: string;
  try {
    text = Deno.readTextFileSync(path);
  } catch {
    return null;
  }
  const { value } = parseSalvaging(text);
  if (!isObject(value) || value.version !== 1) return null;
  const servers: Record<string, CachedServer> = {};
  for (const [name, raw] of Object.entries(isObject(value.servers) ? value.servers : {})) {
    const entry = cachedServerOf(raw);
    if (entry) setOwn(servers, name, entry);
  }
  const cache: SchemaCacheFile = {
    version: 1,
    mcpxVersion: typeof value.mcpxVersion === "string" ? value.mcpxVersion : "",
    ...(typeof value.declarationFormat === "number"
      ? { declarationFormat: value.declarationFormat }
      : {}),
    configPath: typeof value.configPath === "string" ? value.configPath : null,
    servers,
  };
  // Declarations another mcpx version (or layout) generated may differ from
  // ours: drop them, and `mcpx types` generates them afresh (the schemas stay valid).
  if (cache.mcpxVersion !== VERSION || cache.declarationFormat !== DECLARATION_FORMAT) {
    for (const server of Object.values(servers)) {
      for (const tool of server.tools) delete tool.declaration;
    }
  }
  return cache;
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === "object" && !Array.isArray(v);

/** An empty cache for a configuration. */
export function emptySchemaCache(configPath: string | null): SchemaCacheFile {
  return {
    version: 1,
    mcpxVersion: VERSION,
    declarationFormat: DECLARATION_FORMAT,
    configPath,
    servers: {},
  };
}

/**
 * Writes the cache atomically and privately (core/private_fs.ts: a temporary
 * file in the same directory, fsync, rename; mode 0600), creating the
 * directory when missing, with every configured secret replaced by its
 * reference (a server's error or stderr may echo one).
 *
 * @param redactor The configuration's (core/redact.ts; config/secrets.ts
 *   `configRedactor()`); the daemon always passes its own. Imported as a type
 *   only, so the CLI's read path does not load it.
 * @throws {StorageError} (core/errors.ts) when the disk is full or the directory not writable.
 * @throws {UnsafeDirectoryError} when it is not the user's alone (core/private_fs.ts).
 */
export async function writeSchemaCache(
  path: string,
  cache: SchemaCacheFile,
  redactor?: Redactor,
): Promise<void> {
  const dir = path.slice(0, path.lastIndexOf("/"));
  ensurePrivateDir(dir, "mcpx's cache");
  const file = { ...cache, mcpxVersion: VERSION, declarationFormat: DECLARATION_FORMAT };
  await writePrivateFile(path, JSON.stringify(redactor ? redactor.json(file) : file));
}

/**
 * True when a server needs listing: no entry, an entry listed under another
 * `listingId` (config/types.ts `listingOf`) or written before entries had one,
 * an entry that never listed successfully and has no error either, or one
 * whose listings have failed and whose cooldown is over (`error.retryAt`,
 * discovery/cache_entry.ts). A server that listed once keeps its tools and is
 * not listed again here (`mcpx refresh` does that).
 *
 * @param entry The server's cache entry, if any.
 * @param listingId The server's current listing identity (`listingOf(spec).listingId`).
 * @param now The time, in ms since the epoch.
 * @returns Whether `ls`, `search`, `catalog` and the daemon's `list` with
 *   `missingOnly` should list it now.
 */
export function needsListing(
  entry: CachedServer | undefined,
  listingId: string,
  now = Date.now(),
): boolean {
  if (!entry || entry.listingId !== listingId) return true;
  if (entry.listedAt !== undefined) return false;
  const failure = lastFailure(entry);
  return failure === undefined || listingRetryDue(failure, now);
}

/**
 * Fills entries this cache lacks from the caches of other fingerprints (the
 * same file before an edit, another environment) when the server's
 * `listingId` — everything that changes its answer — is the same there, so
 * editing a comment or one server does not relist the others. Reads at most
 * the 8 most recently written sibling files.
 *
 * @param specs The servers' listings (`listingOf`: name and listingId are read).
 * @returns How many entries were filled in (the cache is changed in place).
 */
export function seedFromSiblings(
  cacheDir: string,
  fingerprint: string,
  cache: SchemaCacheFile,
  specs: { name: string; listingId: string; disabled?: boolean }[],
): number {
  const wanted = specs.filter((s) =>
    !s.disabled && needsListing(own(cache.servers, s.name), s.listingId)
  );
  if (wanted.length === 0) return 0;
  let siblings: { path: string; mtime: number }[];
  try {
    siblings = [...Deno.readDirSync(cacheDir)]
      .filter((e) =>
        e.isFile && /^schemas-[0-9a-f]+\.json$/.test(e.name) &&
        e.name !== `schemas-${fingerprint}.json`
      )
      .map((e) => {
        const path = join(cacheDir, e.name);
        return { path, mtime: Deno.statSync(path).mtime?.getTime() ?? 0 };
      })
      .sort((a, b) => b.mtime - a.mtime)
      .slice(0, 8);
  } catch {
    return 0;
  }
  let seeded = 0;
  for (const sibling of siblings) {
    const other = readSchemaCache(sibling.path);
    if (!other) continue;
    for (const spec of wanted) {
      if (!needsListing(own(cache.servers, spec.name), spec.listingId)) continue;
      const entry = own(other.servers, spec.name);
      if (entry?.listedAt && entry.listingId === spec.listingId && !lastFailure(entry)) {
        setOwn(cache.servers, spec.name, structuredClone(entry));
        seeded++;
      }
    }
  }
  return seeded;
}
