/**
 * The OS sandbox a script runs in when `script.permissions` is narrower than
 * `all`: bubblewrap (`bwrap`) on Linux, so a level confines module loading,
 * symlinks and the programs a script starts, not only the runtime's own file
 * and network APIs (issue 9; decision 0016). Where no sandbox can run
 * (macOS, Windows, no `bwrap`) a narrowed level is refused before anything
 * starts.
 *
 * What the sandbox shows, read-only unless said:
 * - with `write`: every file, writable; with `read`: every file;
 * - otherwise: the system's programs and libraries (`/usr` and the links to
 *   it, `/nix/store`), a few files of `/etc` (names, time zone, certificates,
 *   resolver), a private `/tmp`, the runtime, Deno's module cache (deno
 *   only), the script's folder, its launcher and client, and an empty
 *   directory at the working directory so the script starts there;
 * - always: the daemon's socket (its directory 0700, holding only that
 *   socket), fresh `/proc` (this sandbox's processes only) and `/dev`.
 *
 * The network is shared only when the level grants `net` (or `import` under
 * deno, which fetches remote modules itself); a unix socket is reached by its
 * path whatever the network namespace. The environment is passed unfiltered
 * (spec 004).
 *
 * @module
 */

import { dirname } from "../core/posix_path.ts";
import type { PermissionLevel } from "./permissions.ts";
import { onPath, type RuntimeName } from "./runtime.ts";

/** What a sandboxed run must see, all absolute paths. */
export interface SandboxPlan {
  level: Exclude<PermissionLevel, { all: true }>;
  runtime: RuntimeName;
  /** The runtime's executable, symlinks resolved. */
  runtimePath: string;
  scriptDir: string;
  /** The file the runtime starts (the launcher, or the script under `--no-launcher`). */
  entry: string;
  /** The launcher, when the entry is a file that imports it (bun). */
  launcher?: string;
  /** The generated client the entry imports. */
  client: string;
  /** What maps `jsr:@mcpx/client` to the client (runner/client_resolver.ts). */
  resolver?: string;
  socket: string;
  cwd: string;
  /** Deno's module cache (deno only), mounted read-only when it exists. */
  denoDir?: string;
}

/** Where the system's programs and libraries live (mounted read-only, or mirrored as links). */
const SYSTEM = ["/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/nix/store"];

/** Files of /etc a runtime and the programs it starts read: names, time, certificates, DNS. */
const ETC = [
  "passwd",
  "group",
  "nsswitch.conf",
  "hosts",
  "host.conf",
  "resolv.conf",
  "gai.conf",
  "services",
  "protocols",
  "localtime",
  "timezone",
  "ssl",
  "ca-certificates",
  "pki",
  "crypto-policies",
  "alternatives",
  "ld.so.cache",
  "ld.so.conf",
  "ld.so.conf.d",
  "mime.types",
];

/**
 * The sandbox program, or why there is none.
 *
 * @param env The caller's environment (its `PATH` is searched).
 * @param os The platform (`Deno.build.os`).
 * @param level The level, for the message.
 * @returns `bwrap`'s path, or a problem naming the level, the reason and the fix.
 */
export function findSandbox(
  env: Record<string, string>,
  os: string,
  level: string,
): string | { problem: string } {
  const why = `script.permissions "${level}" runs the script in an OS sandbox (bubblewrap), so ` +
    "that imports and symlinks cannot reach past what the level allows";
  if (os !== "linux") {
    return {
      problem: `${why}, and there is none on ${os}; set script.permissions to all ` +
        "(the script then runs unconfined)",
    };
  }
  const bwrap = onPath("bwrap", env.PATH);
  if (bwrap) return bwrap;
  return {
    problem: `${why}, and no bwrap is on PATH; install it (apt-get install bubblewrap, ` +
      "dnf install bubblewrap) or set script.permissions to all",
  };
}

/** Deno's module cache as Deno finds it: `DENO_DIR`, else `$XDG_CACHE_HOME/deno`, else `~/.cache/deno`. */
export function denoDir(env: Record<string, string>): string | undefined {
  if (env.DENO_DIR) return env.DENO_DIR;
  if (env.XDG_CACHE_HOME) return `${env.XDG_CACHE_HOME}/deno`;
  return env.HOME ? `${env.HOME}/.cache/deno` : undefined;
}

/** True when `path` is `dir` or inside it. */
function within(path: string, dir: string): boolean {
  return path === dir || path.startsWith(dir === "/" ? "/" : `${dir}/`);
}

function kind(path: string): "link" | "dir" | "file" | null {
  try {
    const info = Deno.lstatSync(path);
    return info.isSymlink ? "link" : info.isDirectory ? "dir" : "file";
  } catch {
    return null;
  }
}

/**
 * `bwrap`'s arguments (up to and including `--`) for `plan`; the runtime's
 * command line follows them.
 */
export function sandboxArgs(plan: SandboxPlan): string[] {
  const { granted } = plan.level;
  const args = ["--die-with-parent", "--new-session", "--unshare-all"];
  if (granted.has("net") || (granted.has("import") && plan.runtime !== "node")) {
    args.push("--share-net");
  }
  const shown: string[] = [];
  if (granted.has("write") || granted.has("read")) {
    args.push(granted.has("write") ? "--bind" : "--ro-bind", "/", "/");
    shown.push("/");
  } else {
    for (const path of SYSTEM) {
      const k = kind(path);
      if (k === "link") args.push("--symlink", Deno.readLinkSync(path), path);
      else if (k === "dir") {
        args.push("--ro-bind", path, path);
        shown.push(path);
      }
    }
    for (const name of ETC) args.push("--ro-bind-try", `/etc/${name}`, `/etc/${name}`);
    // Empty and private: what is mounted below it comes after.
    args.push("--tmpfs", "/tmp");
  }
  args.push("--proc", "/proc", "--dev", "/dev");
  // Directories first, then files, each only when nothing shown already holds it.
  const mounts: { how: string; path: string; dir: boolean }[] = [
    { how: "--ro-bind", path: plan.scriptDir, dir: true },
    ...(plan.denoDir ? [{ how: "--ro-bind-try", path: plan.denoDir, dir: true }] : []),
    ...[plan.runtimePath, plan.entry, ...(plan.launcher ? [plan.launcher] : []), plan.client]
      .concat(plan.resolver ? [plan.resolver] : []).map((
        path,
      ) => ({
        how: "--ro-bind",
        path,
        dir: false,
      })),
  ];
  for (const { how, path, dir } of mounts) {
    if (shown.some((d) => within(path, d))) continue;
    args.push(how, path, path);
    if (dir) shown.push(path);
  }
  const socketDir = dirname(plan.socket);
  if (!shown.some((d) => within(socketDir, d))) args.push("--perms", "0700", "--dir", socketDir);
  args.push("--bind", plan.socket, plan.socket);
  if (!shown.some((d) => within(plan.cwd, d))) args.push("--dir", plan.cwd);
  args.push("--chdir", plan.cwd, "--");
  return args;
}

/**
 * Whether `bwrap` can make a sandbox on this machine at all (user namespaces
 * may be disabled): asked only after a sandboxed run failed, so a working
 * sandbox costs nothing.
 *
 * @param probe A program that exits 0 (the runtime, run with `--version`).
 * @returns null when it can, else what bwrap said.
 */
export async function sandboxFailure(bwrap: string, probe: string): Promise<string | null> {
  try {
    const out = await new Deno.Command(bwrap, {
      args: ["--unshare-all", "--ro-bind", "/", "/", "--proc", "/proc", "--dev", "/dev", "--"]
        .concat(probe, "--version"),
      stdin: "null",
      stdout: "null",
      stderr: "piped",
    }).output();
    return out.success ? null : new TextDecoder().decode(out.stderr).trim() || `exit ${out.code}`;
  } catch (error) {
    return (error as Error).message;
  }
}

/** The pids of `pid`'s children (Linux `/proc/<pid>/task/*\/children`). */
function childrenOf(pid: number): number[] {
  const out: number[] = [];
  try {
    for (const task of Deno.readDirSync(`/proc/${pid}/task`)) {
      const text = Deno.readTextFileSync(`/proc/${pid}/task/${task.name}/children`);
      out.push(...text.split(" ").filter(Boolean).map(Number));
    }
  } catch { /* gone */ }
  return out;
}

function command(pid: number): string {
  try {
    return Deno.readTextFileSync(`/proc/${pid}/comm`).trim();
  } catch {
    return "";
  }
}

/**
 * The runtime's pid under `bwrapPid` (bwrap → its init inside the sandbox →
 * the runtime), so a signal reaches the script as it would unsandboxed;
 * bwrap itself dies of SIGTERM and SIGINT and would take the script with it
 * unwarned.
 *
 * @returns The first processes below bwrap's own, or empty before they exist.
 */
export function sandboxedPids(bwrapPid: number): number[] {
  let level = [bwrapPid];
  for (let depth = 0; depth < 4 && level.length; depth++) {
    const next = level.flatMap(childrenOf);
    const others = next.filter((p) => command(p) !== "bwrap");
    if (others.length) return others;
    level = next;
  }
  return [];
}
