/**
 * One run of one hook's command: the daemon's declared hooks
 * (engine/hook_runner.ts) and a script run's exec hooks (runner/exec_hooks.ts)
 * both start their commands here, so both are bounded and ended the same way
 * (issue 28; decision 0081).
 *
 * - A string command is run by `sh -c`; an array is the program and its
 *   arguments, found on `PATH`.
 * - The hook's context is written to its stdin as one JSON document, then
 *   stdin is closed; a hook that does not read it is fine.
 * - It leads a process group of its own (setsid), recorded in the daemon's
 *   ledger while it runs (engine/process_groups.ts), so a daemon killed
 *   outright leaves none behind. Past its timeout the group gets SIGTERM,
 *   then SIGKILL {@link HOOK_KILL_GRACE_MS} later; once the command exits the
 *   group is ended too, so nothing a hook started outlives it (and no
 *   grandchild holding its pipes keeps the run open).
 * - Its stdout and stderr are kept as tails ({@link HOOK_TAIL_CHARS}) for the
 *   log; nothing of them is shown anywhere else.
 *
 * @module
 */

import { TailBuffer } from "../core/tail_buffer.ts";
import { settledWithin } from "../core/settled_within.ts";
import { forgetGroup, recordGroup } from "./process_groups.ts";

/** Characters kept of a hook's stdout and of its stderr. */
export const HOOK_TAIL_CHARS = 2048;

/** Between the SIGTERM a hook past its timeout gets and the SIGKILL, in ms. */
export const HOOK_KILL_GRACE_MS = 1000;

/** How long a hook's pipes are read after its group is ended, in ms. */
const PIPE_DRAIN_MS = 200;

/** What to run, and how. */
export interface HookProcessOptions {
  /** A shell command (`sh -c`), or a program and its arguments. */
  command: string | readonly string[];
  /** The whole environment of the hook (nothing else is inherited). */
  env: Record<string, string>;
  /** Its working directory; absent: this process's. */
  cwd?: string;
  /** Written to its stdin, then closed: the hook's context as JSON. */
  stdin: string;
  /** How long it may run, in ms (≥ 1). */
  timeoutMs: number;
  /** Ends it early (the daemon stopping), as a timeout does. */
  signal?: AbortSignal;
}

/**
 * How a hook's run ended:
 * - `ok`: it exited 0;
 * - `failed`: it exited with another code, or a signal it was not sent ended it;
 * - `timeout`: it ran past its timeout and its group was killed;
 * - `cancelled`: `signal` aborted it;
 * - `not-found`: the program does not exist or cannot be run (never started).
 */
export type HookOutcome = "ok" | "failed" | "timeout" | "cancelled" | "not-found";

/** The result of {@link runHookProcess}. */
export interface HookProcessResult {
  outcome: HookOutcome;
  /** Its exit code, null when a signal ended it; absent when it never started. */
  exitCode?: number | null;
  /** The signal that ended it, if one did. */
  signal?: string | null;
  /** Its pid, when it started. */
  pid?: number;
  /** How long it ran, in ms. */
  durationMs: number;
  /** The last {@link HOOK_TAIL_CHARS} of its stderr. */
  stderrTail: string;
  /** The last {@link HOOK_TAIL_CHARS} of its stdout. */
  stdoutTail: string;
  /** One sentence saying why, for anything but `ok`. */
  reason?: string;
}

/**
 * Runs one hook command to its end, within its timeout. Never throws: every
 * way it can go wrong is an outcome.
 *
 * @param options What to run.
 * @returns How it ended (see {@link HookOutcome}).
 * @example
 * ```ts
 * import { runHookProcess } from "./hook_process.ts";
 * const r = await runHookProcess({
 *   command: "read line; echo \"got $line\"; exit 3",
 *   env: { PATH: Deno.env.get("PATH") ?? "/usr/bin:/bin" },
 *   stdin: "{}\n",
 *   timeoutMs: 5000,
 * });
 * if (r.outcome !== "failed" || r.exitCode !== 3 || r.stdoutTail !== "got {}\n") throw new Error();
 * ```
 */
export async function runHookProcess(options: HookProcessOptions): Promise<HookProcessResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const [program, ...args] = typeof options.command === "string"
    ? ["sh", "-c", options.command]
    : options.command;
  const stdout = new TailBuffer(HOOK_TAIL_CHARS);
  const stderr = new TailBuffer(HOOK_TAIL_CHARS);
  const tails = () => ({ stdoutTail: stdout.toString(), stderrTail: stderr.toString() });
  if (options.signal?.aborted) {
    return { outcome: "cancelled", durationMs: 0, ...tails(), reason: "cancelled before it began" };
  }
  let child: Deno.ChildProcess;
  try {
    child = new Deno.Command(program, {
      args,
      env: options.env,
      clearEnv: true,
      ...(options.cwd ? { cwd: options.cwd } : {}),
      stdin: "piped",
      stdout: "piped",
      stderr: "piped",
      detached: true,
    }).spawn();
  } catch (error) {
    const why = !(error instanceof Deno.errors.NotFound)
      ? `${program} could not be started: ${(error as Error).message}`
      : program.includes("/")
      ? `${program} does not exist; fix the hook's command`
      : `${program} was not found on PATH; give its absolute path or install it`;
    return { outcome: "not-found", durationMs: elapsed(), ...tails(), reason: why };
  }
  const pid = child.pid;
  recordGroup(pid, [program, ...args].join(" "));
  const readers = [child.stdout.getReader(), child.stderr.getReader()];
  const reading = Promise.all([
    pump(readers[0], stdout),
    pump(readers[1], stderr),
    feed(child.stdin, options.stdin),
  ]);

  let ended: "timeout" | "cancelled" | undefined;
  const end = (why: "timeout" | "cancelled") => {
    if (ended) return;
    ended = why;
    killGroup(pid, "SIGTERM");
    graceTimer = setTimeout(() => killGroup(pid, "SIGKILL"), HOOK_KILL_GRACE_MS);
  };
  let graceTimer: ReturnType<typeof setTimeout> | undefined;
  const timer = setTimeout(() => end("timeout"), options.timeoutMs);
  const onAbort = () => end("cancelled");
  options.signal?.addEventListener("abort", onAbort, { once: true });
  let status: Deno.CommandStatus;
  try {
    status = await child.status;
  } finally {
    clearTimeout(timer);
    clearTimeout(graceTimer);
    options.signal?.removeEventListener("abort", onAbort);
    // Whatever it started goes with it; then its pipes close.
    killGroup(pid, "SIGKILL");
    forgetGroup(pid);
  }
  // A process that left the group (its own setsid) may still hold a pipe: stop reading it.
  if (await settledWithin(reading, PIPE_DRAIN_MS) === undefined) {
    for (const reader of readers) reader.cancel().catch(() => {});
  }
  const result = {
    exitCode: status.code,
    signal: status.signal,
    pid,
    durationMs: elapsed(),
    ...tails(),
  };
  if (ended === "timeout") {
    return {
      outcome: "timeout",
      ...result,
      exitCode: status.signal ? null : status.code,
      reason: `it ran past its timeout of ${options.timeoutMs} ms and its process group was killed`,
    };
  }
  if (ended === "cancelled") return { outcome: "cancelled", ...result, reason: "mcpx stopped it" };
  if (status.success) return { outcome: "ok", ...result };
  return {
    outcome: "failed",
    ...result,
    exitCode: status.signal ? null : status.code,
    reason: status.signal
      ? `it was ended by ${status.signal}`
      : status.code === 127 && typeof options.command === "string"
      ? `it exited with code 127: the shell did not find the command`
      : `it exited with code ${status.code}`,
  };
}

/** Sends `signal` to the group `pid` leads; a gone group is fine. */
function killGroup(pid: number, signal: Deno.Signal): void {
  try {
    Deno.kill(-pid, signal);
  } catch { /* the group is gone */ }
}

async function pump(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  tail: TailBuffer,
): Promise<void> {
  const decoder = new TextDecoder();
  try {
    while (true) {
      const { value, done } = await reader.read();
      if (done) break;
      tail.append(decoder.decode(value, { stream: true }));
    }
  } catch { /* the process is gone, or the read was cancelled */ }
}

async function feed(stream: WritableStream<Uint8Array>, text: string): Promise<void> {
  const writer = stream.getWriter();
  try {
    await writer.write(new TextEncoder().encode(text));
    await writer.close();
  } catch { /* the hook closed its stdin without reading it all */ }
}
