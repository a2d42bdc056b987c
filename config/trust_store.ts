/**
 * The trust store: which project configuration files the user trusted, and
 * with what. One private file, `<stateDir>/trust.json` (0600, written
 * atomically by core/private_fs.ts), shaped
 *
 * ```json
 * { "version": 1,
 *   "files": { "/real/path/.mcp.json": {
 *     "trustedAt": "2026-10-01T12:00:00.000Z",
 *     "servers": { "fs": "<SHA-256 hex of what the server runs>" },
 *     "settings": "<SHA-256 hex of the file's settings>" } } }
 * ```
 *
 * keyed by the file's real path (symlinks resolved). A server is trusted when
 * its current hash (config/trust.ts `runnableHashes()`) equals the recorded
 * one. Decision 0018 says why the hash covers what runs, not the whole file.
 *
 * A damaged store never breaks more than itself: what cannot be read is not
 * trusted (so it does not start), what can is kept, and each problem is
 * reported in `problems`, naming the file; every command that checks trust
 * prints them as `warning:` lines.
 *
 * @module
 */

import { join } from "../core/posix_path.ts";
import { ensurePrivateDir, writePrivateFile } from "../core/private_fs.ts";
import { keepDamagedCopy, parseSalvaging } from "../core/damaged_json.ts";

/** What the user trusted of one configuration file. */
export interface TrustRecord {
  /** When `mcpx trust` recorded it (ISO 8601). */
  trustedAt: string;
  /** Server name (the key under `mcpServers`) → SHA-256 hex of what it runs. */
  servers: Record<string, string>;
  /**
   * SHA-256 hex of the file's settings (config/trust.ts `settingsHash()`,
   * decision 0022). Absent in a record written before settings were covered:
   * the file's settings then wait for `mcpx trust` again, its servers do not.
   */
  settings?: string;
}

/** The whole store, as read. */
export interface TrustStore {
  /** Real path of a configuration file → its record. */
  files: Record<string, TrustRecord>;
  /** What could not be read, one sentence each naming the store file; empty when all was. */
  problems: string[];
}

/** The layout version written; a store of another version is read as empty. */
const STORE_VERSION = 1;

/**
 * Where the trust store lives.
 *
 * @param stateDir mcpx's state directory (config/paths.ts `stateDir`).
 * @returns `<stateDir>/trust.json`.
 * @example
 * ```ts
 * import { trustStorePath } from "./trust_store.ts";
 * if (trustStorePath("/s") !== "/s/trust.json") throw new Error();
 * ```
 */
export function trustStorePath(stateDir: string): string {
  return join(stateDir, "trust.json");
}

/**
 * Reads the trust store. Never throws for a missing or damaged file.
 *
 * A damaged store costs only what is damaged (as the sessions file,
 * decision 0019): a file cut short keeps the records before the cut
 * (core/damaged_json.ts `parseSalvaging`), an entry of the wrong shape is
 * skipped, and each is reported in `problems`, naming the file. Only ever
 * in the direction of less trust: what cannot be read is not trusted.
 *
 * @param path The store file ({@link trustStorePath}).
 * @returns The readable records and the problems met; a missing file is an empty store.
 * @example
 * ```ts
 * import { readTrustStore } from "./trust_store.ts";
 * const store = readTrustStore("/nonexistent/trust.json");
 * if (Object.keys(store.files).length !== 0 || store.problems.length !== 0) throw new Error();
 * ```
 */
export function readTrustStore(path: string): TrustStore & { damaged?: Uint8Array } {
  let bytes: Uint8Array;
  try {
    bytes = Deno.readFileSync(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return { files: {}, problems: [] };
    return {
      files: {},
      problems: [
        `cannot read the trust store ${path}: ${(error as Error).message}; nothing is trusted ` +
        `until it can be read (check its permissions)`,
      ],
    };
  }
  const { value, damaged } = parseSalvaging(new TextDecoder().decode(bytes));
  const doc = isObject(value) ? value : {};
  const again = "until `mcpx trust` records it again";
  if (!damaged && (doc.version !== STORE_VERSION || !isObject(doc.files))) {
    return {
      files: {},
      problems: [
        `the trust store ${path} is not a version ${STORE_VERSION} store; nothing in it is ` +
        `trusted ${again}`,
      ],
      damaged: bytes,
    };
  }
  const files: Record<string, TrustRecord> = {};
  const problems: string[] = [];
  const versionOk = doc.version === STORE_VERSION || doc.version === undefined;
  for (const [file, record] of Object.entries(versionOk && isObject(doc.files) ? doc.files : {})) {
    if (isRecord(record)) files[file] = record;
    else problems.push(`the trust store ${path}: the entry for ${file} is damaged and skipped`);
  }
  if (damaged) {
    const kept = Object.keys(files).length;
    problems.unshift(
      kept === 0
        ? `the trust store ${path} is damaged (${
          value === undefined ? "nothing in it is readable JSON" : "it is not whole JSON"
        }), so no project's configuration is trusted ${again}`
        : `the trust store ${path} is damaged (it is not whole JSON); the ${kept} file${
          kept === 1 ? "" : "s"
        } read before the damage stay trusted, any other is not ${again}`,
    );
  }
  return { files, problems, ...(problems.length ? { damaged: bytes } : {}) };
}

/**
 * Changes the store: reads it, lets `change` edit the records, writes it back
 * privately and atomically. A damaged store's bytes are first kept beside it
 * (`trust.json.damaged-<time>`, core/damaged_json.ts `keepDamagedCopy`), so
 * nothing in it is lost by being written over. Concurrent changes are not
 * merged: the last writer wins (`mcpx trust` is typed by a person).
 *
 * @param stateDir mcpx's state directory; created 0700 when missing.
 * @param change Edits `files` in place.
 * @returns The store as written, and where a damaged store's bytes were kept.
 * @throws {UnsafeDirectoryError} when the state directory is another user's
 *   or writable by others; the file system's error when it cannot be written.
 */
export async function updateTrustStore(
  stateDir: string,
  change: (files: Record<string, TrustRecord>) => void,
): Promise<TrustStore & { keptDamaged?: string }> {
  ensurePrivateDir(stateDir, "mcpx's state");
  const path = trustStorePath(stateDir);
  const store = readTrustStore(path);
  const keptDamaged = store.damaged ? keepDamagedCopy(path, store.damaged) : undefined;
  change(store.files);
  const sorted = Object.fromEntries(
    Object.entries(store.files).sort(([a], [b]) => a < b ? -1 : a > b ? 1 : 0),
  );
  await writePrivateFile(
    path,
    JSON.stringify({ version: STORE_VERSION, files: sorted }, null, 2) + "\n",
  );
  return { files: sorted, problems: [], ...(keptDamaged ? { keptDamaged } : {}) };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

function isRecord(value: unknown): value is TrustRecord {
  if (!isObject(value) || typeof value.trustedAt !== "string" || !isObject(value.servers)) {
    return false;
  }
  if (value.settings !== undefined && typeof value.settings !== "string") return false;
  return Object.values(value.servers).every((hash) => typeof hash === "string");
}
