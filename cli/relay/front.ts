/**
 * The front process (decision 0067): a warm process that runs command lines
 * relayed by the thin client (cli/relay/thin.ts), so a warm command costs
 * starting Deno plus one round trip, not loading mcpx's code into a fresh
 * isolate each time.
 *
 * It listens on a unix socket (cli/relay/front_socket.ts; the folder is
 * private, the socket 0600, never TCP) and speaks cli/relay/relay_wire.ts:
 * a client of its own version sends `{ argv, cwd, env, callerPid }` and gets
 * `{ stdout, stderr, code }`; one of another version gets `{ refused }`, and
 * this front, now stale, exits so the next client starts a current one. The
 * command line runs through the same entry as `mcpx` (cli/main.ts `main`)
 * with the caller's environment and directory, so it finds the caller's
 * configuration and talks to that configuration's daemon. Commands run one
 * at a time: what the command line keeps per process (the queue of notices
 * it prints at the end) must not mix two callers' output. It exits after
 * {@link IDLE_MS} without a command.
 *
 * Run as `deno run -A --config deno.json cli/relay/front.ts`; the thin
 * client starts it when it finds none.
 *
 * @module
 */

import { dirname } from "node:path";
import { main } from "../main.ts";
import { memoryIo } from "../../core/io.ts";
import { ensurePrivateDir } from "../../core/private_fs.ts";
import { SOCKET_DIR_WHAT } from "../../wire/locate.ts";
import { VERSION } from "../../core/version.ts";
import { frontSocket } from "./front_socket.ts";
import {
  isRelayedCommand,
  MAX_REQUEST_BYTES,
  readAll,
  type RelayedAnswer,
  writeAll,
} from "./relay_wire.ts";

/** How long the front waits for a command before it exits, in ms. */
export const IDLE_MS = 10 * 60_000;

/** What the front does with a request, apart from its connection. */
export interface FrontHooks {
  /** Runs a command line (default cli/main.ts `main`). */
  run?: typeof main;
  /** Told of each command run (the idle timer starts again). */
  onCommand?: () => void;
  /** Told when a client of another version came: this front should go. */
  onOtherVersion?: () => void;
}

/**
 * The front's answers, one command line at a time.
 *
 * @returns A function from a request's text (undefined: over the size limit)
 *   to its answer.
 */
export function frontAnswerer(hooks: FrontHooks = {}): (text?: string) => Promise<RelayedAnswer> {
  const run = hooks.run ?? main;
  let queue: Promise<unknown> = Promise.resolve();
  return async (text) => {
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
    if (body.version !== VERSION) {
      hooks.onOtherVersion?.();
      return { refused: `this front is mcpx ${VERSION}, the client ${body.version}` };
    }
    hooks.onCommand?.();
    const { argv, cwd, env, callerPid } = body;
    const turn = queue.then(async () => {
      const io = memoryIo("");
      const code = await run(argv, io, env, cwd, { callerPid });
      return { stdout: io.stdout, stderr: io.stderr, code };
    });
    queue = turn.catch(() => {});
    return await turn;
  };
}

/** Serves `listener` until it closes: each connection one request, one answer. */
export async function serveFront(
  listener: Deno.Listener,
  answer: (text?: string) => Promise<RelayedAnswer>,
): Promise<void> {
  for await (const conn of listener) {
    (async () => {
      try {
        const text = await readAll(conn, MAX_REQUEST_BYTES);
        await writeAll(conn, JSON.stringify(await answer(text)));
      } catch {
        /* the client went away: nothing to tell it */
      } finally {
        try {
          conn.close();
        } catch { /* closed */ }
      }
    })();
  }
}

if (import.meta.main) {
  const socket = frontSocket(Deno.env.toObject());
  ensurePrivateDir(dirname(socket), SOCKET_DIR_WHAT);
  // Another front already answers (two thin clients started one each): leave it the socket.
  try {
    (await Deno.connect({ transport: "unix", path: socket })).close();
    Deno.exit(0);
  } catch { /* none answers */ }
  // A socket file no front answers on is left from one that died: listen in its place.
  try {
    await Deno.remove(socket);
  } catch { /* none */ }
  const listener = Deno.listen({ transport: "unix", path: socket });
  await Deno.chmod(socket, 0o600);
  const ours = Deno.statSync(socket).ino;
  let idle: ReturnType<typeof setTimeout> | undefined;
  const stop = () => listener.close();
  const rearm = () => {
    clearTimeout(idle);
    idle = setTimeout(stop, IDLE_MS);
  };
  rearm();
  await serveFront(
    listener,
    frontAnswerer({ onCommand: rearm, onOtherVersion: () => queueMicrotask(stop) }),
  ).catch(() => {});
  // Removed only while it is still this front's: a newer one may listen there already.
  try {
    if (Deno.statSync(socket).ino === ours) await Deno.remove(socket);
  } catch { /* gone */ }
  Deno.exit(0);
}
