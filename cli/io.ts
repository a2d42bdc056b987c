/**
 * The CLI's runtime seams: output streams, environment and working
 * directory, so commands can be tested without a subprocess (CONVENTIONS.md,
 * Cliffy model).
 *
 * @module
 */

/** Where a command writes. */
export interface Io {
  /** Writes text to stdout as is (callers add newlines). */
  out(text: string): void;
  /** Writes text to stderr as is. */
  err(text: string): void;
  /** Reads all of stdin as text. */
  readStdin(): Promise<string>;
  /**
   * True when stderr is a terminal, where progress lines may be drawn
   * (cli/start_progress.ts); absent means false.
   */
  errIsTerminal?(): boolean;
}

const encoder = new TextEncoder();

function writeAll(file: { writeSync(p: Uint8Array): number }, text: string): void {
  let bytes = encoder.encode(text);
  while (bytes.length > 0) {
    try {
      bytes = bytes.subarray(file.writeSync(bytes));
    } catch (error) {
      if (error instanceof Deno.errors.BrokenPipe) return; // `mcpx … | head` is fine
      throw error;
    }
  }
}

/** The process's real stdout, stderr and stdin. */
export const processIo: Io = {
  out: (text) => writeAll(Deno.stdout, text),
  err: (text) => writeAll(Deno.stderr, text),
  readStdin: () => new Response(Deno.stdin.readable).text(),
  errIsTerminal: () => Deno.stderr.isTerminal(),
};

/** An Io that records output, for tests. */
export function memoryIo(stdin = ""): Io & { stdout: string; stderr: string } {
  const io = {
    stdout: "",
    stderr: "",
    out(text: string) {
      io.stdout += text;
    },
    err(text: string) {
      io.stderr += text;
    },
    readStdin: () => Promise.resolve(stdin),
  };
  return io;
}
