/**
 * The thin client (decisions 0067, 0068): what the launcher (cli/mcpx) runs
 * for a command line it may relay (cli/relay/relayed.ts). It sends the
 * command line to the front process (cli/relay/front.ts) and writes what
 * comes back; when no front answers, or the front refuses, it runs the
 * command as the launcher's other branch does (the bundle, in a child with
 * this process's streams) and, when none answered, then starts a front for
 * the next command.
 *
 * This module imports only the front's socket name, the folder check, the
 * wire (cli/relay/relay_wire.ts) and the runtime starter of a relayed run
 * (cli/relay/thin_spawn.ts), and runs with `--no-config`: a `deno.json` (the
 * project's, or mcpx's own) costs its start-up a tenth of the floor. An
 * interrupt (SIGINT) ends this process; its connection closes, and the front
 * aborts the command. While a run's runtime runs, the signals this process
 * is sent go to the script instead, as a whole `mcpx run` passes them on.
 *
 * @module
 */

import { frontSocket } from "./front_socket.ts";
import { relayable, startsRuntime } from "./relayed.ts";
import { VERSION } from "../../core/version.ts";
import {
  FRAME,
  FrameReader,
  FrameWriter,
  MAX_REQUEST_BYTES,
  type RelayedAnswer,
  type RelayedCommand,
  requestLine,
  socketFolderIsOurs,
  writeAll,
} from "./relay_wire.ts";
import { quietWriter, spawnForFront } from "./thin_spawn.ts";
import { FORWARDED_SIGNALS } from "../../runner/forward_signals.ts";

export { relayable } from "./relayed.ts";

/** Most bytes of a legacy answer the client reads (a front from before frames). */
const MAX_LEGACY_BYTES = 1024 * 1024;

/**
 * What {@link relay} got: the command's exit code (its output already
 * written), or that nothing ran in the front, why, and whether a (current)
 * front should be started for the next command.
 */
export type RelayOutcome = { code: number } | { ranNothing: string; startFront: boolean };

/** Where a relayed command's output goes: this process's stdout and stderr by default. */
export interface RelayOutput {
  out(bytes: Uint8Array): Promise<void>;
  err(bytes: Uint8Array): Promise<void>;
}

/**
 * Runs `argv` in the front, writing its output as it comes, in the order the
 * command wrote it (so `2>&1` reads as a whole process's output); a `run` or
 * `exec` has its runtime started here (cli/relay/thin_spawn.ts).
 *
 * @returns The command's exit code; or `ranNothing`: `no front` when none
 *   answers or its folder is not this user's alone (nothing is sent), else
 *   the front's refusal (another version or rebuilt code, which goes away:
 *   start another; or a command line it may not run).
 * @throws {Error} When the request was sent and the answer lost: the command
 *   may have run, and is not run again.
 */
export async function relay(
  argv: string[],
  env: Record<string, string>,
  cwd: string,
  callerPid: number = Deno.ppid,
  output: RelayOutput = { out: quietWriter(Deno.stdout), err: quietWriter(Deno.stderr) },
): Promise<RelayOutcome> {
  const request: RelayedCommand = {
    version: VERSION,
    argv,
    cwd,
    env,
    callerPid,
    clientPid: Deno.pid,
  };
  const line = new TextEncoder().encode(requestLine(request));
  // The front reads no more than this; a larger environment runs here, as it would have.
  if (line.length > MAX_REQUEST_BYTES) {
    return { ranNothing: `the request is over ${MAX_REQUEST_BYTES} bytes`, startFront: false };
  }
  const socket = frontSocket(env);
  if (!socketFolderIsOurs(socket)) return { ranNothing: "no front", startFront: false };
  let conn: Deno.Conn;
  try {
    conn = await Deno.connect({ transport: "unix", path: socket });
  } catch {
    return { ranNothing: "no front", startFront: true };
  }
  const lost = () =>
    new Error(
      `the mcpx front process on ${socket} lost the answer to \`mcpx ${argv.join(" ")}\`; ` +
        `it may have run, and was not run again`,
    );
  try {
    try {
      await writeAll(conn, line);
    } catch {
      // The front runs a command only once it has the whole line: this one ran nothing.
      return { ranNothing: "the front closed before it had the request", startFront: true };
    }
    // Deno loads its process API when first touched (about 2 ms): for a run, whose runtime starts
    // here once the front has prepared it, that happens while the front works, not after.
    if (startsRuntime(argv)) void Deno.Command;
    const reader = new FrameReader(conn);
    const writer = new FrameWriter(conn);
    // A front from before frames answers one JSON text: only its refusal can reach us (its code
    // is older than ours, so it refuses to run anything).
    if (await reader.peek().catch(() => undefined) === LEGACY) {
      const legacy = JSON.parse(await reader.rest(MAX_LEGACY_BYTES) ?? "{}");
      if (typeof legacy.refused === "string") {
        return { ranNothing: legacy.refused, startFront: true };
      }
      throw lost();
    }
    const spawned: Promise<void>[] = [];
    while (true) {
      const frame = await reader.next().catch(() => null);
      if (frame === null) throw lost();
      if (frame.kind === FRAME.out) await output.out(frame.payload);
      else if (frame.kind === FRAME.err) await output.err(frame.payload);
      else if (frame.kind === FRAME.spawn) {
        const request = JSON.parse(new TextDecoder().decode(frame.payload));
        spawned.push(spawnForFront(request, writer));
      } else if (frame.kind === FRAME.answer) {
        await Promise.allSettled(spawned);
        const answer: RelayedAnswer = JSON.parse(new TextDecoder().decode(frame.payload));
        return "refused" in answer
          ? { ranNothing: answer.refused, startFront: !answer.local }
          : { code: answer.code };
      } else throw lost();
    }
  } finally {
    conn.close();
  }
}

/** A `{`: how a front from before frames began its answer. */
const LEGACY = 0x7b;

/** The checkout this module is in, ending in `/`. */
const ROOT = new URL("../../", import.meta.url).pathname;

/** Starts a front for the next command, detached, its output discarded. */
function startFront(env: Record<string, string>): void {
  try {
    new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", "--config", `${ROOT}deno.json`, `${ROOT}cli/relay/front.ts`],
      env,
      clearEnv: true,
      cwd: "/",
      stdin: "null",
      stdout: "null",
      stderr: "null",
      detached: true,
    }).spawn().unref();
  } catch { /* the command still runs; the next one tries again */ }
}

/** Runs `argv` as `mcpx` does (the bundle, this process's streams), answering its exit code. */
async function runAsMcpx(argv: string[]): Promise<number> {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--config", `${ROOT}deno.json`, `${ROOT}cli/mcpx.bundle.js`, ...argv],
    stdin: "inherit",
    stdout: "inherit",
    stderr: "inherit",
  }).spawn();
  // A signal sent to this process alone (`kill -INT <pid>`) reaches the child too, which ends
  // the command as a whole `mcpx` would; its exit code is ours.
  for (const signal of FORWARDED_SIGNALS) {
    Deno.addSignalListener(signal, () => {
      try {
        child.kill(signal);
      } catch { /* it has ended */ }
    });
  }
  return (await child.status).code;
}

/** The working directory, or undefined when it is gone (the whole process says why). */
function cwdOrNothing(): string | undefined {
  try {
    return Deno.cwd();
  } catch {
    return undefined;
  }
}

if (import.meta.main) {
  const argv = Deno.args;
  const env = Deno.env.toObject();
  const terminal = Deno.stdin.isTerminal() || Deno.stdout.isTerminal() ||
    Deno.stderr.isTerminal();
  const cwd = cwdOrNothing();
  let front = false;
  if (cwd !== undefined && relayable(argv, terminal, env)) {
    let outcome: RelayOutcome;
    try {
      outcome = await relay(argv, env, cwd);
    } catch (error) {
      await quietWriter(Deno.stderr)(
        new TextEncoder().encode(`error: ${(error as Error).message}\n`),
      );
      Deno.exit(1);
    }
    if (!("ranNothing" in outcome)) Deno.exit(outcome.code);
    // None answered, or it was stale and now goes: a current one serves the next command.
    front = outcome.startFront;
  }
  const code = await runAsMcpx(argv);
  // Started once the command is done, so that its start-up does not compete with the command's
  // (a cold command starts the daemon and its servers too).
  if (front) startFront(env);
  Deno.exit(code);
}
