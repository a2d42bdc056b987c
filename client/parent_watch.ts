/**
 * A script ends with its `mcpx run`, even when mcpx dies of a signal it
 * cannot pass on (SIGKILL): the generated client, which every launcher
 * imports, watches the runtime's parent pid and, once the runtime has been
 * handed to another parent (mcpx is gone), sends the runtime the SIGTERM mcpx
 * would have forwarded, so the script's own handlers run as they would for
 * `kill <mcpx>`; a script still running `graceMs` later is ended (exit code
 * 143). Issue 9, "Scripts keep running after mcpx dies"; decision 0024.
 *
 * The watch starts only when the runtime's parent is the `mcpx` that set
 * `MCPX_PID`: inside the bubblewrap sandbox the parent is bwrap's own (which
 * dies with mcpx, `--die-with-parent`, and takes the sandbox with it), and a
 * program the script starts that imports the client is the script's, not
 * mcpx's. Every runtime reads its parent live: `Deno.ppid`, node's and bun's
 * `process.ppid`. The timer never keeps a runtime alive.
 *
 * Inlined into the generated client (client/client_file.ts `RUNTIME_INPUTS`):
 * portable to deno, bun and node, no imports, no name another inlined module
 * declares.
 *
 * @module
 */

/** What the watch needs of the runtime: each a seam for tests. */
export interface ParentWatchHost {
  /** The runtime's parent pid, read now. */
  ppid(): number;
  /** Calls `fn` every `ms` without keeping the runtime alive. */
  every(ms: number, fn: () => void): void;
  /** Calls `fn` once after `ms` without keeping the runtime alive. */
  after(ms: number, fn: () => void): void;
  /** Sends the runtime SIGTERM, as mcpx forwards it. */
  terminate(): void;
  /** Ends the runtime now with `code`. */
  exit(code: number): void;
}

/** How often the parent is looked at, and how long a script has to end after SIGTERM (ms). */
export const PARENT_WATCH = { periodMs: 500, graceMs: 5_000 } as const;

/**
 * Starts watching when the runtime's parent is `mcpxPid`.
 *
 * @param mcpxPid `MCPX_PID`: the mcpx that started the run.
 * @param host The runtime's side ({@link runtimeParentHost}).
 * @returns True when the watch started.
 */
export function watchParent(
  mcpxPid: number | undefined,
  host: ParentWatchHost,
  timing: { periodMs: number; graceMs: number } = PARENT_WATCH,
): boolean {
  if (mcpxPid === undefined || host.ppid() !== mcpxPid) return false;
  let ended = false;
  host.every(timing.periodMs, () => {
    if (ended || host.ppid() === mcpxPid) return;
    ended = true;
    host.after(timing.graceMs, () => host.exit(143));
    host.terminate();
  });
  return true;
}

/**
 * The host for the runtime the client runs on: deno (its core's system
 * interval when present, which costs no timer module; else `setInterval`
 * with `Deno.unrefTimer`), else node or bun (`process`, `unref()`).
 *
 * @param deno `globalThis.Deno`, or undefined.
 * @param proc `globalThis.process` (read only where Deno is absent).
 */
// deno-lint-ignore no-explicit-any
export function runtimeParentHost(deno: any, proc: any): ParentWatchHost {
  if (deno) {
    const core = deno.internal !== undefined ? deno[deno.internal]?.core : undefined;
    // Deno's timers are numbers, whatever the types of node's that this project also loads say.
    const unref = (id: unknown) => deno.unrefTimer(id);
    return {
      ppid: () => deno.ppid,
      every(ms, fn) {
        if (typeof core?.createSystemInterval === "function") {
          core.createSystemInterval(fn, ms, false);
        } else unref(setInterval(fn, ms));
      },
      after(ms, fn) {
        if (typeof core?.createSystemTimer === "function") core.createSystemTimer(fn, ms, false);
        else unref(setTimeout(fn, ms));
      },
      terminate() {
        try {
          deno.kill(deno.pid, "SIGTERM");
        } catch {
          deno.exit(143); // no permission to signal itself: end without the handlers
        }
      },
      exit: (code) => deno.exit(code),
    };
  }
  return {
    ppid: () => proc.ppid,
    every: (ms, fn) => setInterval(fn, ms).unref(),
    after: (ms, fn) => setTimeout(fn, ms).unref(),
    terminate: () => proc.kill(proc.pid, "SIGTERM"),
    exit: (code) => proc.exit(code),
  };
}
