/**
 * The signals `mcpx run` passes to its script: what would have ended mcpx
 * ends the script instead, which can clean up, and mcpx reports how it ended
 * (128 + the signal's number). SIGINT (Ctrl-C), SIGTERM (`kill`) and SIGHUP
 * (the terminal or the ssh session closed) are passed on; SIGKILL cannot be
 * caught, and the kernel ends the script then (runner/death_signal.ts). Issue 9;
 * decision 0024.
 *
 * @module
 */

/** The signals passed on to the script, in the order they are listened for. */
export const FORWARDED_SIGNALS = ["SIGINT", "SIGTERM", "SIGHUP"] as const;

/** A signal mcpx passes on. */
export type ForwardedSignal = typeof FORWARDED_SIGNALS[number];

/**
 * Listens for {@link FORWARDED_SIGNALS} and sends each to `targets()` (the
 * runtime, or the runtime inside the sandbox) until disposed.
 *
 * @param targets The pids to signal, asked at each signal (they may change as a sandbox starts).
 * @returns `send(signal)` signals the targets now (`--timeout` uses it); dispose removes the listeners.
 */
export function forwardSignals(
  targets: () => number[],
): { send(signal: Deno.Signal): void } & Disposable {
  const send = (signal: Deno.Signal) => {
    for (const pid of targets()) {
      try {
        Deno.kill(pid, signal);
      } catch { /* gone */ }
    }
  };
  const handlers = FORWARDED_SIGNALS.map((s) => [s, () => send(s)] as const);
  for (const [s, h] of handlers) Deno.addSignalListener(s, h);
  return {
    send,
    [Symbol.dispose]() {
      for (const [s, h] of handlers) Deno.removeSignalListener(s, h);
    },
  };
}

/** A signal's number on Linux and macOS (1 when unknown), for the exit code 128 + n. */
export function signalNumber(signal: Deno.Signal): number {
  const numbers: Partial<Record<Deno.Signal, number>> = {
    SIGHUP: 1,
    SIGINT: 2,
    SIGQUIT: 3,
    SIGKILL: 9,
    SIGSEGV: 11,
    SIGPIPE: 13,
    SIGTERM: 15,
  };
  return numbers[signal] ?? 1;
}
