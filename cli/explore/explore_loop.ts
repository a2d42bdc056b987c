/**
 * The explorer's prompt loop (spec 000, "The explorer"; decision 0082): read
 * a line, run the mcpx command it stands for, print that command under its
 * answer, again until `quit` or the end of input. Everything it touches is a
 * seam ({@link ExploreSeams}), so the loop is tested in-process with lines,
 * runs and interrupts of the test's own; cli/explore/explore.ts gives it the
 * real ones.
 *
 * On a terminal it prompts (`mcpx> `, on stderr as shells do) and Ctrl-C
 * cancels the command running, or the line being typed, never the loop;
 * off one it reads line after line and prints only what the commands print
 * and their footers.
 *
 * @module
 */

import type { Io } from "../../core/io.ts";
import { UsageError } from "../../core/errors.ts";
import { commandLine, exploreAction, exploreHelp } from "./explore_line.ts";

/** What the prompt shows on a terminal. */
export const PROMPT = "mcpx> ";

/** The first line on a terminal: what to type first, and how to leave. */
export const GREETING =
  "type a namespace to see its tools, `ls`, `search <words>`, or `help`; Ctrl-D leaves\n";

/** Where the loop's lines come from and where its commands go. */
export interface ExploreSeams {
  /** stdin is a terminal (the kernel was asked: cli/explore/explore.ts). */
  terminal: boolean;
  /**
   * The next line typed, or undefined at the end of input
   * (cli/explore/line_reader.ts). @throws {InputError} For a line past `input.maxBytes`.
   */
  nextLine(): Promise<string | undefined>;
  /**
   * Runs `mcpx <argv…>` as a command line (cli/command_line.ts
   * `runCommandLine`), printing on `io`; `signal` aborts it.
   *
   * @returns Its exit code.
   */
  run(argv: string[], io: Io, signal: AbortSignal): Promise<number>;
  /** The words a bare namespace may be: every namespace's identifier and its server's name. */
  namespaces(): Promise<readonly string[]>;
  /**
   * Calls `onInterrupt` at each Ctrl-C (SIGINT) until the function it returns
   * is called; absent: Ctrl-C is left to its default (off a terminal).
   */
  interrupts?(onInterrupt: () => void): () => void;
}

/**
 * Runs the loop until `quit`, `exit` or the end of input.
 *
 * @param io The explorer's output (the process's).
 * @param seams Its input, its commands and its interrupts.
 * @param globals The explorer's own global options, put before every command's
 *   words (cli/explore/explore_globals.ts), footers included.
 * @returns 0 once left; 1 when the input could not be read (a line past the limit).
 */
export async function exploreLoop(
  io: Io,
  seams: ExploreSeams,
  globals: readonly string[] = [],
): Promise<number> {
  const prompt = () => {
    if (seams.terminal) io.err(PROMPT);
  };
  let running: AbortController | undefined;
  const stopListening = seams.interrupts?.(() => {
    if (running) return running.abort();
    // At the prompt, as a shell does: the line typed is dropped (the terminal did), a new prompt.
    io.err("\n");
    prompt();
  });
  if (seams.terminal) io.err(GREETING);
  try {
    for (;;) {
      prompt();
      let line: string | undefined;
      try {
        line = await seams.nextLine();
      } catch (error) {
        io.err(`error: ${(error as Error).message}\n`);
        return 1;
      }
      if (line === undefined) {
        // Ctrl-D: the shell's own prompt starts on a line of its own.
        if (seams.terminal) io.err("\n");
        return 0;
      }
      const action = await exploreAction(line, seams.namespaces);
      if (action.kind === "blank") continue;
      if (action.kind === "quit") return 0;
      if (action.kind === "help") {
        io.out(exploreHelp());
        continue;
      }
      if (action.kind === "refused") {
        io.err(`${action.message}\n`);
        continue;
      }
      const argv = [...globals, ...action.argv];
      running = new AbortController();
      try {
        await runOne(io, seams, argv, running.signal);
      } finally {
        running = undefined;
      }
      io.out(`$ ${commandLine(argv)}\n`);
      if (seams.terminal) io.out("\n");
      // `mcpx explore < lines | head`: once the reader has gone, nobody reads what follows.
      if (io.stdoutGone?.aborted) return 0;
    }
  } finally {
    stopListening?.();
  }
}

/**
 * Runs one command; once `signal` aborts (Ctrl-C) the loop goes on at once and
 * whatever the command still prints is dropped, so a command that is slow to
 * notice cannot write over the next prompt.
 */
async function runOne(io: Io, seams: ExploreSeams, argv: string[], signal: AbortSignal) {
  const cancelled = new Promise<"cancelled">((resolve) =>
    signal.addEventListener("abort", () => resolve("cancelled"), { once: true })
  );
  const ran = seams.run(argv, commandIo(io, signal), signal).catch((error) => {
    // runCommandLine reports every failure itself; anything else is a bug, said in one line.
    if (!signal.aborted) io.err(`error: ${(error as Error).message}\n`);
    return 1;
  });
  if (await Promise.race([ran, cancelled]) === "cancelled") io.err("\ncancelled\n");
}

/**
 * The Io one command prints on: the explorer's, until `cancelled`; stdin is
 * not the command's to read, since the explorer reads its lines from it.
 */
function commandIo(io: Io, cancelled: AbortSignal): Io {
  return {
    out(text) {
      if (!cancelled.aborted) io.out(text);
    },
    err(text) {
      if (!cancelled.aborted) io.err(text);
    },
    errRaw(text) {
      if (cancelled.aborted) return;
      if (io.errRaw) io.errRaw(text);
      else io.err(text);
    },
    readStdin: () =>
      Promise.reject(
        new UsageError(
          "explore reads its commands from stdin, so `-` cannot read from it here: give the " +
            "value inline or as @file",
        ),
      ),
    ...(io.stdoutGone ? { stdoutGone: io.stdoutGone } : {}),
    ...(io.errIsTerminal ? { errIsTerminal: () => io.errIsTerminal!() } : {}),
  };
}
