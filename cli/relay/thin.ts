/**
 * The thin client (decision 0067; an opt-in entry while issue 26 builds it
 * out): `deno run -A --no-config cli/relay/thin.ts <args>` runs a warm
 * command line in the front process (cli/relay/front.ts) when one answers,
 * and as `mcpx` otherwise, starting a front for the next command.
 *
 * Relayed: `ls`, `search`, `types`, `call` and `catalog`, when none of
 * stdin, stdout and stderr is a terminal (an agent's shell; a terminal gets
 * progress lines and questions asked inline, which need this process's
 * terminal) and no argument is `-` (stdin). Everything else runs as `mcpx`:
 * the bundle, in a child with this process's terminal. This module imports
 * only the front's socket name, the folder check and the wire
 * (cli/relay/relay_wire.ts), and needs no `deno.json`: `--no-config` keeps a
 * project's own `deno.json` out of the start-up.
 *
 * @module
 */

import { frontSocket } from "./front_socket.ts";
import { VERSION } from "../../core/version.ts";
import {
  readAll,
  type RelayedAnswer,
  type RelayedCommand,
  socketFolderIsOurs,
  writeAll,
} from "./relay_wire.ts";

/** The commands relayed (the warm ones an agent runs many times). */
const RELAYED = new Set(["ls", "search", "types", "call", "catalog"]);

/** Most bytes of an answer the client reads (a tool's large result included). */
const MAX_ANSWER_BYTES = 256 * 1024 * 1024;

/**
 * Whether `argv` may run in the front: its command is one of {@link RELAYED}
 * (the first word that is not a flag), nothing reads stdin, and no stream is
 * a terminal.
 */
export function relayable(argv: string[], terminal: boolean): boolean {
  if (terminal || argv.includes("-")) return false;
  const command = argv.find((word) => !word.startsWith("-"));
  return command !== undefined && RELAYED.has(command);
}

/**
 * Runs `argv` in the front, or answers undefined when it ran nothing there:
 * no front answers (nothing was sent), its folder is not this user's alone
 * (nothing is sent), or it refused the request (another version).
 *
 * @throws {Error} When the request was sent and the answer lost: the command
 *   may have run, and is not run again.
 */
export async function relay(
  argv: string[],
  env: Record<string, string>,
  cwd: string,
): Promise<{ stdout: string; stderr: string; code: number } | undefined> {
  const socket = frontSocket(env);
  if (!socketFolderIsOurs(socket)) return undefined;
  let conn: Deno.Conn;
  try {
    conn = await Deno.connect({ transport: "unix", path: socket });
  } catch {
    return undefined;
  }
  const request: RelayedCommand = { version: VERSION, argv, cwd, env, callerPid: Deno.ppid };
  let text: string | undefined;
  try {
    await writeAll(conn, JSON.stringify(request));
    await (conn as Deno.UnixConn).closeWrite();
    text = await readAll(conn, MAX_ANSWER_BYTES);
  } finally {
    conn.close();
  }
  let answer: RelayedAnswer;
  try {
    answer = JSON.parse(text ?? "");
  } catch {
    throw new Error(
      `the mcpx front process on ${socket} lost the answer to \`mcpx ${argv.join(" ")}\`; ` +
        `it may have run, and was not run again`,
    );
  }
  return "refused" in answer ? undefined : answer;
}

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

/** Runs `argv` as `mcpx` does (the bundle, this process's terminal), answering its exit code. */
async function runAsMcpx(argv: string[]): Promise<number> {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--config", `${ROOT}deno.json`, `${ROOT}cli/mcpx.bundle.js`, ...argv],
    stdin: "inherit",
    stdout: "inherit",
    stderr: "inherit",
  }).spawn();
  // The child has the terminal: an interrupt reaches it, and its exit code is ours.
  Deno.addSignalListener("SIGINT", () => {});
  return (await child.status).code;
}

if (import.meta.main) {
  const argv = Deno.args;
  const env = Deno.env.toObject();
  const terminal = Deno.stdin.isTerminal() || Deno.stdout.isTerminal() ||
    Deno.stderr.isTerminal();
  if (relayable(argv, terminal)) {
    const answer = await relay(argv, env, Deno.cwd());
    if (answer) {
      const encoder = new TextEncoder();
      await Deno.stdout.write(encoder.encode(answer.stdout));
      await Deno.stderr.write(encoder.encode(answer.stderr));
      Deno.exit(answer.code);
    }
    startFront(env);
  }
  Deno.exit(await runAsMcpx(argv));
}
