/**
 * The storage view's query (spec 000, "Six views": what all of it costs on
 * disk): every file mcpx keeps, grouped by what it is — the log, its index,
 * the schema cache, OAuth tokens, sessions, daemon records — with bytes and
 * file counts, largest first. The places are the ones config/paths.ts
 * resolves (`paths.state`, `paths.cache`) and `logging.dir`; what each name
 * in them is comes from the modules that write it (logs/writer.ts,
 * logs/index_db.ts, engine/schema_cache.ts, engine/oauth_store.ts,
 * engine/sessions.ts, wire/locate.ts, config/trust_store.ts,
 * config/compiled.ts, runner/run_script.ts, client/client_file.ts,
 * cli/run/exec.ts, cli/direct_target.ts). A name no module claims is shown
 * under its own name, so nothing on disk goes uncounted.
 *
 * @module
 */

import { join } from "../../core/posix_path.ts";
import type { Row } from "./grid.ts";

/** Where mcpx keeps things: config/paths.ts `McpxPaths` and the log's folder. */
export interface StoragePlaces {
  stateDir: string;
  cacheDir: string;
  /** `logging.dir`, else `<stateDir>/logs`. */
  logsDir: string;
}

/** One kind of thing on disk. */
export interface StorageRow extends Row {
  /** What it is: `log`, `log index`, `schema cache`, … */
  what: string;
  /** Its size, as people read it (`1.2 MiB`). */
  size: string;
  /** Its size in bytes. */
  bytes: number;
  files: number;
  /** Where it is: a folder, a file, or a pattern (`<cache>/schemas-*`). */
  path: string;
}

/** What the names directly in the state folder are. */
const STATE_NAMES: Record<string, string> = {
  daemons: "daemon records and logs",
  sockets: "daemon sockets",
  sessions: "named sessions",
  oauth: "OAuth tokens",
  "trust.json": "trust store",
  direct: "servers named on the command line",
};

/** What the names directly in the cache folder are, by pattern. */
const CACHE_PATTERNS: [RegExp, string, string][] = [
  [/^schemas-[0-9a-f]+(\.json)?$/, "schema cache", "schemas-*"],
  [/^config-[0-9a-f]+\.json$/, "compiled configurations", "config-*.json"],
  [/^launchers$/, "script launchers", "launchers"],
  [/^clients$/, "generated clients", "clients"],
  [/^exec$/, "exec programs", "exec"],
];

/** The log index's files in the log folder (logs/index_db.ts; SQLite's journal beside it). */
const INDEX_FILE = /^index\.db(-journal|-wal|-shm)?$/;

/**
 * What mcpx's state and cache cost on disk, largest first; a place that
 * does not exist costs nothing and is left out.
 *
 * @param places The folders to measure.
 * @returns One row per kind of thing, {@link StorageRow}.
 */
export async function storageRows(places: StoragePlaces): Promise<StorageRow[]> {
  const totals = new Map<string, { bytes: number; files: number; path: string }>();
  const add = (what: string, path: string, size: { bytes: number; files: number }) => {
    if (size.files === 0 && size.bytes === 0) return;
    const total = totals.get(what) ?? { bytes: 0, files: 0, path };
    total.bytes += size.bytes;
    total.files += size.files;
    totals.set(what, total);
  };
  const logs = places.logsDir;
  for (const entry of await entries(logs)) {
    const path = join(logs, entry);
    if (INDEX_FILE.test(entry)) add("log index", join(logs, "index.db"), await sizeOf(path));
    else add("log", logs, await sizeOf(path));
  }
  for (const entry of await entries(places.stateDir)) {
    const path = join(places.stateDir, entry);
    if (path === logs) continue;
    add(STATE_NAMES[entry] ?? entry, path, await sizeOf(path));
  }
  for (const entry of await entries(places.cacheDir)) {
    const path = join(places.cacheDir, entry);
    const known = CACHE_PATTERNS.find(([pattern]) => pattern.test(entry));
    if (known) add(known[1], join(places.cacheDir, known[2]), await sizeOf(path));
    else add(entry, path, await sizeOf(path));
  }
  return [...totals].map(([what, t]) => ({
    what,
    size: humanBytes(t.bytes),
    bytes: t.bytes,
    files: t.files,
    path: t.path,
  })).sort((a, b) => b.bytes - a.bytes || a.what.localeCompare(b.what));
}

/**
 * Bytes as people read them: `512 B`, `1.5 KiB`, `12.0 MiB`.
 *
 * @example
 * ```ts
 * import { humanBytes } from "./storage.ts";
 * if (humanBytes(1536) !== "1.5 KiB") throw new Error();
 * ```
 */
export function humanBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ["KiB", "MiB", "GiB", "TiB"];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value.toFixed(1)} ${units[unit]}`;
}

async function entries(dir: string): Promise<string[]> {
  const names: string[] = [];
  try {
    for await (const entry of Deno.readDir(dir)) names.push(entry.name);
  } catch {
    // Not there (yet), or not readable: it costs nothing we can count.
  }
  return names.sort();
}

/** Bytes and files under `path`, links not followed (a link counts as itself). */
async function sizeOf(path: string): Promise<{ bytes: number; files: number }> {
  let info: Deno.FileInfo;
  try {
    info = await Deno.lstat(path);
  } catch {
    return { bytes: 0, files: 0 };
  }
  if (!info.isDirectory) return { bytes: info.size, files: 1 };
  let bytes = 0;
  let files = 0;
  for (const name of await entries(path)) {
    const size = await sizeOf(join(path, name));
    bytes += size.bytes;
    files += size.files;
  }
  return { bytes, files };
}
