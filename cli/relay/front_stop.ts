/**
 * Asks the front process of a state folder (cli/relay/front.ts; decision
 * 0068) to end, for `mcpx stop --all`: a request line that runs nothing
 * (`stop: true`, cli/relay/relay_wire.ts). The front stops taking commands,
 * lets the ones it is running finish, and exits; the next warm command
 * starts a new one.
 *
 * @module
 */

import { VERSION } from "../../core/version.ts";
import { frontSocket } from "./front_socket.ts";
import { requestLine, writeAll } from "./relay_wire.ts";

/** How long the front's answer is waited for, ms: it answers before it ends. */
const ANSWER_MS = 2_000;

/**
 * Asks the front of `env`'s state folder to end.
 *
 * @returns True when a front was listening and was asked; false when none
 *   answers on its socket (none runs, or the socket is stale).
 */
export async function endFront(env: Record<string, string | undefined>): Promise<boolean> {
  let conn: Deno.UnixConn;
  try {
    conn = await Deno.connect({ path: frontSocket(env), transport: "unix" });
  } catch {
    return false;
  }
  try {
    const request = { version: VERSION, argv: [], cwd: "/", env: {}, callerPid: Deno.pid };
    await writeAll(conn, requestLine({ ...request, stop: true }));
    // Its answer frame, then the end: read until either, within the bound.
    const timer = setTimeout(() => {
      try {
        conn.close();
      } catch { /* closed */ }
    }, ANSWER_MS);
    try {
      await conn.read(new Uint8Array(64)).catch(() => null);
    } finally {
      clearTimeout(timer);
    }
    return true;
  } catch {
    return false;
  } finally {
    try {
      conn.close();
    } catch { /* closed */ }
  }
}
