/**
 * The front process (decisions 0067, 0068): a warm process that runs the
 * command lines the thin client (cli/relay/thin.ts) relays, so a warm command
 * costs starting Deno plus one round trip, not loading mcpx's code into a
 * fresh isolate each time.
 *
 * It listens on a unix socket (cli/relay/front_socket.ts; the folder is
 * private, the socket 0600, never TCP) and speaks cli/relay/relay_wire.ts: a
 * client of its own version sends `{ argv, cwd, env, callerPid }` and gets
 * `{ stdout, stderr, code }`; anything it may not run gets `{ refused }` and
 * the client runs it itself. The command line runs through the same code as
 * `mcpx` (the bundle's warm commands, cli/warm.ts) with the caller's
 * environment, directory and pid, so it finds the caller's configuration and talks to that
 * configuration's daemon. Commands run side by side; a caller that goes away
 * (its connection closes) aborts its command, as an interrupted `mcpx` would.
 *
 * The front goes away on its own: after {@link IDLE_MS} without a command,
 * when its socket is no longer its own (removed with its folder, or taken by
 * a newer front), and when mcpx changes under it (another version asks, or
 * the installed code is rebuilt).
 *
 * Run as `deno run -A --config deno.json cli/relay/front.ts`; the thin
 * client starts it when it finds none.
 *
 * @module
 */

import { dirname } from "node:path";
import type { Io } from "../../core/io.ts";
import type { ContextOptions } from "../context_settings.ts";
import { ensurePrivateDir } from "../../core/private_fs.ts";
import { SOCKET_DIR_WHAT } from "../../wire/locate.ts";
import { VERSION } from "../../core/version.ts";
import { frontSocket } from "./front_socket.ts";
import { needsCaller, RELAYED_COMMANDS, SPAWNING_COMMANDS } from "./relayed.ts";
import {
  FRAME,
  FrameReader,
  FrameWriter,
  isRelayedCommand,
  MAX_REQUEST_BYTES,
  readRequestLine,
  type RelayedAnswer,
} from "./relay_wire.ts";
import { FrontSpawner } from "./front_spawn.ts";
import type { ScriptSpawner } from "../../runner/host.ts";
import { terminalText } from "../../core/terminal_text.ts";

/** How long the front waits for a command before it exits, in ms. */
export const IDLE_MS = 10 * 60_000;

/** How often the front checks that its socket and its code are still its own, in ms. */
const CHECK_MS = 5_000;

/** Runs one command line (cli/main.ts `main`'s shape), answering its exit code. */
export type RunCommandLine = (
  argv: string[],
  io: Io,
  env: Record<string, string>,
  cwd: string,
  caller: Pick<ContextOptions, "callerPid" | "signal" | "shared" | "spawner">,
) => Promise<number>;

/** What the front does with a request, apart from its connection. */
export interface FrontHooks {
  /** Runs a command line: the bundle's warm commands (cli/warm.ts), in the front. */
  run: RunCommandLine;
  /** The op a command line names (cli/command_line.ts `commandNameOf`), to judge it. */
  commandNameOf: (argv: string[]) => string | undefined;
  /** Told of each command run (the idle timer starts again). */
  onCommand?: () => void;
  /** Told when a client of another version came: this front should go. */
  onOtherVersion?: () => void;
  /** Told when a client asked this front to end (`mcpx stop --all`). */
  onStop?: () => void;
  /**
   * Why this front's code is no longer what `mcpx` runs (rebuilt or
   * reinstalled since it started), or undefined: a stale front refuses, and
   * is told to go through {@link onOtherVersion}.
   */
  stale?: () => string | undefined;
}

/**
 * Why the front may not run `argv`, or undefined when it may: the parser's
 * command must be one of the relayed ones (cli/relay/relayed.ts), no
 * argument may be `-` (stdin is the caller's), and no path only the caller
 * can open (`@/dev/fd/9`, `MCPX_CONFIG=/proc/self/…`). A command line the
 * parser refuses runs here: its usage error is the same in any process.
 * `run` and `exec` need `spawns`: a client that starts their runtime.
 */
export function notForTheFront(
  argv: string[],
  commandNameOf: FrontHooks["commandNameOf"],
  env: Record<string, string> = {},
  spawns = true,
): string | undefined {
  const reason = needsCaller(argv, env);
  if (reason) return reason;
  let name: string | undefined;
  try {
    name = commandNameOf(argv);
  } catch {
    return undefined;
  }
  if (name === undefined || !RELAYED_COMMANDS.includes(name)) {
    return `\`${name ?? "mcpx"}\` runs in the caller's process`;
  }
  if (!spawns && SPAWNING_COMMANDS.includes(name)) {
    return `\`${name}\` needs a client that starts its runtime`;
  }
  return undefined;
}

/**
 * An Io that sends what a command writes to its caller as it writes it
 * ({@link FRAME}.out / err), in the order written: writes made in one turn of
 * the event loop to the same stream go as one frame. Text is made safe for a
 * terminal as the process's own Io does (core/io.ts); stdin is the caller's
 * and cannot be read here (`-` never reaches the front).
 *
 * @param writer The command's connection.
 * @returns The Io, and `flushed()`: resolves once everything written so far is sent.
 */
export function streamingIo(writer: FrameWriter): Io & { flushed(): Promise<void> } {
  const encoder = new TextEncoder();
  let kind = 0;
  let parts: Uint8Array[] = [];
  let scheduled = false;
  const flush = () => {
    scheduled = false;
    if (parts.length === 0) return;
    const size = parts.reduce((n, p) => n + p.length, 0);
    const bytes = new Uint8Array(size);
    let at = 0;
    for (const part of parts) {
      bytes.set(part, at);
      at += part.length;
    }
    writer.send(kind, bytes).catch(() => {/* the caller went away: its signal aborts */});
    parts = [];
  };
  const write = (to: number, bytes: Uint8Array) => {
    if (bytes.length === 0) return;
    if (to !== kind) flush();
    kind = to;
    parts.push(bytes);
    if (!scheduled) {
      scheduled = true;
      queueMicrotask(flush);
    }
  };
  return {
    out: (text) => write(FRAME.out, encoder.encode(terminalText(text))),
    err: (text) => write(FRAME.err, encoder.encode(terminalText(text))),
    errRaw: (text) => write(FRAME.err, encoder.encode(text)),
    outBytes: (bytes) => {
      write(FRAME.out, bytes.slice());
      return Promise.resolve();
    },
    readStdin: () => Promise.reject(new Error("stdin is the caller's; the front cannot read it")),
    // A runtime the caller starts passes its stdout through itself (cli/relay/thin_spawn.ts).
    passChildStdout: () => false,
    errIsTerminal: () => false,
    flushed: () => {
      flush();
      return writer.flushed();
    },
  };
}

/** What a request runs with, besides its text: where its output goes and who starts a runtime. */
export interface FrontLink {
  /** Where the command writes. */
  io: Io;
  /** Aborted when the caller goes away. */
  signal?: AbortSignal;
  /** Starts a run's runtime in the caller's process (cli/relay/front_spawn.ts). */
  spawner?: (clientPid: number) => ScriptSpawner;
}

/**
 * The front's answers.
 *
 * @returns A function from a request's text (undefined: over the size limit)
 *   and its link (its output, the signal that aborts it when its caller goes
 *   away) to its answer; the command writes its output through the link's io.
 */
export function frontAnswerer(
  hooks: FrontHooks,
): (text: string | undefined, link: FrontLink) => Promise<RelayedAnswer> {
  const { run } = hooks;
  return async (text, link) => {
    if (text === undefined) {
      return {
        refused: `the command line and its environment are over ${MAX_REQUEST_BYTES} bytes`,
      };
    }
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      body = undefined;
    }
    if (!isRelayedCommand(body)) return { refused: "not { version, argv, cwd, env, callerPid }" };
    const stale = body.version !== VERSION
      ? `this front is mcpx ${VERSION}, the client ${body.version}`
      : hooks.stale?.();
    if (stale) {
      hooks.onOtherVersion?.();
      return { refused: stale };
    }
    if (body.stop === true) {
      hooks.onStop?.();
      return { code: 0 };
    }
    const { argv, cwd, env, callerPid, clientPid } = body;
    const local = notForTheFront(argv, hooks.commandNameOf, env, clientPid !== undefined);
    if (local) return { refused: local, local: true };
    hooks.onCommand?.();
    try {
      const code = await run(argv, link.io, env, cwd, {
        callerPid,
        shared: true,
        ...(link.signal ? { signal: link.signal } : {}),
        ...(link.spawner && clientPid !== undefined ? { spawner: link.spawner(clientPid) } : {}),
      });
      return { code };
    } catch (error) {
      // It needs a process of its own (core/errors.ts RunInCallerError; the bundle's own class,
      // so known by its code), and nothing ran yet.
      if ((error as { code?: unknown })?.code === "run-in-caller") {
        return { refused: (error as Error).message, local: true };
      }
      throw error;
    }
  };
}

/**
 * Serves `listener` until it closes, then waits for the commands still
 * running: each connection one request line, then frames both ways
 * (cli/relay/relay_wire.ts). A connection that closes before its answer
 * aborts the command.
 */
export async function serveFront(
  listener: Deno.Listener,
  answer: (text: string | undefined, link: FrontLink) => Promise<RelayedAnswer>,
): Promise<void> {
  const running = new Set<Promise<void>>();
  for await (const conn of listener) {
    const one = (async () => {
      const gone = new AbortController();
      const writer = new FrameWriter(conn);
      let spawner: FrontSpawner | undefined;
      try {
        const { line, rest } = await readRequestLine(conn, MAX_REQUEST_BYTES);
        // The client's frames (a runtime's streams) until it closes, which aborts the command.
        (async () => {
          const reader = new FrameReader(conn, rest);
          try {
            for (let frame; (frame = await reader.next());) {
              if (!spawner) throw new Error("the client spoke out of turn");
              spawner.receive(frame.kind, frame.payload);
            }
          } catch { /* closed under us, or garbage: the same */ }
          spawner?.gone();
          gone.abort();
        })();
        const io = streamingIo(writer);
        const reply = await answer(line, {
          io,
          signal: gone.signal,
          spawner: (clientPid) => spawner = new FrontSpawner(writer, clientPid),
        });
        await io.flushed();
        if (!gone.signal.aborted) await writer.send(FRAME.answer, JSON.stringify(reply));
      } catch {
        /* the client went away: nothing to tell it */
      } finally {
        try {
          conn.close();
        } catch { /* closed */ }
      }
    })();
    running.add(one);
    one.finally(() => running.delete(one));
  }
  // Closed: the commands still running finish, since their callers wait for them.
  await Promise.allSettled(running);
}

/**
 * Listens on `socket` unless a front already answers there, in which case it
 * answers undefined. Fronts started at once (several cold commands) take
 * turns under a lock beside the socket, so only the first listens; without
 * it, two could each find none answering and both listen, and the one whose
 * file was replaced would remove the other's on closing (closing a unix
 * listener unlinks its path). A socket file no front answers on is left from
 * one that died: it is replaced.
 *
 * @param socket The front's socket (cli/relay/front_socket.ts), in a private folder.
 * @returns The listener (the socket 0600), or undefined.
 */
export async function listenOnce(socket: string): Promise<Deno.Listener | undefined> {
  const lock = await Deno.open(`${socket}.lock`, { create: true, write: true, mode: 0o600 });
  try {
    await lock.lock(true);
    try {
      (await Deno.connect({ transport: "unix", path: socket })).close();
      return undefined;
    } catch { /* none answers */ }
    try {
      await Deno.remove(socket);
    } catch { /* none */ }
    const listener = Deno.listen({ transport: "unix", path: socket });
    await Deno.chmod(socket, 0o600);
    return listener;
  } finally {
    lock.close();
  }
}

/** What identifies the code this front runs: the installed bundle's size and time, if any. */
function codeStamp(): string {
  try {
    const info = Deno.statSync(new URL("../mcpx.bundle.js", import.meta.url));
    return `${info.size}:${info.mtime?.getTime()}`;
  } catch {
    return "none";
  }
}

/** The socket's inode, or undefined when it is gone. */
function inodeOf(path: string): number | null | undefined {
  try {
    return Deno.statSync(path).ino;
  } catch {
    return undefined;
  }
}

if (import.meta.main) {
  const socket = frontSocket(Deno.env.toObject());
  ensurePrivateDir(dirname(socket), SOCKET_DIR_WHAT);
  const listener = await listenOnce(socket);
  if (!listener) Deno.exit(0); // another front answers
  const ours = inodeOf(socket);
  const stamp = codeStamp();
  // The code `mcpx` runs, loaded once: the bundle of the warm commands (decision 0027).
  const bundle = await import(new URL("../mcpx.bundle.js", import.meta.url).href);
  const commandNameOf = bundle.commandNameOf as FrontHooks["commandNameOf"];
  const runWarm = bundle.runCommandLine as (
    argv: string[],
    load: (name: string) => Promise<unknown>,
    ...rest: Parameters<RunCommandLine> extends [unknown, ...infer R] ? R : never
  ) => Promise<number>;
  const warm = bundle.WARM_COMMANDS as Record<string, () => Promise<unknown>>;
  // Each command reads the schema cache; the front keeps the files it read while they are
  // unchanged (engine/kept_reads.ts), so `types` and `catalog` do not parse them again.
  (bundle.keepReads as () => void)();
  let running = 0;
  let idle: ReturnType<typeof setTimeout> | undefined;
  const stop = () => {
    clearInterval(check);
    clearTimeout(idle);
    listener.close();
  };
  const rearm = () => {
    clearTimeout(idle);
    idle = setTimeout(stop, IDLE_MS);
  };
  const check = setInterval(() => {
    if (codeStamp() !== stamp) stop();
    // Its folder removed (a test's world cleaned up) or its name taken: it must not close the
    // listener, which would remove whatever file now has that name. It ends once idle.
    else if (inodeOf(socket) !== ours && running === 0) Deno.exit(0);
  }, CHECK_MS);
  rearm();
  await serveFront(
    listener,
    frontAnswerer({
      run: async (argv, ...rest) => {
        running++;
        try {
          return await runWarm(argv, (name) => warm[name](), ...rest);
        } finally {
          running--;
        }
      },
      commandNameOf,
      onCommand: rearm,
      onOtherVersion: () => queueMicrotask(stop),
      onStop: () => queueMicrotask(stop),
      stale: () =>
        codeStamp() === stamp ? undefined : "this front's mcpx was rebuilt since it began",
    }),
  ).catch(() => {});
  Deno.exit(0);
}
