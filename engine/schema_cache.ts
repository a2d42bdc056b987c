/**
 * The on-disk schema cache: what each server's `tools/list` returned, so
 * `ls`, `search`, `types` and `catalog` answer without starting a server
 * (spec 000, "Zero-context discovery").
 *
 * Two parts, so a command reads what it needs and not every schema of the
 * configuration (issue 11; decision 0028):
 *
 * - `<cacheDir>/schemas-<fingerprint>.json`, the index: every server's
 *   entry with its tools' names, titles and descriptions, the words search
 *   matches (discovery/search.ts `toolTerms`), and the name of its file.
 *   `ls` and `search` read only this.
 * - `<cacheDir>/schemas-<fingerprint>/s-<hash of the server name>.json`: one
 *   server's whole entry, schemas and declarations. `types ns` reads the
 *   index and that one file.
 *
 * The daemon writes both (atomically: a temporary file, fsync, rename; a
 * server's file before the index that names it); the CLI only reads. This
 * module imports nothing heavy, so reading costs the CLI a file read or two.
 * A cache of the earlier single-file layout (`version` 1) reads as cold: the
 * daemon lists again, which is cheap.
 *
 * @module
 */

import { join } from "../core/posix_path.ts";
import type {
  CachedServer,
  IndexedServer,
  IndexedTool,
  SchemaCacheFile,
  SchemaIndex,
} from "../discovery/types.ts";
import {
  cachedServerOf,
  DECLARATION_FORMAT,
  indexedServerOf,
  lastFailure,
  LISTING_FORMAT,
  listingRetryDue,
} from "../discovery/cache_entry.ts";
import { toolTerms } from "../discovery/search.ts";
import { moveDamagedAside, parseSalvaging } from "../core/damaged_json.ts";
import { ensurePrivateDir, writePrivateFile } from "../core/private_fs.ts";
import { fnv1a64 } from "../core/fnv1a64.ts";
import { VERSION } from "../core/version.ts";
import type { Redactor } from "../core/redact.ts";
import { own, setOwn } from "../core/own.ts";
import { keptRead } from "./kept_reads.ts";

/** The index's path for a configuration fingerprint. */
export function schemaCachePath(cacheDir: string, fingerprint: string): string {
  return join(cacheDir, `schemas-${fingerprint}.json`);
}

/** The folder of the servers' files beside an index: its path without `.json`. */
export function schemaEntriesDir(indexPath: string): string {
  return indexPath.replace(/\.json$/, "");
}

/**
 * The file name of a server's entry: `s-` and the FNV-1a hash of its name
 * (config/pool_id.ts), since a server's name may hold any character.
 */
export function entryFileName(server: string): string {
  return `s-${fnv1a64(server)}.json`;
}

const ENTRY_FILE = /^s-[0-9a-f]{16}\.json$/;

/**
 * Reads the index, or returns null when it is missing, unreadable or of the
 * earlier single-file layout (a cold cache, never an error: the servers can
 * be listed again). Each entry's `file` is set to the absolute path of its
 * whole entry; tools carry no schemas until {@link loadEntries}.
 *
 * Damage costs only what is damaged (issue 9): each entry is checked on its
 * own (discovery/cache_entry.ts `indexedServerOf`) and one of the wrong shape,
 * or naming no file of the shape mcpx writes, is left out, as if never
 * listed; a `servers` that is not an object is no entries; a file cut short
 * keeps the entries before the cut (core/damaged_json.ts). Search terms
 * another mcpx version worked out are dropped (search works them out again);
 * entries another listing layout stored (discovery/cache_entry.ts
 * `LISTING_FORMAT`) are all left out, so their servers are listed again.
 *
 * @param path The index (`schemaCachePath`).
 * @returns The index, or null.
 */
export function readSchemaIndex(path: string): SchemaIndex | null {
  const index = keptRead(path, () => readSchemaIndexNow(path));
  // The index's map of servers is the caller's to change (loadEntries does); its entries are not.
  return index && { ...index, servers: { ...index.servers } };
}

function readSchemaIndexNow(path: string): SchemaIndex | null {
  const value = readJson(path);
  if (!isObject(value) || value.version !== 2) return null;
  // Entries another listing layout stored are not entries: their servers are listed again.
  if (value.listingFormat !== LISTING_FORMAT) value.servers = {};
  const dir = schemaEntriesDir(path);
  const sameVersion = value.mcpxVersion === VERSION;
  const servers: Record<string, IndexedServer> = {};
  for (const [name, raw] of Object.entries(isObject(value.servers) ? value.servers : {})) {
    const entry = indexedServerOf(raw);
    const file = isObject(raw) ? raw.file : undefined;
    if (!entry || typeof file !== "string" || !ENTRY_FILE.test(file)) continue;
    for (const tool of entry.tools) {
      // Another version may split words otherwise; stored as words joined by spaces.
      const words = tool.terms as unknown as { name: string; description: string } | undefined;
      if (words && sameVersion) {
        tool.terms = { name: wordsOf(words.name), description: wordsOf(words.description) };
      } else delete tool.terms;
    }
    // Or lay out declarations otherwise.
    if (!sameVersion) delete entry.blocks;
    setOwn(servers, name, { ...entry, file: join(dir, file) });
  }
  return {
    version: 2,
    mcpxVersion: typeof value.mcpxVersion === "string" ? value.mcpxVersion : "",
    ...(typeof value.declarationFormat === "number"
      ? { declarationFormat: value.declarationFormat }
      : {}),
    configPath: typeof value.configPath === "string" ? value.configPath : null,
    servers,
  };
}

/**
 * Reads one server's whole entry from its file, or undefined when the file
 * is missing, unreadable or not of the shape mcpx writes (the server is then
 * treated as never listed). Declarations another mcpx version, or another
 * layout of them, generated are dropped: `mcpx types` generates them afresh.
 *
 * In a process that keeps what it reads (engine/kept_reads.ts: the front),
 * the entry is shared and frozen.
 *
 * @param file The entry's path (`IndexedServer.file`).
 * @returns The entry, or undefined.
 */
export function readServerEntry(file: string): CachedServer | undefined {
  return keptRead(file, () => readServerEntryNow(file));
}

function readServerEntryNow(file: string): CachedServer | undefined {
  const value = readJson(file);
  if (!isObject(value) || value.version !== 2 || value.listingFormat !== LISTING_FORMAT) {
    return undefined;
  }
  const entry = cachedServerOf(value.server);
  if (!entry) return undefined;
  if (value.mcpxVersion !== VERSION || value.declarationFormat !== DECLARATION_FORMAT) {
    for (const tool of entry.tools) delete tool.declaration;
    delete entry.blocks;
    delete entry.rendered;
  }
  return entry;
}

/**
 * Replaces index entries by the whole entries their files hold, in place:
 * the tools (schemas, declarations) from the file, the rest (when listed,
 * the failure and its cooldown) from the index, so a command and the daemon
 * judge a server's state from the same place. An entry whose file cannot be
 * read whole is removed from the index, as if never listed, so the daemon
 * lists that server again (issue 9).
 *
 * @param index The index ({@link readSchemaIndex}), changed in place.
 * @param names The servers to load, by `mcpServers` key; absent: every one.
 * @returns The index, typed as whole for the entries loaded.
 */
export function loadEntries(index: SchemaIndex, names?: Iterable<string>): SchemaIndex {
  for (const name of names ?? Object.keys(index.servers)) {
    const indexed = own(index.servers, name);
    if (!indexed?.file) continue;
    const entry = readServerEntry(indexed.file);
    if (!entry) {
      delete index.servers[name];
      continue;
    }
    // What the index leaves out (the server's instructions) comes from the file.
    const { file: _, tools: __, ...state } = indexed;
    setOwn(index.servers, name, { ...entry, ...state, tools: entry.tools });
  }
  return index;
}

/**
 * Reads the whole cache, the index and every server's file
 * ({@link readSchemaIndex}, {@link loadEntries}), or null when cold.
 *
 * @param path The index (`schemaCachePath`).
 */
export function readSchemaCache(path: string): SchemaCacheFile | null {
  const index = readSchemaIndex(path);
  return index ? loadEntries(index) as SchemaCacheFile : null;
}

const wordsOf = (text: string): string[] => text === "" ? [] : text.split(" ");

/**
 * A cache file's JSON, or what can be read of it: a file that is not whole
 * JSON is moved aside as `<file>.damaged-<time>` with a warning (the one rule
 * for damaged state, decision 0019); the entries read before the damage are
 * kept, and the servers it held whole are listed again.
 */
function readJson(path: string): unknown {
  let bytes: Uint8Array;
  try {
    bytes = Deno.readFileSync(path);
  } catch {
    return undefined;
  }
  const { value, damaged } = parseSalvaging(new TextDecoder().decode(bytes));
  if (damaged) {
    try {
      moveDamagedAside({
        path,
        what: "the schema cache file",
        why: "it is not whole JSON",
        lost: "nothing is lost, the servers it held are listed again",
      }, { expect: bytes });
    } catch { /* cannot be moved (a read-only cache): read as what could be read, as before */ }
  }
  return value;
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === "object" && !Array.isArray(v);

/** An empty cache for a configuration. */
export function emptySchemaCache(configPath: string | null): SchemaCacheFile {
  return {
    version: 2,
    mcpxVersion: VERSION,
    declarationFormat: DECLARATION_FORMAT,
    configPath,
    servers: {},
  };
}

/**
 * Writes the cache atomically and privately (core/private_fs.ts: a temporary
 * file in the same directory, fsync, rename; mode 0600), creating the
 * directories when missing, with every configured secret replaced by its
 * reference (a server's error or stderr may echo one): the files of the
 * servers `changed` names, then the index, so the index never names a file
 * not yet written.
 *
 * @param path The index (`schemaCachePath`).
 * @param changed Servers whose entries changed since the last write; absent: every one.
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
  changed?: Iterable<string>,
): Promise<void> {
  const dir = path.slice(0, path.lastIndexOf("/"));
  ensurePrivateDir(dir, "mcpx's cache");
  const entriesDir = schemaEntriesDir(path);
  ensurePrivateDir(entriesDir, "mcpx's cache");
  const stamp = {
    version: 2,
    mcpxVersion: VERSION,
    declarationFormat: DECLARATION_FORMAT,
    listingFormat: LISTING_FORMAT,
  };
  const clean = <T>(value: T): T => redactor ? redactor.json(value) : value;
  for (const name of changed ?? Object.keys(cache.servers)) {
    const server = own(cache.servers, name);
    if (!server) continue;
    await writePrivateFile(
      join(entriesDir, entryFileName(name)),
      JSON.stringify(clean({ ...stamp, server })),
    );
  }
  const servers: Record<string, unknown> = {};
  for (const [name, server] of Object.entries(cache.servers)) {
    // The server's instructions and laid-out blocks are in its file: no command that reads
    // the index shows them.
    const { instructions: _, rendered: _text, ...state } = server;
    setOwn(servers, name, {
      ...state,
      tools: server.tools.map(indexedTool),
      file: entryFileName(name),
    });
  }
  // The stamp before the servers: a file cut short keeps it, and the entries before the cut.
  const { servers: _all, ...rest } = cache;
  const index = { ...stamp, ...rest, ...stamp, servers };
  await writePrivateFile(path, JSON.stringify(clean(index)));
}

/**
 * A tool as the index holds it: its names, description and search words,
 * each list of words joined by spaces (a word holds none), a third smaller
 * than a JSON list.
 */
function indexedTool(tool: IndexedTool): Record<string, unknown> {
  const terms = toolTerms(tool);
  return {
    name: tool.name,
    ...(tool.title !== undefined ? { title: tool.title } : {}),
    ...(tool.description !== undefined ? { description: tool.description } : {}),
    terms: { name: terms.name.join(" "), description: terms.description.join(" ") },
  };
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
  entry: IndexedServer | undefined,
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
 * editing a comment or one server does not relist the others. Reads the
 * indexes of at most the 8 most recently written siblings, and a server's
 * file only when `load` does.
 *
 * @param cache This configuration's cache, changed in place.
 * @param specs The servers' listings (`listingOf`: name and listingId are read).
 * @param load What to keep of a sibling's entry (its `file` set): the daemon
 *   reads the whole entry ({@link readServerEntry}); the CLI keeps the index
 *   entry, whose `file` then names the sibling's file. Undefined: not seeded.
 * @returns How many entries were filled in.
 */
export function seedFromSiblings<S extends IndexedServer>(
  cacheDir: string,
  fingerprint: string,
  cache: SchemaCacheFile<S>,
  specs: { name: string; listingId: string; disabled?: boolean }[],
  load: (entry: IndexedServer) => S | undefined,
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
    const other = readSchemaIndex(sibling.path);
    if (!other) continue;
    for (const spec of wanted) {
      if (!needsListing(own(cache.servers, spec.name), spec.listingId)) continue;
      const found = own(other.servers, spec.name);
      if (!found?.listedAt || found.listingId !== spec.listingId || lastFailure(found)) continue;
      const entry = load(found);
      if (entry) {
        setOwn(cache.servers, spec.name, entry);
        seeded++;
      }
    }
  }
  return seeded;
}
