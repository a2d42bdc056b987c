/**
 * Which JavaScript runtime runs a script, and the command line that starts
 * it: deno (the one mcpx itself runs on, so always present), else bun, else
 * node 22.6+ (type stripping). Source: spec 000, "Runtime portability".
 *
 * @module
 */

import { dirname } from "../core/posix_path.ts";
import type { Permission, PermissionLevel } from "./permissions.ts";
import { resolverFlag } from "./client_resolver.ts";

/** A runtime mcpx can start a script on. */
export type { RuntimeName } from "./runtime_name.ts";
import type { RuntimeName } from "./runtime_name.ts";

/** A runtime found on this machine. */
export interface Runtime {
  name: RuntimeName;
  /** The executable's absolute path. */
  path: string;
  /** node's [major, minor] (its permission flag's name depends on it). */
  version?: [number, number];
}

/** Finds `name` on `PATH`, or null. */
export function onPath(name: string, path: string | undefined): string | null {
  for (const dir of (path ?? "").split(":")) {
    if (!dir) continue;
    const candidate = `${dir}/${name}`;
    try {
      const info = Deno.statSync(candidate);
      if (info.isFile && (info.mode ?? 0o111) & 0o111) return candidate;
    } catch { /* not here */ }
  }
  return null;
}

/** Node's version as [major, minor], or null when it does not answer. */
async function nodeVersion(path: string): Promise<[number, number] | null> {
  try {
    const out = await new Deno.Command(path, {
      args: ["--version"],
      stdout: "piped",
      stderr: "null",
    })
      .output();
    const m = new TextDecoder().decode(out.stdout).match(/v(\d+)\.(\d+)/);
    return m ? [Number(m[1]), Number(m[2])] : null;
  } catch {
    return null;
  }
}

/**
 * The runtime for a run: `wanted` (from `--runtime` / `script.runtime`), or
 * deno for `auto`.
 *
 * @param wanted `auto`, `deno`, `bun` or `node`.
 * @param env The caller's environment (its `PATH` is searched).
 * @returns The runtime, or a problem sentence naming what is missing and the fix.
 */
export async function findRuntime(
  wanted: string,
  env: Record<string, string>,
): Promise<Runtime | { problem: string }> {
  if (wanted === "auto" || wanted === "deno") return { name: "deno", path: Deno.execPath() };
  if (wanted === "bun") {
    const path = onPath("bun", env.PATH);
    return path ? { name: "bun", path } : {
      problem:
        "--runtime bun: no bun on PATH; install it (npm install -g bun) or use --runtime deno",
    };
  }
  if (wanted === "node") {
    const path = onPath("node", env.PATH);
    if (!path) {
      return {
        problem: "--runtime node: no node on PATH; install Node.js 22.6+ or use --runtime deno",
      };
    }
    const version = await nodeVersion(path);
    if (!version || version[0] < 22 || (version[0] === 22 && version[1] < 6)) {
      return {
        problem: `--runtime node: ${path} is ${
          version ? `v${version.join(".")}` : "of an unknown version"
        }, and scripts need 22.6 or later (type stripping); upgrade Node or use --runtime deno`,
      };
    }
    return { name: "node", path, version };
  }
  return { problem: `--runtime must be deno, bun or node, got "${wanted}"` };
}

/** What a script always reaches, whatever its level: absolute paths. */
export interface Reachable {
  scriptDir: string;
  /** The file the runtime starts (the launcher, or the script under `--no-launcher`). */
  entry: string;
  /** The launcher, when the entry is a file that imports it (bun: client/unsettled_await.ts). */
  launcher?: string;
  /** The generated client the entry imports. */
  client: string;
  /**
   * The file that makes `jsr:@mcpx/client` name the client, loaded before the
   * entry (runner/client_resolver.ts); with the launcher only.
   */
  resolver?: string;
  /** The daemon's unix socket. */
  socket: string;
}

/** The variables the generated client reads (client/script_runtime.ts), granted under any level. */
export const CLIENT_ENV = ["MCPX_*", "GIT_DIR", "GIT_WORK_TREE"] as const;

/** A path in a Deno permission list, where a comma is written twice. */
function listed(paths: string[]): string {
  return paths.map((p) => p.replaceAll(",", ",,")).join(",");
}

/**
 * The runtime's own permission flags for `level` (runner/permissions.ts says
 * what each withholds; the sandbox around them is runner/sandbox.ts). `all`
 * adds nothing but deno's `-A`. Otherwise the daemon's socket, the script's
 * folder, the entry and the client stay reachable, so the client works under
 * any level.
 *
 * - deno: `--no-prompt` (a level is decided, never asked), and `--allow-*`
 *   per granted name, else narrowed to what the client needs.
 * - node: `--permission` (22.13+; `--experimental-permission` before), with
 *   reads of the reachable paths and per granted name the rest; worker
 *   threads stay refused (node warns that allowing them could undo the model).
 * - bun: nothing (it has no permission model; the sandbox does the work).
 *
 * @returns The flags, placed by {@link runtimeArgs}.
 */
export function runtimeFlags(
  runtime: Runtime,
  level: PermissionLevel,
  reach: Reachable,
): string[] {
  const resolver = reach.resolver ? [resolverFlag(runtime.name, reach.resolver)] : [];
  if (runtime.name === "bun") return resolver;
  if (level.all) return runtime.name === "deno" ? ["-A", ...resolver] : resolver;
  const has = (p: Permission) => level.granted.has(p);
  const readable = [
    reach.scriptDir,
    reach.entry,
    ...(reach.launcher ? [reach.launcher] : []),
    reach.client,
    ...(reach.resolver ? [reach.resolver] : []),
    dirname(reach.socket),
  ];
  if (runtime.name === "node") {
    const [major, minor] = runtime.version ?? [22, 13];
    const flags = [
      major > 22 || (major === 22 && minor >= 13) ? "--permission" : "--experimental-permission",
      ...(has("read") ? ["--allow-fs-read=*"] : readable.map((p) => `--allow-fs-read=${p}`)),
    ];
    if (has("write")) flags.push("--allow-fs-write=*");
    if (has("run")) flags.push("--allow-child-process");
    if (has("ffi")) flags.push("--allow-addons", "--allow-wasi");
    return [...flags, ...resolver];
  }
  const flags = ["--no-prompt"];
  flags.push(has("read") ? "--allow-read" : `--allow-read=${listed([...readable, reach.socket])}`);
  flags.push(has("write") ? "--allow-write" : `--allow-write=${listed([reach.socket])}`);
  // Deno counts a unix socket connection as net access to `unix:<path>`.
  flags.push(has("net") ? "--allow-net" : `--allow-net=${listed([`unix:${reach.socket}`])}`);
  flags.push(has("env") ? "--allow-env" : `--allow-env=${CLIENT_ENV.join(",")}`);
  // The client compares the socket directory's owner with the user's id before connecting.
  flags.push(has("sys") ? "--allow-sys" : "--allow-sys=uid");
  for (const p of ["run", "ffi", "import"] as const) if (has(p)) flags.push(`--allow-${p}`);
  return [...flags, ...resolver];
}

/**
 * The command line that runs `entry` with `args` on `runtime`.
 *
 * @param flags The runtime's permission flags ({@link runtimeFlags}).
 */
export function runtimeArgs(
  runtime: Runtime,
  entry: string,
  args: string[],
  flags: string[],
): string[] {
  switch (runtime.name) {
    case "deno":
      return ["run", "--no-check", "--quiet", ...flags, entry, ...args];
    case "bun":
      return ["run", ...flags, entry, ...args];
    case "node":
      return [
        "--experimental-strip-types",
        "--disable-warning=ExperimentalWarning",
        ...flags,
        entry,
        ...args,
      ];
  }
}
