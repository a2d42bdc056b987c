/**
 * A stdio transport for the official MCP SDK's `Client` that starts the
 * server in its own process group, keeps a tail of its stderr, and survives
 * garbage on stdout.
 *
 * The SDK's own `StdioClientTransport` spawns the child in the daemon's
 * process group, so stopping it leaves grandchildren (a browser a server
 * started) behind. Here the child is `detached` (setsid), and closing kills
 * the whole group: close stdin, wait, SIGTERM the group, wait, SIGKILL the
 * group — the SDK's teardown order (CONVENTIONS.md, MCP SDK model).
 *
 * Framing follows MCP 2025-11-25 "Transports: stdio": one JSON-RPC message
 * per line on stdout. A line that is not a JSON-RPC message is not fatal: it
 * is kept in the diagnostics tail, marked `stdout:`, and handed to
 * `onstrayline` (the daemon records it in its log as a warning).
 *
 * @module
 */

import {
  deserializeMessage,
  type JSONRPCMessage,
  serializeMessage,
  type Transport,
} from "@modelcontextprotocol/client";
import { STDERR_TAIL_CHARS, TailBuffer } from "../core/tail_buffer.ts";
import { settlesWithin } from "../core/deadline.ts";
import { forgetGroup, recordGroup } from "./process_groups.ts";
import { LineSplitter, type SplitWork } from "./line_splitter.ts";

/** How to start a stdio server. */
export interface StdioLaunch {
  command: string;
  args: string[];
  /** The complete environment of the child (not merged with anything). */
  env: Record<string, string>;
  cwd?: string;
}

/** Grace periods of the teardown, in ms. */
const CLOSE_STDIN_GRACE_MS = 500;
/** How long `close()` waits after SIGTERM before SIGKILL, in ms. */
export const SIGTERM_GRACE_MS = 1500;
/** Bytes read from a server's stdout at a time: 64 KiB. */
const READ_BYTES = 1 << 16;
/** The longest stray stdout line kept or reported, in characters. */
const STRAY_LINE_CHARS = 500;

/**
 * One child process speaking MCP over stdin/stdout.
 *
 * `start()` throws a `Deno.errors.NotFound` when the command does not exist.
 * `exited` resolves with the child's status once it is gone.
 */
export class ProcessGroupStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  /** Told the revision the client agreed (installed by engine/result_type.ts; stdio sends no header). */
  setProtocolVersion?: (version: string) => void;
  /**
   * Called with each stdout line that is not a JSON-RPC message (at most
   * 500 characters of it), in order; `count` is how many so far, this one included.
   */
  onstrayline?: (line: string, count: number) => void;

  /** The last 8,192 characters of stderr (and stray stdout lines), for diagnostics. */
  readonly stderrTail: TailBuffer = new TailBuffer(STDERR_TAIL_CHARS);
  #strayLines = 0;
  #stopping?: Promise<void>;
  #launch: StdioLaunch;
  #child?: Deno.ChildProcess;
  #writer?: WritableStreamDefaultWriter<Uint8Array>;
  #closed = false;
  #encoder = new TextEncoder();
  #exited?: Promise<Deno.CommandStatus>;
  #stderrDone?: Promise<void>;
  #stdoutLines = new LineSplitter();

  constructor(launch: StdioLaunch) {
    this.#launch = launch;
  }

  /** The child's pid, once started. */
  get pid(): number | undefined {
    return this.#child?.pid;
  }

  /**
   * Always null: stderr is read into {@link stderrTail}. Present, with `pid`,
   * because that is how the SDK's version negotiation recognises a stdio
   * transport, where a `server/discover` probe that gets no answer means a
   * legacy server rather than an outage (client 2.4.0, `versionNegotiation`).
   */
  get stderr(): null {
    return null;
  }

  /**
   * Resolves once everything the child wrote to stderr is in the tail (its
   * stderr reached end of file); undefined before `start()`.
   */
  get stderrDone(): Promise<void> | undefined {
    return this.#stderrDone;
  }

  /**
   * What reading stdout has cost so far (bytes scanned for newlines, decoded and copied,
   * lines joined from blocks): each byte is scanned and decoded once, copied at most twice,
   * and each message joined at most once (engine/line_splitter.ts).
   */
  get stdoutWork(): Readonly<SplitWork> {
    return this.#stdoutLines.work;
  }

  /** True once `close()` or `stop()` was called: an exit after it was asked for. */
  get stopRequested(): boolean {
    return this.#stopping !== undefined;
  }

  /** Resolves with the child's exit status; undefined before `start()`. */
  get exited(): Promise<Deno.CommandStatus> | undefined {
    return this.#exited;
  }

  start(): Promise<void> {
    const { command, args, env, cwd } = this.#launch;
    this.#child = new Deno.Command(command, {
      args,
      env,
      clearEnv: true,
      cwd,
      stdin: "piped",
      stdout: "piped",
      stderr: "piped",
      detached: true,
    }).spawn();
    // Recorded until the leader exits, so a daemon killed meanwhile leaves no orphan (decision 0006).
    const pid = this.#child.pid;
    recordGroup(pid, [command, ...args].join(" "));
    this.#writer = this.#child.stdin.getWriter();
    this.#exited = this.#child.status.finally(() => forgetGroup(pid));
    this.#pumpStdout(this.#child.stdout);
    this.#stderrDone = this.#pumpStderr(this.#child.stderr);
    this.#exited.then(() => this.#finish());
    return Promise.resolve();
  }

  async send(message: JSONRPCMessage): Promise<void> {
    if (!this.#writer || this.#closed) throw new Error("the server process is not running");
    await this.#writer.write(this.#encoder.encode(serializeMessage(message)));
  }

  /** Stops the process group: {@link stop} with the usual SIGTERM grace (1.5 s). */
  close(): Promise<void> {
    return this.stop(SIGTERM_GRACE_MS);
  }

  /**
   * Stops the process group: closes stdin and waits 500 ms, then SIGTERM
   * and waits `termGraceMs`, then SIGKILL (MCP SDK teardown order). A
   * longer grace lets a program that cleans up on SIGTERM finish: npm,
   * stopped in the middle of `npx -y`'s install, rolls it back, where
   * SIGKILL would leave a broken `_npx/<hash>` folder behind.
   *
   * A stop already under way is joined, not restarted: a later `close()`
   * (the SDK's, say) does not cut a longer grace short.
   *
   * @param termGraceMs Wait between SIGTERM and SIGKILL, in ms.
   */
  stop(termGraceMs: number): Promise<void> {
    if (!this.#child) return Promise.resolve();
    return this.#stopping ??= this.#stop(this.#child, termGraceMs);
  }

  async #stop(child: Deno.ChildProcess, termGraceMs: number): Promise<void> {
    const exited = this.#exited!;
    try {
      await this.#writer?.close();
    } catch { /* already closed */ }
    if (!(await settlesWithin(exited, CLOSE_STDIN_GRACE_MS))) {
      killGroup(child.pid, "SIGTERM");
      if (!(await settlesWithin(exited, termGraceMs))) killGroup(child.pid, "SIGKILL");
    }
    // The leader may exit on stdin EOF while grandchildren linger: clear the group.
    killGroup(child.pid, "SIGKILL");
    await exited;
    this.#finish();
  }

  #finish(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.onclose?.();
  }

  /**
   * Reads stdout to its end, handing each line to {@link #handleLine}. Linear in the bytes
   * (engine/line_splitter.ts): each byte is scanned once and decoded once, and a line is
   * joined once, so a result of tens of MB costs about its size again, not its square.
   */
  async #pumpStdout(stream: ReadableStream<Uint8Array>): Promise<void> {
    const lines = this.#stdoutLines;
    const handle = (line: string) =>
      this.#handleLine(line.endsWith("\r") ? line.slice(0, -1) : line);
    try {
      // One buffer read into again and again (a BYOB reader), rather than a fresh 64 KiB
      // chunk per read left for the collector: reading a result of 64 MiB that way kept
      // about 50 MiB of spent chunks alive in the daemon (measured).
      const reader = stream.getReader({ mode: "byob" });
      let buffer = new Uint8Array(READ_BYTES);
      while (true) {
        const { value, done } = await reader.read(buffer);
        if (done || !value) break;
        for (const line of lines.push(value)) handle(line);
        buffer = new Uint8Array(value.buffer);
      }
      // Text after the last newline: a message without its newline, or a stray line.
      const rest = lines.end();
      if (rest) handle(rest);
    } catch (error) {
      if (!this.#closed) this.onerror?.(error as Error);
    }
  }

  #handleLine(line: string): void {
    if (line.trim() === "") return;
    let message: JSONRPCMessage;
    try {
      message = deserializeMessage(line);
    } catch {
      const kept = line.slice(0, STRAY_LINE_CHARS);
      this.stderrTail.append(`stdout: ${kept}\n`);
      this.onstrayline?.(kept, ++this.#strayLines);
      return;
    }
    this.onmessage?.(message);
  }

  async #pumpStderr(stream: ReadableStream<Uint8Array>): Promise<void> {
    const decoder = new TextDecoder();
    try {
      for await (const chunk of stream) {
        this.stderrTail.append(decoder.decode(chunk, { stream: true }));
      }
    } catch { /* the process is gone */ }
  }
}

/** Sends `signal` to every process in the group led by `pid`; a gone group is fine. */
export function killGroup(pid: number, signal: Deno.Signal): void {
  try {
    Deno.kill(-pid, signal);
  } catch { /* no such process group */ }
}
