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
 * Where the signals to pass on come from: this process's own (default), or
 * another's that started the runtime (runner/host.ts `ScriptSpawner.onSignal`).
 * Returns the function that stops listening.
 */
export type SignalSource = (listener: (signal: Deno.Signal) => void) => () => void;

/** This process's {@link FORWARDED_SIGNALS}. */
const processSignals: SignalSource = (listener) => {
  const handlers = FORWARDED_SIGNALS.map((s) => [s, () => listener(s)] as const);
  for (const [s, h] of handlers) Deno.addSignalListener(s, h);
  return () => {
    for (const [s, h] of handlers) Deno.removeSignalListener(s, h);
  };
};

/**
 * Listens for {@link FORWARDED_SIGNALS} and sends each to `targets()` (the
 * runtime, or the runtime inside the sandbox) until disposed.
 *
 * @param targets The pids to signal, asked at each signal (they may change as a sandbox starts).
 * @param source Where the signals come from (default: this process's).
 * @returns `send(signal)` signals the targets now (`--timeout` uses it); dispose stops listening.
 */
export function forwardSignals(
  targets: () => number[],
  source: SignalSource = processSignals,
): { send(signal: Deno.Signal): void } & Disposable {
  const send = (signal: Deno.Signal) => {
    for (const pid of targets()) {
      try {
        Deno.kill(pid, signal);
      } catch { /* gone */ }
    }
  };
  const stop = source(send);
  return { send, [Symbol.dispose]: stop };
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
