/**
 * Whether this process's stdout is a pipe or a socket: a reader that can go
 * away while a child writes (decision 0013), so a child's stdout passes
 * through this process rather than being inherited. Read through
 * `/dev/stdout` (Deno has no fstat of a standard stream); false when that
 * cannot be read. Its own module so the thin client (cli/relay/thin_spawn.ts)
 * asks without loading core/io.ts.
 *
 * @module
 */

/** Whether stdout is a pipe or a socket. */
export function stdoutIsPipe(): boolean {
  try {
    const info = Deno.statSync("/dev/stdout");
    return info.isFifo === true || info.isSocket === true;
  } catch {
    return false;
  }
}
