/**
 * Where the front process listens (cli/relay/front.ts, decision 0067): one
 * unix socket per user and state folder, in the private folder of mcpx's
 * daemon sockets (wire/locate.ts `socketFallbackDirs`). The name is keyed by
 * the variables that choose the state folder, so callers with another
 * `MCPX_STATE_DIR` (a test's world, another profile of the machine) reach
 * another front. Reading it loads no configuration and no settings: the
 * thin client (cli/relay/thin.ts) must stay small.
 *
 * @module
 */

import { socketFallbackDirs } from "../../wire/locate.ts";
import { fnv1a64 } from "../../core/fnv1a64.ts";

/** The variables that choose the state folder (config/paths.ts), in order. */
const STATE_VARIABLES = ["MCPX_PATHS_STATE", "MCPX_STATE_DIR", "XDG_STATE_HOME", "HOME"];

/**
 * The front's socket for a caller with environment `env`.
 *
 * @example
 * ```ts
 * import { frontSocket } from "./front_socket.ts";
 * const a = frontSocket({ HOME: "/home/a", XDG_RUNTIME_DIR: "/run/user/1" });
 * if (!/^\/run\/user\/1\/mcpx\/front-[0-9a-f]{8}\.sock$/.test(a)) throw new Error(a);
 * if (a === frontSocket({ HOME: "/home/b", XDG_RUNTIME_DIR: "/run/user/1" })) throw new Error();
 * ```
 */
export function frontSocket(env: Record<string, string | undefined>): string {
  const key = STATE_VARIABLES.map((name) => env[name] ?? "").join("\0");
  const [dir] = socketFallbackDirs((name) => env[name]);
  return `${dir}/front-${fnv1a64(key).slice(0, 8)}.sock`;
}
