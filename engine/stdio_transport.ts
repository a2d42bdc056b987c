/**
 * A stdio transport for the official MCP SDK's `Client` that starts the
 * server in its own process group, keeps a tail of its stderr, and survives
 * garbage on stdout.
 *
 * The SDK's own `StdioClientTransport` spawns the child in the daemon's
 * process group, so stopping it leaves grandchildren (a browser a server
 * started) behind. Here the child is `detached` (setsid), and closing kills
 * the whole group: SIGTERM the group, wait, SIGKILL the group — the SDK's
 * teardown order (CONVENTIONS.md, MCP SDK model) without its first step
 * (close stdin, wait) where the server runs on FIFOs it holds itself
 * (engine/fifo_pipes.ts, Linux and macOS): its stdin never ends, which is
 * what lets `mcpx daemon upgrade` hand it to another daemon ({@link
 * ProcessGroupStdioTransport.detach}, `adopt`; decision 0084).
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
import {
  adoptGroup,
  forgetGroup,
  processStart,
  recordGroup,
  releaseGroup,
} from "./process_groups.ts";
import { LineSplitter, type SplitWork } from "./line_splitter.ts";
import {
  type FifoEnds,
  fifosIn,
  fifosSupported,
  GO_LINE,
  makeFifos,
  openFifos,
  removeFifos,
  resolveCommand,
  shellOnFifos,
  wakeReader,
} from "./fifo_pipes.ts";

/** How to start a stdio server. */
export interface StdioLaunch {
  command: string;
  args: string[];
  /** The complete environment of the child (not merged with anything). */
  env: Record<string, string>;
  cwd?: string;
}

/**
 * How a server's exit is reported: its code and signal, or null for both when
 * the server was adopted from another daemon (not this process's child, so its
 * status cannot be read).
 */
export interface ExitStatus {
  success: boolean;
  code: number | null;
  signal: Deno.Signal | null;
}

/** A server another daemon started, as its handoff record names it (engine/handoff.ts). */
export interface AdoptedServer {
  /** The leader's pid (= its process group). */
  pid: number;
  /** Its start time (engine/process_groups.ts `processStart`): a reused pid is not it. */
  start: string;
  /** The directory of its FIFOs (engine/fifo_pipes.ts). */
  fifoDir: string;
}

/** How often an adopted server's pid is checked for its exit, in ms. */
const ADOPTED_EXIT_POLL_MS = 200;

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
  #pid?: number;
  #writer?: WritableStreamDefaultWriter<Uint8Array>;
  #closed = false;
  #encoder = new TextEncoder();
  #exited?: Promise<ExitStatus>;
  #stderrDone?: Promise<void>;
  #stdoutDone?: Promise<void>;
  #stdoutLines = new LineSplitter();
  /** The server's FIFOs and this process's ends of them (engine/fifo_pipes.ts), when on FIFOs. */
  #fifos?: { paths: ReturnType<typeof fifosIn>; ends?: FifoEnds };
  /** Set by {@link adopt}: the server another daemon started. */
  #adopted?: AdoptedServer;
  /** Set by {@link detach}: this process has let go of the server, which keeps running. */
  #detached = false;

  constructor(launch: StdioLaunch) {
    this.#launch = launch;
  }

  /**
   * A transport for a server another daemon started on FIFOs and handed over
   * (`mcpx daemon upgrade`): {@link start} opens its FIFOs rather than
   * spawning, and its exit is seen as its stdout's end of file or its pid
   * gone (checked every 200 ms), since it is not this process's child.
   */
  static adopt(launch: StdioLaunch, server: AdoptedServer): ProcessGroupStdioTransport {
    const transport = new ProcessGroupStdioTransport(launch);
    transport.#adopted = server;
    transport.#pid = server.pid;
    transport.#fifos = { paths: fifosIn(server.fifoDir) };
    return transport;
  }

  /** The child's pid, once started. */
  get pid(): number | undefined {
    return this.#pid;
  }

  /** The directory of the server's FIFOs, when it runs on FIFOs (engine/fifo_pipes.ts). */
  get fifoDir(): string | undefined {
    return this.#fifos?.paths.dir;
  }

  /**
   * Defined only for an adopted server (`adopted:<pid>`): the SDK's `Client`
   * then connects without `initialize` (client 2.4.0 `connect`, a transport
   * with a `sessionId` is a session being resumed), the handoff record having
   * restored what the server answered to it.
   */
  get sessionId(): string | undefined {
    return this.#adopted ? `adopted:${this.#adopted.pid}` : undefined;
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
  get exited(): Promise<ExitStatus> | undefined {
    return this.#exited;
  }

  /**
   * Spawns the server (on FIFOs where there are: engine/fifo_pipes.ts), or,
   * for an {@link adopt}ed one, opens its FIFOs.
   *
   * @throws {Deno.errors.NotFound} (synchronously) when the command does not exist.
   */
  start(): Promise<void> {
    if (this.#adopted) return this.#startAdopted(this.#adopted);
    const { command, args, env, cwd } = this.#launch;
    if (!fifosSupported) {
      const child = new Deno.Command(command, {
        args,
        env,
        clearEnv: true,
        cwd,
        stdin: "piped",
        stdout: "piped",
        stderr: "piped",
        detached: true,
      }).spawn();
      this.#spawned(child);
      this.#attach(child.stdin.getWriter(), child.stdout, child.stderr);
      return Promise.resolve();
    }
    resolveCommand(command, env, cwd);
    const paths = makeFifos();
    this.#fifos = { paths };
    // The daemon's opens wait before the spawn, so no byte the server writes is lost to a quick
    // exit (engine/fifo_pipes.ts `openFifos`).
    const gone = Promise.withResolvers<unknown>();
    const opened = this.#openFifos(gone.promise);
    let child: Deno.ChildProcess;
    try {
      const shell = shellOnFifos(paths, command, args);
      child = new Deno.Command(shell.command, {
        args: shell.args,
        env,
        clearEnv: true,
        cwd,
        stdin: "null",
        stdout: "null",
        stderr: "null",
        detached: true,
      }).spawn();
    } catch (error) {
      gone.resolve(undefined);
      opened.then(() => this.#finishUnstarted(), () => {});
      throw error;
    }
    this.#spawned(child);
    this.#exited!.then(gone.resolve);
    // The daemon holds its ends: the shell may become the server now.
    return opened.then(() => writeGo(this.#fifos!.ends!.input));
  }

  /** Closes the ends of a server whose spawn failed, and removes its FIFOs. */
  #finishUnstarted(): void {
    for (const file of Object.values(this.#fifos?.ends ?? {})) closeQuietly(file);
    if (this.#fifos) removeFifos(this.#fifos.paths);
  }

  /** Records a spawned child's group and watches its exit. */
  #spawned(child: Deno.ChildProcess): void {
    const { command, args } = this.#launch;
    const pid = this.#pid = child.pid;
    // Recorded until the leader exits, so a daemon killed meanwhile leaves no orphan (decision 0006).
    recordGroup(pid, [command, ...args].join(" "));
    this.#exited = child.status.finally(() => forgetGroup(pid));
    this.#exited.then(() => this.#finish());
  }

  async #openFifos(gone: Promise<unknown>): Promise<void> {
    const fifos = this.#fifos!;
    fifos.ends = await openFifos(fifos.paths, gone);
    this.#attach(
      writerTo(fifos.ends.input),
      fifos.ends.output.readable,
      fifos.ends.errors.readable,
    );
  }

  #attach(
    writer: WritableStreamDefaultWriter<Uint8Array>,
    stdout: ReadableStream<Uint8Array>,
    stderr: ReadableStream<Uint8Array>,
  ): void {
    this.#writer = writer;
    this.#stdoutDone = this.#pumpStdout(stdout);
    this.#stderrDone = this.#pumpStderr(stderr);
  }

  async #startAdopted(server: AdoptedServer): Promise<void> {
    const { promise, resolve } = Promise.withResolvers<ExitStatus>();
    this.#exited = promise;
    const check = () => {
      const now = processStart(server.pid);
      if (now === undefined || now.zombie || now.start !== server.start) {
        forgetGroup(server.pid);
        resolve({ success: false, code: null, signal: null });
      } else {
        Deno.unrefTimer(setTimeout(check, ADOPTED_EXIT_POLL_MS));
      }
    };
    check();
    this.#exited.then(() => this.#finish());
    await this.#openFifos(this.#exited);
    adoptGroup(server.pid, [this.#launch.command, ...this.#launch.args].join(" "));
  }

  /**
   * Lets go of the server without stopping it, for another daemon to
   * {@link adopt} (`mcpx daemon upgrade`): stops reading its stdout and
   * stderr (each pending read woken with an empty line: engine/fifo_pipes.ts
   * `wakeReader`), closes this process's ends of its FIFOs, and takes its
   * group out of this daemon's ledger without ending it. No `onclose` follows.
   * Call it only with no request in flight: a message the server writes while
   * its reader is being woken is read here and not handed on.
   *
   * @returns What the next daemon needs to adopt it.
   * @throws {Error} when the server does not run on FIFOs (Windows) or was not started.
   */
  async detach(): Promise<AdoptedServer> {
    const fifos = this.#fifos;
    const pid = this.#pid;
    if (!fifos?.ends || pid === undefined) {
      throw new Error("only a started server on FIFOs can be handed over");
    }
    const start = this.#adopted?.start ?? processStart(pid)?.start;
    if (start === undefined) throw new Error(`server process ${pid} has exited`);
    this.#detached = true;
    wakeReader(fifos.paths.out);
    wakeReader(fifos.paths.err);
    await Promise.all([this.#stdoutDone, this.#stderrDone]);
    try {
      this.#writer?.releaseLock();
    } catch { /* writing */ }
    for (const file of [fifos.ends.input, fifos.ends.output, fifos.ends.errors]) {
      closeQuietly(file);
    }
    releaseGroup(pid);
    return { pid, start, fifoDir: fifos.paths.dir };
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
    if (this.#pid === undefined || !this.#exited || this.#detached) return Promise.resolve();
    return this.#stopping ??= this.#stop(this.#pid, termGraceMs);
  }

  async #stop(pid: number, termGraceMs: number): Promise<void> {
    const exited = this.#exited!;
    try {
      await this.#writer?.close();
    } catch { /* already closed */ }
    // A server on FIFOs holds its stdin's writer itself, so it never sees end of file:
    // SIGTERM comes at once (decision 0084).
    const stdinGrace = this.#fifos ? 0 : CLOSE_STDIN_GRACE_MS;
    if (!(await settlesWithin(exited, stdinGrace))) {
      killGroup(pid, "SIGTERM");
      if (!(await settlesWithin(exited, termGraceMs))) killGroup(pid, "SIGKILL");
    }
    // The leader may exit on stdin EOF while grandchildren linger: clear the group.
    killGroup(pid, "SIGKILL");
    await exited;
    this.#finish();
  }

  #finish(): void {
    if (this.#closed || this.#detached) return;
    this.#closed = true;
    if (this.#fifos) {
      // Stdout and stderr are read to their end first (their readers close them).
      closeQuietly(this.#fifos.ends?.input);
      removeFifos(this.#fifos.paths);
    }
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
      while (!this.#detached) {
        const { value, done } = await reader.read(buffer);
        if (done || !value) break;
        for (const line of lines.push(value)) handle(line);
        buffer = new Uint8Array(value.buffer);
      }
      if (this.#detached) {
        reader.releaseLock();
        return;
      }
      // Text after the last newline: a message without its newline, or a stray line.
      const rest = lines.end();
      if (rest) handle(rest);
    } catch (error) {
      if (!this.#closed) this.onerror?.(error as Error);
    }
    closeQuietly(this.#fifos?.ends?.output);
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
    const reader = stream.getReader();
    try {
      while (!this.#detached) {
        const { value, done } = await reader.read();
        if (done) break;
        this.stderrTail.append(decoder.decode(value, { stream: true }));
      }
    } catch { /* the process is gone */ }
    reader.releaseLock();
    if (!this.#detached) closeQuietly(this.#fifos?.ends?.errors);
  }
}

/** Sends `signal` to every process in the group led by `pid`; a gone group is fine. */
export function killGroup(pid: number, signal: Deno.Signal): void {
  try {
    Deno.kill(-pid, signal);
  } catch { /* no such process group */ }
}

/** Closes `file` unless it is absent or closed already. */
function closeQuietly(file: Deno.FsFile | undefined): void {
  try {
    file?.close();
  } catch { /* already closed */ }
}

/**
 * A writer that writes each chunk whole with `file.write`. Not `file.writable`:
 * on a FIFO, Deno 2.9's stream held the bytes back until it was closed (measured:
 * a server read nothing of a request written through it).
 */
function writerTo(file: Deno.FsFile): WritableStreamDefaultWriter<Uint8Array> {
  return new WritableStream<Uint8Array>({
    async write(chunk) {
      for (let at = 0; at < chunk.length;) at += await file.write(chunk.subarray(at));
    },
  }).getWriter();
}

/** Writes the "go" line (engine/fifo_pipes.ts {@link GO_LINE}); a server already gone is no error here. */
async function writeGo(input: Deno.FsFile): Promise<void> {
  try {
    await input.write(GO_LINE);
  } catch {
    // The shell died before reading it: its exit is reported as any start failure is.
  }
}
