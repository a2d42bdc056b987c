/**
 * A relayed run's runtime, started by the thin client (decision 0069): the
 * front prepares `mcpx run`/`exec` as a whole `mcpx` would (settings, the
 * client, the launcher, the permissions), then asks the client, over the
 * command's connection, to start the runtime as its own child. The runtime so
 * has the caller's stdin and stdout, is ended by the kernel when the caller's
 * process dies (runner/death_signal.ts), and costs no second start of mcpx's
 * code; its stderr (and, under `--json`, its stdout) comes back in frames and
 * goes through the same record splitting as a local run's.
 *
 * @module
 */

import type { ScriptProcess, ScriptSpawner, ScriptSpawnOptions } from "../../runner/host.ts";
import { FRAME, type FrameWriter, type SpawnRequest } from "./relay_wire.ts";

/** A stream fed from frames: `push` bytes, `end()` (an empty frame, or the connection closing). */
function framedStream(): {
  stream: ReadableStream<Uint8Array>;
  push(bytes: Uint8Array): void;
  end(): void;
} {
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  let ended = false;
  const stream = new ReadableStream<Uint8Array>({ start: (c) => void (controller = c) });
  return {
    stream,
    push: (bytes) => {
      if (!ended) controller.enqueue(bytes);
    },
    end: () => {
      if (ended) return;
      ended = true;
      controller.close();
    },
  };
}

/** How a runtime ended when its starter went away before saying: as a hung-up `mcpx` (129). */
const CALLER_GONE: Deno.CommandStatus = { success: false, code: 129, signal: "SIGHUP" };

/** The runtime the client started, as the front hears of it. */
interface Remote {
  spawned: PromiseWithResolvers<number>;
  status: PromiseWithResolvers<Deno.CommandStatus>;
  stdout: ReturnType<typeof framedStream>;
  stderr: ReturnType<typeof framedStream>;
}

/**
 * The {@link ScriptSpawner} of one relayed command: starts a runtime by
 * asking the client, and is fed the client's frames ({@link receive}) by the
 * connection's reader. One runtime at a time (a run starts a type check, then
 * its script).
 */
export class FrontSpawner implements ScriptSpawner {
  readonly pid: number;
  #writer: FrameWriter;
  #remote?: Remote;
  #listeners = new Set<(signal: Deno.Signal) => void>();
  #gone = false;

  /**
   * @param writer The command's connection, for the spawn request.
   * @param clientPid The thin client's pid, the runtime's parent.
   */
  constructor(writer: FrameWriter, clientPid: number) {
    this.#writer = writer;
    this.pid = clientPid;
  }

  /** @inheritdoc */
  async spawn(path: string, options: ScriptSpawnOptions): Promise<ScriptProcess> {
    if (this.#gone) throw new Error("the caller went away before the script started");
    if (this.#remote) throw new Error("a relayed run starts one runtime at a time");
    const remote: Remote = {
      spawned: Promise.withResolvers(),
      status: Promise.withResolvers(),
      stdout: framedStream(),
      stderr: framedStream(),
    };
    this.#remote = remote;
    remote.status.promise.finally(() => {
      if (this.#remote === remote) this.#remote = undefined;
    });
    const request: SpawnRequest = { path, ...options };
    await this.#writer.send(FRAME.spawn, JSON.stringify(request));
    const pid = await remote.spawned.promise;
    return {
      pid,
      status: remote.status.promise,
      stdout: remote.stdout.stream,
      stderr: remote.stderr.stream,
    };
  }

  /** @inheritdoc */
  onSignal(listener: (signal: Deno.Signal) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /**
   * Takes one of the client's frames.
   *
   * @throws {Error} For a frame that makes no sense here (the connection is then dropped).
   */
  receive(kind: number, payload: Uint8Array): void {
    const remote = this.#remote;
    if (kind === FRAME.signal) {
      const { signal } = JSON.parse(new TextDecoder().decode(payload));
      for (const listener of this.#listeners) listener(signal);
      return;
    }
    if (!remote) throw new Error(`frame ${kind} with no runtime started`);
    if (kind === FRAME.spawned) {
      const said = JSON.parse(new TextDecoder().decode(payload));
      if (Number.isInteger(said.pid)) remote.spawned.resolve(said.pid);
      else {
        remote.spawned.reject(new Error(String(said.error)));
        remote.status.resolve({ success: false, code: 1, signal: null });
      }
    } else if (kind === FRAME.out) {
      if (payload.length === 0) remote.stdout.end();
      else remote.stdout.push(payload);
    } else if (kind === FRAME.err) {
      if (payload.length === 0) remote.stderr.end();
      else remote.stderr.push(payload);
    } else if (kind === FRAME.exit) {
      const { code, signal } = JSON.parse(new TextDecoder().decode(payload));
      remote.stdout.end();
      remote.stderr.end();
      remote.status.resolve({ success: code === 0, code, signal: signal ?? null });
    } else throw new Error(`frame ${kind} is not the client's`);
  }

  /** The client went away: a runtime it started ends with it (its death signal). */
  gone(): void {
    this.#gone = true;
    const remote = this.#remote;
    if (!remote) return;
    remote.spawned.reject(new Error("the caller went away before the script started"));
    remote.spawned.promise.catch(() => {});
    remote.stdout.end();
    remote.stderr.end();
    remote.status.resolve(CALLER_GONE);
  }
}
