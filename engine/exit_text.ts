/**
 * How an instance's start words a server that exited before answering
 * `initialize`, and how it tells a write that met a closed pipe.
 *
 * @module
 */

import type { ExitStatus } from "./stdio_transport.ts";

/** How long a server whose stdin broke is given to be seen exiting, ms. */
export const EXIT_AFTER_BROKEN_PIPE_MS = 500;

/** Why a server's start failed when it exited before answering `initialize`. */
export function exitedBeforeInitialize(status: ExitStatus): string {
  return `exited with ${
    status.signal ? `signal ${status.signal}` : `code ${status.code}`
  } before answering initialize`;
}

/** True when `error`, or an error it was caused by, is a write to a closed pipe (EPIPE). */
export function brokenPipe(error: unknown): boolean {
  for (let e: unknown = error; e; e = (e as { cause?: unknown }).cause) {
    if (e instanceof Deno.errors.BrokenPipe || /broken pipe/i.test(String((e as Error).message))) {
      return true;
    }
  }
  return false;
}
