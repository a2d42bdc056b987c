/**
 * The TypeScript declarations of listed tools, made in a process of its own
 * (discovery/declarations_main.ts) that the daemon starts when a listing
 * needs them, feeds the tools' schemas on stdin, reads the declarations from
 * and lets exit. `json-schema-to-typescript` and what it loads (prettier
 * among them) never enter the daemon's heap, which they held for the
 * daemon's whole life before (about 22 MiB of resident memory; issue 11,
 * decision 0029).
 *
 * At most one generator process runs at a time: requests that arrive while
 * one runs (several servers listed at once, `mcpx refresh`) are answered
 * together by the next one, so a refresh of a hundred servers starts a few
 * processes, not a hundred at once.
 *
 * A process that cannot start, exits with an error, outlives its time limit
 * ({@link generatorTimeoutMs}) or prints something other than the answer
 * rejects every request it was serving with a {@link TypeGenerationError}
 * saying which; the listing stores its tools without declarations, and
 * `mcpx types` generates them when asked (discovery/typescript.ts
 * `entryDeclaration`).
 *
 * @module
 */

import {
  type DeclarationRequest,
  type DeclarationsInput,
  readDeclarationsOutput,
} from "../discovery/declarations_wire.ts";
import { TailBuffer } from "../core/tail_buffer.ts";
import { ROOT_URL } from "../core/root.ts";

/** What went wrong with a generator process. */
export type TypeGenerationFailure =
  /** It could not be started (the runtime's binary is gone, no processes left). */
  | "unavailable"
  /** It exited with a code other than 0, or was killed by a signal. */
  | "crashed"
  /** It did not answer within its time limit and was killed. */
  | "timeout"
  /** It exited 0 but its stdout is not the answer (discovery/declarations_wire.ts). */
  | "garbage"
  /** The generator was closed (the daemon is stopping) before it answered. */
  | "stopped";

/** Why no declarations came back; `reason` is the fact to act on, `message` a sentence. */
export class TypeGenerationError extends Error {
  readonly reason: TypeGenerationFailure;
  /** The last lines the process wrote to stderr, when it wrote any. */
  readonly stderrTail?: string;
  constructor(
    reason: TypeGenerationFailure,
    message: string,
    options?: ErrorOptions & { stderrTail?: string },
  ) {
    super(message, options);
    this.name = "TypeGenerationError";
    this.reason = reason;
    if (options?.stderrTail) this.stderrTail = options.stderrTail;
  }
}

/** A program and its arguments. */
export interface GeneratorCommand {
  command: string;
  args: string[];
}

/** The local path of a `file:` URL. */
function fromFileUrl(url: URL): string {
  return decodeURIComponent(url.pathname);
}

/**
 * How the generator's process is started: this runtime
 * (`Deno.execPath()`) running discovery/declarations_main.ts with all
 * permissions and this checkout's deno.json (its packages resolve through the
 * import map; the daemon, whose bundle holds its own, runs without). All permissions, as the daemon and the CLI (which generates a
 * missing declaration itself) have them, so a declaration reads the same
 * whichever process made it.
 */
export function generatorCommand(): GeneratorCommand {
  // From ROOT_URL, not import.meta.url: in daemon/daemon.bundle.js that is the bundle's.
  const main = new URL("discovery/declarations_main.ts", ROOT_URL);
  const denoJson = new URL("deno.json", ROOT_URL);
  const args = ["run", "-A"];
  if (denoJson.protocol === "file:") args.push("--config", fromFileUrl(denoJson));
  args.push(main.protocol === "file:" ? fromFileUrl(main) : main.href);
  return { command: Deno.execPath(), args };
}

/**
 * How long a generator process may take for `tools` tools, in ms: 30 s to
 * start the runtime and load the generator on a busy machine, plus 50 ms a
 * tool (measured: 4–11 ms a tool on 2 busy cores, 1,000 tools in 4 s).
 */
export function generatorTimeoutMs(tools: number): number {
  return 30_000 + 50 * tools;
}

/** Options of {@link TypeGenerator}; the defaults are the real generator. */
export interface TypeGeneratorOptions {
  /** The process to start (default {@link generatorCommand}). */
  command?: GeneratorCommand;
  /** Its time limit for a number of tools, in ms (default {@link generatorTimeoutMs}). */
  timeoutMs?: (tools: number) => number;
}

interface Pending {
  requests: DeclarationRequest[];
  resolve(declarations: (string | null)[]): void;
  reject(error: TypeGenerationError): void;
}

/** Characters of a generator's stderr kept for the error. */
const STDERR_CHARS = 4096;

/** The daemon's type generator: one process at a time, started per batch of requests. */
export class TypeGenerator implements AsyncDisposable {
  #command: GeneratorCommand;
  #timeoutMs: (tools: number) => number;
  #queue: Pending[] = [];
  #running: Promise<void> | undefined;
  #closed = new AbortController();

  constructor(options: TypeGeneratorOptions = {}) {
    this.#command = options.command ?? generatorCommand();
    this.#timeoutMs = options.timeoutMs ?? generatorTimeoutMs;
  }

  /**
   * The declarations of `requests`' tools, made by a generator process (this
   * request's own, or the next one when one is running). No process is
   * started for no tools.
   *
   * @param requests The tools and their function identifiers.
   * @returns One declaration per request, in order; `null` where the
   *   generator could not make one (`mcpx types` makes it when asked).
   * @throws {TypeGenerationError} when the process serving the request failed.
   */
  declare(requests: DeclarationRequest[]): Promise<(string | null)[]> {
    if (requests.length === 0) return Promise.resolve([]);
    if (this.#closed.signal.aborted) return Promise.reject(stoppedError());
    return new Promise((resolve, reject) => {
      this.#queue.push({ requests, resolve, reject });
      this.#next();
    });
  }

  /** Rejects what waits, kills a running process and waits for it to end. */
  async [Symbol.asyncDispose](): Promise<void> {
    this.#closed.abort();
    for (const pending of this.#queue.splice(0)) pending.reject(stoppedError());
    await this.#running;
  }

  #next(): void {
    if (this.#running || this.#queue.length === 0) return;
    const batch = this.#queue.splice(0);
    this.#running = this.#serve(batch).finally(() => {
      this.#running = undefined;
      this.#next();
    });
  }

  async #serve(batch: Pending[]): Promise<void> {
    const requests = batch.flatMap((p) => p.requests);
    try {
      const declarations = await runGenerator(requests, {
        command: this.#command,
        timeoutMs: this.#timeoutMs(requests.length),
        signal: this.#closed.signal,
      });
      let at = 0;
      for (const pending of batch) {
        pending.resolve(declarations.slice(at, at + pending.requests.length));
        at += pending.requests.length;
      }
    } catch (error) {
      const failure = error instanceof TypeGenerationError
        ? error
        : new TypeGenerationError("crashed", `the type generator failed: ${error}`, {
          cause: error,
        });
      for (const pending of batch) pending.reject(failure);
    }
  }
}

function stoppedError(): TypeGenerationError {
  return new TypeGenerationError(
    "stopped",
    "the type generator was stopped: the daemon is stopping",
  );
}

/**
 * Runs one generator process on `requests`.
 *
 * @param options `command` to start, `timeoutMs` before it is killed (SIGKILL),
 *   `signal` that kills it too.
 * @returns One declaration (or `null`) per request, in order.
 * @throws {TypeGenerationError} when it could not start, failed, timed out,
 *   answered garbage or was stopped by `signal`.
 */
export async function runGenerator(
  requests: DeclarationRequest[],
  options: { command: GeneratorCommand; timeoutMs: number; signal?: AbortSignal },
): Promise<(string | null)[]> {
  if (options.signal?.aborted) throw stoppedError();
  let child: Deno.ChildProcess;
  try {
    child = new Deno.Command(options.command.command, {
      args: options.command.args,
      // Plain text on stderr, for the error's message.
      env: { NO_COLOR: "1" },
      stdin: "piped",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
  } catch (error) {
    throw new TypeGenerationError(
      "unavailable",
      `the type generator could not be started (${options.command.command}): ` +
        (error instanceof Error ? error.message : String(error)),
      { cause: error },
    );
  }
  let timedOut = false;
  const kill = () => {
    try {
      child.kill("SIGKILL");
    } catch { /* it has exited */ }
  };
  const timer = setTimeout(() => {
    timedOut = true;
    kill();
  }, options.timeoutMs);
  options.signal?.addEventListener("abort", kill);
  try {
    const input: DeclarationsInput = { tools: requests };
    const [stdout, stderr, status] = await Promise.all([
      new Response(child.stdout).text(),
      tailOf(child.stderr),
      child.status,
      feed(child.stdin, JSON.stringify(input)),
    ]);
    if (timedOut) {
      throw new TypeGenerationError(
        "timeout",
        `the type generator did not answer within ${options.timeoutMs} ms and was stopped`,
        { stderrTail: stderr },
      );
    }
    if (!status.success) {
      if (options.signal?.aborted) throw stoppedError();
      const how = status.signal
        ? `was killed by ${status.signal}`
        : `exited with code ${status.code}`;
      const line = telling(stderr);
      throw new TypeGenerationError(
        "crashed",
        `the type generator ${how}${line ? `: ${line}` : ""}`,
        { stderrTail: stderr },
      );
    }
    try {
      return readDeclarationsOutput(stdout, requests.length);
    } catch (error) {
      throw new TypeGenerationError(
        "garbage",
        `the type generator's answer is not declarations: ${(error as Error).message}`,
        { cause: error, stderrTail: stderr },
      );
    }
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener("abort", kill);
  }
}

/** Writes `text` to the child's stdin and closes it; a child that stopped reading is no error here. */
async function feed(stdin: WritableStream<Uint8Array>, text: string): Promise<void> {
  const writer = stdin.getWriter();
  try {
    await writer.write(new TextEncoder().encode(text));
    await writer.close();
  } catch { /* it exited first: its status says why */ }
}

async function tailOf(stream: ReadableStream<Uint8Array>): Promise<string> {
  const tail = new TailBuffer(STDERR_CHARS);
  const decoder = new TextDecoder();
  for await (const chunk of stream) tail.append(decoder.decode(chunk, { stream: true }));
  return tail.toString().trim();
}

/** The line of a stderr tail that says what went wrong: the runtime's `error:` line, else the last. */
function telling(stderr: string): string {
  const lines = stderr.split("\n").map((l) => l.trim()).filter(Boolean);
  const line = lines.find((l) => /^error\b/i.test(l)) ?? lines.at(-1) ?? "";
  return line.length > 300 ? `${line.slice(0, 297)}...` : line;
}
