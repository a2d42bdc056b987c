/**
 * The front process (decision 0067): a warm process that runs command lines
 * relayed by the thin client (cli/relay/thin.ts), so a warm command costs
 * starting Deno plus one round trip, not loading mcpx's code into a fresh
 * isolate each time.
 *
 * `POST /v1/command` on its unix socket (cli/relay/front_socket.ts; the
 * folder is private, the socket 0600, it never listens on TCP) takes
 * `{ argv, cwd, env, callerPid }` from a client of its own version (else 409,
 * and it exits: an upgraded mcpx starts a new one) and answers
 * `{ stdout, stderr, code }`:
 * the command line runs through the same entry as `mcpx` itself
 * (cli/main.ts `main`) with the caller's environment and directory, so it
 * finds the caller's configuration and talks to that configuration's daemon.
 * Commands run one at a time: what the command line keeps per process (the
 * queue of notices it prints at the end) must not mix two callers' output.
 * It exits after {@link IDLE_MS} without a command.
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
import { frontSocket } from "./front_socket.ts";
import { VERSION } from "../../core/version.ts";
import { VERSION_HEADER } from "../../wire/wire.ts";

/** How long the front waits for a command before it exits, in ms. */
export const IDLE_MS = 10 * 60_000;

/** Most bytes of one relayed request: argv, the directory and the whole environment. */
export const MAX_REQUEST_BYTES = 512 * 1024;

/** What the thin client sends. */
export interface RelayedCommand {
  argv: string[];
  cwd: string;
  env: Record<string, string>;
  /** The thin client's parent: the process the caller's `pid`-scoped servers belong to. */
  callerPid: number;
}

/** What the front answers. */
export interface RelayedAnswer {
  stdout: string;
  stderr: string;
  code: number;
}

function isCommand(value: unknown): value is RelayedCommand {
  const v = value as RelayedCommand | null;
  return typeof v === "object" && v !== null && Array.isArray(v.argv) &&
    v.argv.every((a) => typeof a === "string") && typeof v.cwd === "string" &&
    typeof v.env === "object" && v.env !== null &&
    Object.values(v.env).every((x) => typeof x === "string") &&
    Number.isInteger(v.callerPid);
}

/**
 * The front's request handler: one command line at a time, through
 * `run` (cli/main.ts `main` by default).
 */
export function frontHandler(
  run: typeof main = main,
  onCommand: () => void = () => {},
  onOtherVersion: () => void = () => {},
): (request: Request) => Promise<Response> {
  let queue: Promise<unknown> = Promise.resolve();
  return async (request) => {
    if (request.method !== "POST" || new URL(request.url).pathname !== "/v1/command") {
      return Response.json({ error: "not found" }, { status: 404 });
    }
    // A client of another mcpx version runs its command itself; this front, now stale, goes.
    if (request.headers.get(VERSION_HEADER) !== VERSION) {
      onOtherVersion();
      return Response.json({ error: `this front is mcpx ${VERSION}` }, { status: 409 });
    }
    const text = await request.text();
    if (text.length > MAX_REQUEST_BYTES) {
      return Response.json({ error: "the command line and its environment are too large" }, {
        status: 413,
      });
    }
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      body = undefined;
    }
    if (!isCommand(body)) {
      return Response.json({ error: "the body is not { argv, cwd, env, callerPid }" }, {
        status: 400,
      });
    }
    onCommand();
    const { argv, cwd, env, callerPid } = body;
    const turn = queue.then(async (): Promise<RelayedAnswer> => {
      const io = memoryIo("");
      const code = await run(argv, io, env, cwd, { callerPid });
      return { stdout: io.stdout, stderr: io.stderr, code };
    });
    queue = turn.catch(() => {});
    return Response.json(await turn);
  };
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
  let idle: ReturnType<typeof setTimeout> | undefined;
  const rearm = () => {
    clearTimeout(idle);
    idle = setTimeout(() => server.shutdown(), IDLE_MS);
  };
  const server = Deno.serve(
    { path: socket, transport: "unix", onListen() {} },
    frontHandler(main, rearm, () => queueMicrotask(() => server.shutdown())),
  );
  await Deno.chmod(socket, 0o600);
  rearm();
  await server.finished;
  try {
    await Deno.remove(socket);
  } catch { /* another front took it */ }
  Deno.exit(0);
}
