/**
 * A script run's confinement, from `script.permissions` to the command that
 * starts it: checked with everything else before anything starts (a level
 * the runtime cannot enforce, or no sandbox where one is needed, is a
 * problem), then turned into the runtime's flags inside the OS sandbox
 * (issue 9; decision 0016).
 *
 * @module
 */

import { parsePermissions, type PermissionLevel, refusal } from "./permissions.ts";
import { type Reachable, type Runtime, runtimeArgs, runtimeFlags } from "./runtime.ts";
import { denoDir, findSandbox, sandboxArgs, sandboxedPids, sandboxFailure } from "./sandbox.ts";
import { findSetpriv, withDeathSignal } from "./death_signal.ts";

/** A level checked against the runtime: what {@link checkConfinement} found. */
export interface Confinement {
  level: PermissionLevel;
  /** bwrap's path when the level is narrower than `all`. */
  bwrap?: string;
}

/**
 * Checks `script.permissions` for a run.
 *
 * @param setting The setting's value.
 * @param runtime The runtime chosen, or null when choosing it failed (checked without it).
 * @param runtimeSource Where the runtime was chosen, for the refusal (`--runtime node`).
 * @param env The caller's environment (`PATH` is searched for bwrap).
 * @returns The confinement, or the problems (each naming the level, the runtime and the fix).
 */
export function checkConfinement(
  setting: string,
  runtime: Runtime | null,
  runtimeSource: string,
  env: Record<string, string>,
): Confinement | { problems: string[] } {
  const level = parsePermissions(setting);
  if ("problem" in level) return { problems: [level.problem] };
  if (level.all) return { level };
  const problems: string[] = [];
  const refused = runtime && refusal(level, runtime.name, runtimeSource);
  if (refused) problems.push(refused);
  const bwrap = findSandbox(env, Deno.build.os, level.text);
  if (typeof bwrap !== "string") problems.push(bwrap.problem);
  return problems.length ? { problems } : { level, bwrap: bwrap as string };
}

/**
 * The command that runs a script: the runtime itself (through `setpriv`,
 * which sets the signal that ends it with mcpx: runner/death_signal.ts), or
 * bwrap around it (`--die-with-parent` does the same).
 */
export interface ConfinedCommand {
  path: string;
  args: string[];
  /**
   * True for bwrap: it runs in a session of its own so a terminal's Ctrl-C
   * reaches mcpx alone, which passes it to the runtime ({@link signalTargets}).
   */
  detached: boolean;
}

/**
 * The command line for a run.
 *
 * @param reach What the script always reaches (socket, folder, entry, client).
 * @param cwd The working directory the script starts in.
 * @param env The script's environment (Deno's cache is found from it).
 */
export async function confinedCommand(
  confinement: Confinement,
  runtime: Runtime,
  reach: Reachable,
  script: { args: string[]; cwd: string; env: Record<string, string> },
): Promise<ConfinedCommand> {
  const { level, bwrap } = confinement;
  const flags = runtimeFlags(runtime, level, reach);
  if (level.all || !bwrap) {
    // Ended by the kernel with SIGTERM if mcpx dies without passing a signal on (SIGKILL).
    const command = withDeathSignal(
      { path: runtime.path, args: runtimeArgs(runtime, reach.entry, script.args, flags) },
      findSetpriv(script.env, Deno.build.os),
    );
    return { ...command, detached: false };
  }
  // Inside the sandbox only the runtime's real file is mounted, so it is started by that path.
  const runtimePath = await Deno.realPath(runtime.path);
  const dd = runtime.name === "deno" ? denoDir(script.env) : undefined;
  return {
    path: bwrap,
    args: [
      ...sandboxArgs({
        level,
        runtime: runtime.name,
        runtimePath,
        ...reach,
        cwd: script.cwd,
        ...(dd ? { denoDir: dd } : {}),
      }),
      runtimePath,
      ...runtimeArgs(runtime, reach.entry, script.args, flags),
    ],
    detached: true,
  };
}

/**
 * The processes a signal for the script goes to: the runtime inside the
 * sandbox (bwrap itself would die of it and take the script down unwarned),
 * else the child itself.
 */
export function signalTargets(command: ConfinedCommand, childPid: number): number[] {
  if (!command.detached) return [childPid];
  const inside = sandboxedPids(childPid);
  return inside.length ? inside : [childPid];
}

/**
 * Why a sandboxed run that exited 1 may not have run at all: bwrap cannot
 * make a sandbox here (user namespaces turned off, for one). Asked only
 * after such a failure.
 *
 * @returns A note naming bwrap's answer and the fix, or null.
 */
export async function sandboxNote(
  command: ConfinedCommand,
  runtime: Runtime,
  level: PermissionLevel,
): Promise<string | null> {
  if (!command.detached) return null;
  const why = await sandboxFailure(command.path, runtime.path);
  if (why === null) return null;
  return `the script's sandbox could not start (${command.path}: ${why}); script.permissions ` +
    `"${level.text}" needs bubblewrap to be allowed user namespaces ` +
    "(sysctl kernel.unprivileged_userns_clone=1, or an AppArmor profile for bwrap), " +
    "or set script.permissions to all";
}
