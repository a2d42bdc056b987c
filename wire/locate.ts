/**
 * Where a daemon for a configuration lives: its unix socket, its record in
 * `mcpx daemons`, its lock and its log. Everything is derived from the state
 * directory and the configuration's fingerprint (spec 000, "One daemon per
 * config"), so CLI and daemon agree without talking.
 *
 * @module
 */

import { join } from "../core/posix_path.ts";

/**
 * Longest socket path used as is, in bytes. `sun_path` holds 108 bytes on
 * Linux and 104 on macOS, including the terminating NUL; beyond this a short
 * fallback ({@link socketFallbackDirs}) is used instead.
 */
export const MAX_SOCKET_PATH_BYTES = 100;

/** The files of one daemon. */
export interface DaemonFiles {
  socket: string;
  /** JSON {@link DaemonRecord}, present while the daemon runs. */
  record: string;
  /** Taken by a CLI while it starts the daemon, so two CLIs start one. */
  lock: string;
  /** The auto-started daemon's stderr. */
  log: string;
  /**
   * The ledger of its stdio servers' process groups (engine/process_groups.ts),
   * swept when the daemon is found dead.
   */
  groups: string;
}

/** What a running daemon writes about itself (listed by `mcpx daemons`). */
export interface DaemonRecord {
  fingerprint: string;
  pid: number;
  socket: string;
  configPath: string | null;
  /**
   * Hash of the configuration's path and bytes only (not the environment), so
   * a daemon for an edited file can tell older ones apart from ones serving
   * the same file under other variable values.
   */
  contentHash?: string;
  version: string;
  mode: "auto" | "foreground";
  startedAt: string;
}

/** Reads one environment variable. */
export type EnvLookup = (name: string) => string | undefined;

/**
 * This process's own environment, as an {@link EnvLookup}: for a process
 * that serves itself (the daemon). A command reads its caller's, which in
 * the front (decision 0068) is not the process's: it is never a default.
 */
export const processEnv: EnvLookup = (name) => Deno.env.get(name);

/**
 * The paths for the daemon of `fingerprint`.
 *
 * The socket is `<stateDir>/sockets/<fingerprint>.sock` unless that path is
 * longer than {@link MAX_SOCKET_PATH_BYTES}; then it goes to the first of
 * {@link socketFallbackDirs} where it fits, named by the fingerprint and a
 * hash of the state directory (two state directories never share a daemon).
 *
 * @param stateDir e.g. `~/.local/state/mcpx`.
 * @param fingerprint 16 hex chars from config/fingerprint.ts.
 * @param env Where `XDG_RUNTIME_DIR` and `TMPDIR` are read: the caller's environment
 *   ({@link processEnv} in the daemon).
 */
export function daemonFiles(
  stateDir: string,
  fingerprint: string,
  env: EnvLookup,
): DaemonFiles {
  let socket = join(stateDir, "sockets", `${fingerprint}.sock`);
  if (byteLength(socket) > MAX_SOCKET_PATH_BYTES) {
    const name = `${fingerprint}-${shortHash(stateDir)}.sock`;
    const dirs = socketFallbackDirs(env);
    const dir = dirs.find((d) => byteLength(join(d, name)) <= MAX_SOCKET_PATH_BYTES) ??
      dirs.at(-1)!;
    socket = join(dir, name);
  }
  return {
    socket,
    record: join(stateDir, "daemons", `${fingerprint}.json`),
    lock: join(stateDir, "daemons", `${fingerprint}.lock`),
    log: join(stateDir, "daemons", `${fingerprint}.log`),
    groups: join(stateDir, "daemons", `${fingerprint}.groups`),
  };
}

/**
 * Where sockets go whose path under the state directory would be too long,
 * most preferred first: `$XDG_RUNTIME_DIR/mcpx` when that variable is an
 * absolute path (the XDG Base Directory spec makes that directory the user's
 * own, mode 0700, so no other user can have made `mcpx` in it first), then
 * `<temporary directory>/mcpx-<uid>`, then `/tmp/mcpx-<uid>`. Either way the
 * directory is held to core/private_dir_rule.ts before it is used: another
 * user can create `/tmp/mcpx-<uid>` before mcpx does, and is then refused.
 *
 * @param env Where `XDG_RUNTIME_DIR`, `TMPDIR`, `TMP` and `TEMP` are read.
 * @returns Absolute directories, deduplicated.
 */
export function socketFallbackDirs(env: EnvLookup): string[] {
  const dirs: string[] = [];
  const runtime = env("XDG_RUNTIME_DIR")?.replace(/(.)\/+$/, "$1");
  if (runtime?.startsWith("/")) dirs.push(join(runtime, "mcpx"));
  const user = `mcpx-${Deno.uid() ?? "u"}`;
  const tmp = (env("TMPDIR") || env("TMP") || env("TEMP") || "/tmp").replace(/(.)\/+$/, "$1");
  dirs.push(join(tmp, user), join("/tmp", user));
  return [...new Set(dirs)];
}

/** What the sockets' directory holds, in the words of a refusal (core/private_dir_rule.ts). */
export const SOCKET_DIR_WHAT = "mcpx's daemon sockets";

function byteLength(text: string): number {
  return new TextEncoder().encode(text).length;
}

/** 8 hex chars of FNV-1a (32-bit) over `text`: a short, stable name part. */
function shortHash(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash.toString(16).padStart(8, "0");
}

/** Every ledger directory of process groups in the state directory, whatever its fingerprint. */
export function groupLedgers(stateDir: string): string[] {
  const dir = join(stateDir, "daemons");
  try {
    return [...Deno.readDirSync(dir)]
      .filter((e) => e.isDirectory && e.name.endsWith(".groups"))
      .map((e) => join(dir, e.name));
  } catch {
    return [];
  }
}

/**
 * The pid in the record of the daemon for `fingerprint`, or undefined when
 * there is none (a daemon killed with SIGKILL leaves its record behind, so
 * this names the last daemon that ran, live or not).
 */
export function recordedDaemonPid(stateDir: string, fingerprint: string): number | undefined {
  try {
    const record = JSON.parse(
      // The record's path is under the state directory: no variable changes it.
      Deno.readTextFileSync(daemonFiles(stateDir, fingerprint, processEnv).record),
    ) as Partial<DaemonRecord>;
    return typeof record.pid === "number" ? record.pid : undefined;
  } catch {
    return undefined;
  }
}

/** Every daemon record in the state directory (live or stale). */
export function readDaemonRecords(stateDir: string): DaemonRecord[] {
  const dir = join(stateDir, "daemons");
  const records: DaemonRecord[] = [];
  let entries: Deno.DirEntry[];
  try {
    entries = [...Deno.readDirSync(dir)];
  } catch {
    return records;
  }
  for (const entry of entries) {
    if (!entry.name.endsWith(".json")) continue;
    try {
      const record = JSON.parse(Deno.readTextFileSync(join(dir, entry.name)));
      // A damaged record (hand-edited, cut short) is skipped, never a crash of every reader.
      if (
        record !== null && typeof record === "object" && typeof record.socket === "string" &&
        typeof record.pid === "number" && typeof record.fingerprint === "string"
      ) records.push(record);
    } catch { /* being written or removed */ }
  }
  return records;
}

/**
 * Sockets in `<stateDir>/sockets/` (`*.sock`), live or stale: a daemon that
 * could not write its record (a full disk) is still found by its socket.
 */
export function listSockets(stateDir: string): string[] {
  const dir = join(stateDir, "sockets");
  try {
    return [...Deno.readDirSync(dir)]
      .filter((e) => e.name.endsWith(".sock"))
      .map((e) => join(dir, e.name));
  } catch {
    return [];
  }
}
