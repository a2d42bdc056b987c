/**
 * The ledger of the process groups a daemon's stdio servers run in, so that
 * none outlives a daemon that was killed without a chance to stop them
 * (SIGKILL, a crash, the OOM killer). Decision 0006.
 *
 * Each stdio server is the leader of its own process group (setsid,
 * engine/stdio_transport.ts). While it runs, the daemon keeps one file per
 * group in `<state>/daemons/<fingerprint>.groups/<pgid>.json` naming the
 * group, the leader's start time, and the daemon (pid and start time) that
 * owns it. Whoever next finds that daemon dead — the next daemon for the
 * configuration as it starts, a CLI whose request the dead daemon lost,
 * `mcpx stop` — ends every group whose leader is still the process that was
 * recorded (same pid, same start time: a reused pid is never signalled), then
 * removes the file.
 *
 * Start times come from `/proc/<pid>/stat` (field 22, clock ticks since boot)
 * on Linux, else from `ps -o lstart=` (to the second).
 *
 * @module
 */

import { storageProblem } from "../core/errors.ts";
import { join } from "../core/posix_path.ts";
import { pollUntil } from "../core/deadline.ts";
import { checkPrivateDir, ensurePrivateDir, writePrivateFileSync } from "../core/private_fs.ts";

/** What a ledger directory holds, in the words of a refusal (core/private_fs.ts). */
const LEDGER_WHAT = "the ledger of mcpx's server process groups";

/** One recorded group, as its file holds it. */
export interface GroupRecord {
  /** The group id: the leader's pid. */
  pgid: number;
  /** The leader's start time (`processStart`), so a reused pid is never taken for it. */
  start: string;
  /** The daemon that started the leader. */
  owner: { pid: number; start: string };
  /** What was started (`command args…`), for the log. */
  command: string;
  /** When the group was recorded (ISO 8601). */
  at: string;
}

/** A process's start time and whether it has exited but not been reaped (a zombie). */
export interface ProcessStart {
  /** Opaque, compared only for equality: clock ticks since boot, or `ps`'s lstart. */
  start: string;
  zombie: boolean;
}

/**
 * When `pid` started, or undefined when no such process exists.
 *
 * @param pid A process id.
 */
export function processStart(pid: number): ProcessStart | undefined {
  if (!Number.isInteger(pid) || pid <= 0) return undefined;
  if (Deno.build.os === "linux") {
    let stat: string;
    try {
      stat = Deno.readTextFileSync(`/proc/${pid}/stat`);
    } catch {
      return undefined;
    }
    // The command name (field 2) may hold spaces and parentheses: count from the last ')'.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    // fields[0] is field 3 (state); field 22 (starttime) is fields[19].
    return { start: fields[19], zombie: fields[0] === "Z" || fields[0] === "X" };
  }
  try {
    const out = new Deno.Command("ps", {
      args: ["-o", "stat=,lstart=", "-p", String(pid)],
      stdout: "piped",
      stderr: "null",
    }).outputSync();
    const line = new TextDecoder().decode(out.stdout).trim();
    if (!out.success || !line) return undefined;
    const [state, ...start] = line.split(/\s+/);
    return { start: start.join(" "), zombie: state.startsWith("Z") };
  } catch {
    return undefined;
  }
}

/**
 * How long a caller whose daemon connection was lost waits for that daemon to
 * finish dying before it sweeps, in ms ({@link awaitProcessEnd}).
 */
export const LOST_DAEMON_EXIT_MS = 3000;

/**
 * Waits until process `pid` has ended: no such process, or a zombie. A
 * process killed with SIGKILL closes its sockets before it is a zombie (Linux
 * tears down its files, then notifies its parent), so a peer that sees the
 * connection drop can still find it running for a while; a sweep made in that
 * window would take the dying daemon for a live one and leave its servers.
 *
 * @param pid The process.
 * @param ms The longest wait, in ms.
 * @returns True once it has ended; false when it still runs after `ms`.
 */
export async function awaitProcessEnd(pid: number, ms: number): Promise<boolean> {
  const ended = () => {
    const now = processStart(pid);
    return now === undefined || now.zombie ? true : undefined;
  };
  return await pollUntil(ended, ms, 10) ?? false;
}

/** True while the process recorded as `pid` started at `start` still runs (not a zombie). */
function stillRunning(pid: number, start: string): boolean {
  const now = processStart(pid);
  return now !== undefined && now.start === start && !now.zombie;
}

/** The daemon's own ledger, opened by daemon/main.ts; absent in tests that drive a Daemon directly. */
let ledger: {
  dir: string;
  owner: { pid: number; start: string };
  pgids: Set<number>;
  redact: (text: string) => string;
} | undefined;

/**
 * Starts recording this process's groups in `dir`
 * (`daemonFiles(…).groups`). Called once by the daemon before it serves.
 *
 * @param options `redact`: applied to each recorded command line, whose
 *   arguments may hold a secret (the daemon's redactor, core/redact.ts).
 * @throws {Error} when this process's own start time cannot be read.
 * @throws {UnsafeDirectoryError} when `dir` is not the user's alone (a
 *   directory the file system refuses to make, a full disk, costs only the
 *   protection: {@link recordGroup} then records nothing).
 */
export function openGroupLedger(
  dir: string,
  options: { redact?: (text: string) => string } = {},
): void {
  const self = processStart(Deno.pid);
  if (!self) throw new Error(`cannot read the start time of this daemon (pid ${Deno.pid})`);
  try {
    ensurePrivateDir(dir, LEDGER_WHAT);
  } catch (error) {
    // A full disk costs the protection (recordGroup cannot write), never the daemon.
    if (!storageProblem(error)) throw error;
  }
  ledger = {
    dir,
    owner: { pid: Deno.pid, start: self.start },
    pgids: new Set(),
    redact: options.redact ?? ((text) => text),
  };
}

/**
 * Records the group a stdio server just started leads. A no-op without an
 * open ledger; a failure to write costs only the protection, never the server.
 *
 * @param pgid The leader's pid (it was started with setsid).
 * @param command What was started, for the sweeper's log.
 */
export function recordGroup(pgid: number, command: string): void {
  if (!ledger) return;
  const start = processStart(pgid);
  if (!start) return; // already gone
  const record: GroupRecord = {
    pgid,
    start: start.start,
    owner: ledger.owner,
    command: ledger.redact(command).slice(0, 300),
    at: new Date().toISOString(),
  };
  try {
    writePrivateFileSync(join(ledger.dir, `${pgid}.json`), JSON.stringify(record));
    ledger.pgids.add(pgid);
  } catch { /* the state directory is gone: nothing to protect with */ }
}

/** Forgets a group whose leader has exited or was stopped (a no-op when not recorded). */
export function forgetGroup(pgid: number): void {
  if (!ledger?.pgids.delete(pgid)) return;
  try {
    Deno.removeSync(join(ledger.dir, `${pgid}.json`));
  } catch { /* already removed */ }
}

/** What {@link sweepOrphanGroups} did with one record. */
export interface SweptGroup {
  pgid: number;
  command: string;
  /** The dead daemon that owned it. */
  owner: number;
  /** True when the group's leader still ran and was signalled; false when it was already gone. */
  killed: boolean;
}

/** How long the leader of an orphaned group gets between SIGTERM and SIGKILL, in ms. */
const ORPHAN_TERM_GRACE_MS = 1000;

/**
 * Ends the groups recorded in `dirs` whose owning daemon is gone: SIGTERM to
 * the group, up to {@link ORPHAN_TERM_GRACE_MS} for the leader to exit, then
 * SIGKILL to the group; the record is removed either way. Groups of a live
 * daemon, and leaders whose pid now belongs to another process, are left
 * alone.
 *
 * @param dirs Ledger directories (`daemonFiles(…).groups`); missing ones are skipped.
 * @returns One entry per record removed.
 * @throws {UnsafeDirectoryError} when a ledger directory is not the user's
 *   alone: a record another user wrote there could name any process of ours.
 */
export async function sweepOrphanGroups(dirs: string[]): Promise<SweptGroup[]> {
  const swept: SweptGroup[] = [];
  const ending: Promise<void>[] = [];
  for (const dir of dirs) {
    if (!checkPrivateDir(dir, LEDGER_WHAT)) continue;
    let names: string[];
    try {
      names = [...Deno.readDirSync(dir)].map((e) => e.name).filter((n) => n.endsWith(".json"));
    } catch {
      continue;
    }
    for (const name of names) {
      const path = join(dir, name);
      let record: GroupRecord;
      try {
        record = JSON.parse(Deno.readTextFileSync(path));
      } catch {
        continue; // being written, or removed meanwhile
      }
      if (stillRunning(record.owner.pid, record.owner.start)) continue;
      // Matched even as a zombie: its pid (so the group id) cannot be reused until it is reaped.
      const leader = processStart(record.pgid);
      const killed = leader?.start === record.start;
      if (killed) ending.push(endGroup(record));
      swept.push({ pgid: record.pgid, command: record.command, owner: record.owner.pid, killed });
      try {
        Deno.removeSync(path);
      } catch { /* another sweeper got there first */ }
    }
  }
  await Promise.all(ending);
  return swept;
}

async function endGroup(record: GroupRecord): Promise<void> {
  signalGroup(record.pgid, "SIGTERM");
  await pollUntil(
    () => stillRunning(record.pgid, record.start) ? undefined : true,
    ORPHAN_TERM_GRACE_MS,
    25,
  );
  // Whatever the leader started may still be in the group. While no other
  // process holds the leader's pid, the group id cannot belong to a new group.
  const now = processStart(record.pgid);
  if (now === undefined || now.start === record.start) signalGroup(record.pgid, "SIGKILL");
}

function signalGroup(pgid: number, signal: Deno.Signal): void {
  try {
    Deno.kill(-pgid, signal);
  } catch { /* the group is gone */ }
}

/**
 * Takes a group out of this daemon's ledger without removing its file or
 * ending it: the group was handed to the next daemon (`mcpx daemon upgrade`),
 * which rewrites the file as its own ({@link adoptGroup}).
 */
export function releaseGroup(pgid: number): void {
  ledger?.pgids.delete(pgid);
}

/**
 * Records a group another daemon started and handed over as this daemon's
 * (its file rewritten with this daemon as owner), so that this daemon's
 * death is what ends it from now on.
 *
 * @param pgid The leader's pid.
 * @param command What runs, for the sweeper's log.
 */
export function adoptGroup(pgid: number, command: string): void {
  recordGroup(pgid, command);
}
