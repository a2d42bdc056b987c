/**
 * A stdio server's stdin, stdout and stderr as three named pipes (FIFOs) that
 * the server holds open itself, so that a daemon can let go of them and
 * another daemon can open the same paths and carry on: what
 * `mcpx daemon upgrade` rests on (decision 0084).
 *
 * The server is started as `/bin/sh -c 'exec "$@" 0<>IN 1<>OUT 2<>ERR'`.
 * Opening a FIFO read-write never blocks (Linux, macOS) and leaves the server
 * holding both ends of each: its stdin never reaches end of file and its
 * stdout never breaks while no daemon is attached, and what it writes then
 * waits in the pipe's buffer (64 KiB on Linux). A daemon opens IN for
 * writing and OUT and ERR for reading by path. Because the daemon holds no
 * writer on OUT, OUT reaches end of file once the server (and everything it
 * started that inherited its stdout) has exited.
 *
 * The FIFOs live in `<dir>/<pid-less id>/{in,out,err}`, a directory of mode
 * 0700 made here, under the root the daemon names ({@link setFifoRoot}: its
 * state directory), else under the system's temporary directory.
 *
 * Not on Windows (no FIFOs): {@link fifosSupported} is false there, and
 * engine/stdio_transport.ts keeps ordinary pipes.
 *
 * @module
 */

import { join } from "../core/posix_path.ts";
import { ensurePrivateDir } from "../core/private_fs.ts";

/** The three paths of one server's FIFOs. */
export interface FifoPaths {
  /** The directory holding them (mode 0700), removed with {@link removeFifos}. */
  dir: string;
  in: string;
  out: string;
  err: string;
}

/** The daemon's ends of one server's FIFOs, once opened. */
export interface FifoEnds {
  /** Written by the daemon: the server's stdin. */
  input: Deno.FsFile;
  /** Read by the daemon: the server's stdout. */
  output: Deno.FsFile;
  /** Read by the daemon: the server's stderr. */
  errors: Deno.FsFile;
}

/** True where servers can be started on FIFOs (not Windows). */
export const fifosSupported: boolean = Deno.build.os !== "windows";

/** Where new FIFO directories go; undefined: the system's temporary directory. */
let root: string | undefined;

/**
 * Sets where FIFO directories are made: `<state>/daemons/<fingerprint>.fifos`,
 * made here with mode 0700. Called once by the daemon before it starts servers.
 *
 * @throws {UnsafeDirectoryError} when `dir` is not the user's alone.
 */
export function setFifoRoot(dir: string): void {
  ensurePrivateDir(dir, "the pipes of mcpx's stdio servers");
  root = dir;
}

/**
 * The `mkfifo` program, by its absolute path where the system keeps it: the
 * daemon's PATH is whoever started it first, and may hold no coreutils (a
 * test's PATH of one folder did: every stdio server then failed to start).
 */
const MKFIFO = ["/usr/bin/mkfifo", "/bin/mkfifo"].find((path) => {
  try {
    return Deno.statSync(path).isFile;
  } catch {
    return false;
  }
}) ?? "mkfifo";

/**
 * Makes a private directory with three FIFOs (mode 0600) in it.
 *
 * @throws {Error} naming the directory when `mkfifo` fails (a full disk, a
 *   file system without FIFOs).
 */
export function makeFifos(): FifoPaths {
  const dir = root
    ? Deno.makeTempDirSync({ dir: root, prefix: "s" })
    : Deno.makeTempDirSync({ prefix: "mcpx-fifo-" });
  Deno.chmodSync(dir, 0o700);
  const paths = { dir, in: join(dir, "in"), out: join(dir, "out"), err: join(dir, "err") };
  const made = new Deno.Command(MKFIFO, {
    args: ["-m", "600", paths.in, paths.out, paths.err],
    stdout: "null",
    stderr: "piped",
  }).outputSync();
  if (!made.success) {
    removeFifos(paths);
    throw new Error(
      `could not make the pipes of a stdio server in ${dir}: ` +
        new TextDecoder().decode(made.stderr).trim(),
    );
  }
  return paths;
}

/** The paths of the FIFOs in `dir` (as {@link makeFifos} named them). */
export function fifosIn(dir: string): FifoPaths {
  return { dir, in: join(dir, "in"), out: join(dir, "out"), err: join(dir, "err") };
}

/**
 * The `sh` command line that runs `command args…` on the FIFOs of `paths`:
 * `sh -c '…exec 0<>"$i" 1<>"$o" 2<>"$e"; IFS= read -r _; exec "$@"' sh IN OUT ERR command args…`:
 * the shell takes the FIFOs, reads one line (the daemon's "go", {@link GO_LINE}) and becomes
 * the server.
 */
export function shellOnFifos(
  paths: FifoPaths,
  command: string,
  args: readonly string[],
): { command: string; args: string[] } {
  return {
    command: "/bin/sh",
    args: [
      "-c",
      // The shell takes the FIFOs, then waits for the daemon's "go" line (written once the
      // daemon holds its ends) before it becomes the server: a server that fails at once
      // otherwise wrote its stderr into a FIFO the daemon had not opened yet, and the kernel
      // dropped it with the pipe.
      'i=$1 o=$2 e=$3; shift 3; exec 0<>"$i" 1<>"$o" 2<>"$e"; IFS= read -r _; exec "$@"',
      "sh",
      paths.in,
      paths.out,
      paths.err,
      command,
      ...args,
    ],
  };
}

/** What the daemon writes into a new server's IN once it holds its ends: the shell's cue to exec. */
export const GO_LINE = new Uint8Array([10]);

/**
 * Opens the daemon's ends. Each open waits until the server holds its end:
 * start it before the server is spawned, so that it completes the moment the
 * shell runs its redirections, however soon the server exits after (a FIFO's
 * buffered bytes, a failing server's stderr, are dropped once nobody holds
 * it). If `gone` settles while an open still waits (the server died before
 * its shell opened them), each waiting open is released by opening its other
 * end: the daemon's ends then read end of file at once.
 *
 * @param gone Settles once the server is known to have exited, or not to have started.
 */
export async function openFifos(paths: FifoPaths, gone: Promise<unknown>): Promise<FifoEnds> {
  let done = false;
  const opening = Promise.all([
    Deno.open(paths.in, { write: true }),
    Deno.open(paths.out, { read: true }),
    Deno.open(paths.err, { read: true }),
  ]);
  gone.then(async () => {
    if (done) return;
    // An open of a FIFO waits for its other end: give it one, then close it.
    const others = await Promise.allSettled([
      Deno.open(paths.in, { read: true }),
      Deno.open(paths.out, { write: true }),
      Deno.open(paths.err, { write: true }),
    ]);
    for (const other of others) if (other.status === "fulfilled") other.value.close();
  }).catch(() => {});
  const [input, output, errors] = await opening;
  done = true;
  return { input, output, errors };
}

/**
 * Releases a read pending on a FIFO by writing one newline into it: an empty
 * line, which every MCP reader skips (MCP "Transports: stdio" frames one
 * message per line). Deno reads a file on a blocking thread that cannot be
 * cancelled, so a daemon letting go of a server's stdout wakes its own read
 * this way rather than leaving it to take the next daemon's bytes.
 */
export function wakeReader(path: string): void {
  try {
    // O_RDWR: never waits, whoever holds the other end.
    using file = Deno.openSync(path, { read: true, write: true });
    file.writeSync(new Uint8Array([10]));
  } catch { /* gone */ }
}

/** Removes a FIFO directory (a no-op once gone). */
export function removeFifos(paths: Pick<FifoPaths, "dir">): void {
  try {
    Deno.removeSync(paths.dir, { recursive: true });
  } catch { /* already gone */ }
}

/**
 * The path of `command` as a shell's `exec` would find it in `env.PATH`,
 * resolved here so that a missing command fails as a direct spawn does.
 *
 * @throws {Deno.errors.NotFound} when no executable file by that name exists.
 */
export function resolveCommand(command: string, env: Record<string, string>, cwd?: string): void {
  const candidates = command.includes("/")
    ? [command.startsWith("/") || !cwd ? command : join(cwd, command)]
    : (env.PATH ?? "/usr/bin:/bin").split(":").filter(Boolean).map((dir) => join(dir, command));
  for (const path of candidates) {
    try {
      const info = Deno.statSync(path);
      if (info.isFile && ((info.mode ?? 0o111) & 0o111)) return;
    } catch { /* not here */ }
  }
  throw new Deno.errors.NotFound(`Failed to spawn '${command}': entity not found`);
}
