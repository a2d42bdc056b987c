/**
 * The CLI's runtime seams: output streams, environment and working
 * directory, so commands can be tested without a subprocess (CONVENTIONS.md,
 * Cliffy model).
 *
 * Every byte mcpx prints goes through an {@link Io}, a script's stdout too
 * when it could be closed under it (runner/run_script.ts): so a reader that
 * goes away (`mcpx … | head -c 10`) ends the output quietly for every
 * command, the way a Unix filter's output ends, never with a BrokenPipe
 * stack trace (issue 8; decision 0013).
 *
 * It is also the one place text is made safe for a terminal: what
 * {@link Io.out} and {@link Io.err} print has its control characters shown
 * as `\uXXXX` (core/terminal_text.ts), so a server's stderr, a tool's name,
 * description, error or text result cannot clear the screen, retitle the
 * terminal or move the cursor, whichever command prints it. JSON stays the
 * same JSON (only how DEL and C1 characters are spelled can change). Only
 * two things are written as they are: mcpx's own terminal control (the
 * progress line, {@link Io.errRaw}) and a script's own output (its stdout
 * through {@link Io.outBytes} or inherited, its stderr through
 * {@link Io.errRaw}): a script's output is the script's to shape.
 *
 * @module
 */

import { terminalText } from "./terminal_text.ts";
import { type InputLimit, readBoundedStream } from "./bounded_read.ts";
import { stdoutIsPipe } from "./stdout_pipe.ts";

/** Where a command writes. */
export interface Io {
  /**
   * Writes text to stdout (callers add newlines), control characters but
   * newline and tab shown as `\uXXXX`; dropped once stdout's reader is gone.
   */
  out(text: string): void;
  /** Writes text to stderr, control characters shown as {@link Io.out} does; dropped once stderr's reader is gone. */
  err(text: string): void;
  /**
   * Writes text to stderr exactly as given, control characters included:
   * only for mcpx's own terminal control (cli/discovery/start_progress.ts) and a
   * script's own stderr. Absent means {@link Io.err}.
   */
  errRaw?(text: string): void;
  /**
   * Reads all of stdin as text, at most `limit.maxBytes` of it
   * (core/bounded_read.ts): a pipe that never ends (`yes |`) is refused once
   * it passes the limit, not read until memory runs out.
   *
   * @param what The input as the user knows it (`the arguments on stdin`), for the refusal.
   * @throws {InputError} past the limit.
   */
  readStdin(what: string, limit: InputLimit): Promise<string>;
  /**
   * Writes a child process's stdout bytes on, as they are, in order; dropped
   * once stdout's reader is gone. Optional: an Io without it has children
   * inherit the process's stdout.
   */
  outBytes?(bytes: Uint8Array): Promise<void>;
  /**
   * Whether a child's stdout must pass through {@link Io.outBytes} rather than
   * be inherited: true when stdout is a pipe or a socket (a reader that can go
   * away while the child writes), or when output is captured in memory.
   */
  passChildStdout?(): boolean;
  /** Aborted once a write found stdout's reader gone, so a command that streams can stop. */
  readonly stdoutGone?: AbortSignal;
  /**
   * True when stderr is a terminal, where progress lines may be drawn
   * (cli/discovery/start_progress.ts); absent means false.
   */
  errIsTerminal?(): boolean;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** One per stream of the process: aborted at the first write its reader did not take. */
const gone = { stdout: new AbortController(), stderr: new AbortController() };

function writeAll(name: "stdout" | "stderr", text: string): void {
  if (gone[name].signal.aborted) return;
  const file = name === "stdout" ? Deno.stdout : Deno.stderr;
  let bytes = encoder.encode(text);
  while (bytes.length > 0) {
    try {
      bytes = bytes.subarray(file.writeSync(bytes));
    } catch (error) {
      // `mcpx … | head` is fine: the reader took what it wanted.
      if (error instanceof Deno.errors.BrokenPipe) return gone[name].abort();
      throw error;
    }
  }
}

/** The process's real stdout, stderr and stdin. */
export const processIo: Io = {
  out: (text) => writeAll("stdout", terminalText(text)),
  err: (text) => writeAll("stderr", terminalText(text)),
  errRaw: (text) => writeAll("stderr", text),
  readStdin: async (what, limit) =>
    decoder.decode(await readBoundedStream(Deno.stdin.readable, what, limit)),
  async outBytes(bytes) {
    let rest = bytes;
    while (rest.length > 0 && !gone.stdout.signal.aborted) {
      try {
        rest = rest.subarray(await Deno.stdout.write(rest));
      } catch (error) {
        if (error instanceof Deno.errors.BrokenPipe) return gone.stdout.abort();
        throw error;
      }
    }
  },
  passChildStdout: stdoutIsPipe,
  stdoutGone: gone.stdout.signal,
  errIsTerminal: () => Deno.stderr.isTerminal(),
};

/** An Io that records output as the process's would print it (control characters shown), for tests. */
export function memoryIo(stdin = ""): Io & { stdout: string; stderr: string } {
  const decoder = new TextDecoder();
  const io = {
    stdout: "",
    stderr: "",
    out(text: string) {
      io.stdout += terminalText(text);
    },
    err(text: string) {
      io.stderr += terminalText(text);
    },
    errRaw(text: string) {
      io.stderr += text;
    },
    readStdin: async (what: string, limit: InputLimit) =>
      new TextDecoder().decode(await readBoundedStream(new Blob([stdin]).stream(), what, limit)),
    outBytes(bytes: Uint8Array) {
      io.stdout += decoder.decode(bytes, { stream: true });
      return Promise.resolve();
    },
    passChildStdout: () => true,
  };
  return io;
}
