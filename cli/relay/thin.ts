/**
 * The thin client (decision 0067; an opt-in entry while issue 26 builds it
 * out): `deno run -A --config deno.json cli/relay/thin.ts <args>` runs a
 * warm command line in the front process (cli/relay/front.ts) when one
 * answers, and in this process otherwise, starting a front for the next
 * command.
 *
 * Relayed: `ls`, `search`, `types`, `call` and `catalog`, when none of
 * stdin, stdout and stderr is a terminal (an agent's shell; a terminal gets
 * progress lines and questions asked inline, which need this process's
 * terminal) and no argument is `-` (stdin). Everything else runs here as
 * `mcpx` runs it. This module imports only what finding the front and one
 * round trip need; the command line's code loads only when it runs here.
 *
 * @module
 */

import { encodeRequest, ExchangeFailure, exchangeRequest } from "../../wire/wire.ts";
import { frontSocket } from "./front_socket.ts";
import { VERSION } from "../../core/version.ts";

/** The commands relayed (the warm ones an agent runs many times). */
const RELAYED = new Set(["ls", "search", "types", "call", "catalog"]);

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
 * Runs `argv` in the front, or answers undefined when no front answered
 * (nothing was sent: the command has not run).
 *
 * @throws {ExchangeFailure} When the request was written and the answer lost:
 *   the command may have run, and is not run again.
 */
export async function relay(
  argv: string[],
  env: Record<string, string>,
  cwd: string,
): Promise<{ stdout: string; stderr: string; code: number } | undefined> {
  const socket = frontSocket(env);
  const body = JSON.stringify({ argv, cwd, env, callerPid: Deno.ppid });
  let answer: { status: number; body: string };
  try {
    answer = await exchangeRequest(
      socket,
      encodeRequest("command", body, VERSION, {
        endpoint: socket,
      }),
    );
  } catch (error) {
    if (error instanceof ExchangeFailure && !error.sent) return undefined;
    // A socket folder that is not private: never relay, run here.
    if (!(error instanceof ExchangeFailure)) return undefined;
    throw error;
  }
  if (answer.status !== 200) return undefined;
  return JSON.parse(answer.body);
}

/** Starts a front for the next command, detached, its output discarded. */
function startFront(env: Record<string, string>): void {
  try {
    const root = new URL("../../", import.meta.url).pathname;
    new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", "--config", `${root}deno.json`, `${root}cli/relay/front.ts`],
      env,
      clearEnv: true,
      cwd: "/",
      stdin: "null",
      stdout: "null",
      stderr: "null",
      detached: true,
    }).spawn().unref();
  } catch { /* the command still runs here; the next one tries again */ }
}

if (import.meta.main) {
  const argv = Deno.args;
  const env = Deno.env.toObject();
  const cwd = Deno.cwd();
  const terminal = Deno.stdin.isTerminal() || Deno.stdout.isTerminal() ||
    Deno.stderr.isTerminal();
  if (relayable(argv, terminal)) {
    const answer = await relay(argv, env, cwd);
    if (answer) {
      const encoder = new TextEncoder();
      await Deno.stdout.write(encoder.encode(answer.stdout));
      await Deno.stderr.write(encoder.encode(answer.stderr));
      Deno.exit(answer.code);
    }
    startFront(env);
  }
  // Computed, so that Deno's start-up does not read the command line's sources on a relay.
  const { main } = await import(new URL("../main.ts", import.meta.url).href);
  Deno.exit(await main(argv));
}
