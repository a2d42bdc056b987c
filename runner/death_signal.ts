/**
 * A script ends with its `mcpx run` even when mcpx dies of a signal it
 * cannot pass on (SIGKILL, or a crash): the runtime is started with a
 * parent-death signal, so the kernel sends it SIGTERM the moment mcpx is
 * gone — the signal mcpx forwards when it is itself asked to stop
 * (runner/forward_signals.ts), so the script's own handlers run as they
 * would for `kill <mcpx>`. Issue 9, "Scripts keep running after mcpx dies";
 * decision 0024.
 *
 * The signal is set by `setpriv --pdeathsig` (util-linux), which then
 * becomes the runtime (it executes it in place: same pid, no process
 * between). It is Linux's `PR_SET_PDEATHSIG`, the mechanism bubblewrap's
 * `--die-with-parent` uses for a sandboxed run. The kernel sends it when the
 * thread that started the runtime ends; mcpx starts it from its main thread,
 * which ends only with mcpx. Without `setpriv` (macOS, a system without
 * util-linux) the runtime is started as it is, and only the signals mcpx
 * forwards end it.
 *
 * @module
 */

import { onPath } from "./runtime.ts";

/** The signal the runtime gets when mcpx is gone. */
export const DEATH_SIGNAL = "TERM";

/** Where `setpriv` is looked for after the caller's `PATH`. */
const SYSTEM_PATH = "/usr/bin:/bin:/usr/sbin:/sbin";

/**
 * `setpriv`'s path on this machine, or null (not Linux, or not installed).
 *
 * @param env The caller's environment (its `PATH` is searched first).
 * @param os The platform (`Deno.build.os`).
 */
export function findSetpriv(env: Record<string, string>, os: string): string | null {
  if (os !== "linux") return null;
  return onPath("setpriv", `${env.PATH ?? ""}:${SYSTEM_PATH}`);
}

/**
 * The command line that runs `path args` with the parent-death signal set,
 * or the command as it is when `setpriv` is null.
 *
 * @example
 * ```ts
 * import { withDeathSignal } from "./death_signal.ts";
 * const c = withDeathSignal({ path: "/usr/bin/deno", args: ["run", "x.ts"] }, "/usr/bin/setpriv");
 * if (c.args.join(" ") !== "--pdeathsig TERM -- /usr/bin/deno run x.ts") throw new Error();
 * ```
 */
export function withDeathSignal(
  command: { path: string; args: string[] },
  setpriv: string | null,
): { path: string; args: string[] } {
  if (!setpriv) return command;
  return {
    path: setpriv,
    args: ["--pdeathsig", DEATH_SIGNAL, "--", command.path, ...command.args],
  };
}
