/**
 * The thin client's half of a relayed run (decision 0069): when the front
 * asks, start the script's runtime as this process's child, with the
 * caller's stdin and stdout, send back its stderr (and stdout when the front
 * collects it), the signals this process is sent while it runs, and how it
 * ended. The front's half is cli/relay/front_spawn.ts.
 *
 * @module
 */

import { FRAME, type FrameWriter, type SpawnRequest } from "./relay_wire.ts";
import { stdoutIsPipe } from "../../core/stdout_pipe.ts";
import { FORWARDED_SIGNALS } from "../../runner/forward_signals.ts";

/** Copies `stream` to `write` chunk by chunk, then an empty frame's worth: the end. */
async function pump(
  stream: ReadableStream<Uint8Array>,
  write: (bytes: Uint8Array) => Promise<void>,
): Promise<void> {
  for await (const chunk of stream) await write(chunk).catch(() => {});
}

/**
 * A writer to `stream`; a reader that went away (`mcpx … | head`) ends the
 * writing quietly, and what follows is dropped, so a writer (a script) never
 * blocks on a full pipe (decision 0013).
 */
export function quietWriter(stream: typeof Deno.stdout): (bytes: Uint8Array) => Promise<void> {
  let gone = false;
  return async (bytes) => {
    try {
      for (let written = 0; !gone && written < bytes.length;) {
        written += await stream.write(bytes.subarray(written));
      }
    } catch {
      gone = true;
    }
  };
}

/**
 * Starts the runtime `request` describes and reports on it through `writer`
 * until it has ended: `spawned`, its streams (`out`/`err`, each ended by an
 * empty frame), each forwarded signal, then `exit`.
 */
export async function spawnForFront(request: SpawnRequest, writer: FrameWriter): Promise<void> {
  const pass = request.stdout === "inherit" && stdoutIsPipe();
  let child: Deno.ChildProcess;
  try {
    child = new Deno.Command(request.path, {
      args: request.args,
      cwd: request.cwd,
      env: request.env,
      clearEnv: request.clearEnv,
      stdin: request.stdin,
      stdout: pass ? "piped" : request.stdout,
      stderr: request.stderr,
      detached: request.detached,
    }).spawn();
  } catch (error) {
    await writer.send(FRAME.spawned, JSON.stringify({ error: (error as Error).message }));
    return;
  }
  // The front signals the runtime (or its sandbox) itself, as a whole `mcpx` would.
  const handlers = FORWARDED_SIGNALS.map((signal) =>
    [signal, () => writer.send(FRAME.signal, JSON.stringify({ signal })).catch(() => {})] as const
  );
  for (const [signal, handler] of handlers) Deno.addSignalListener(signal, handler);
  try {
    await writer.send(FRAME.spawned, JSON.stringify({ pid: child.pid }));
    const streams: Promise<void>[] = [];
    if (pass) streams.push(pump(child.stdout, quietWriter(Deno.stdout)));
    else if (request.stdout === "piped") {
      streams.push(
        pump(child.stdout, (bytes) => writer.send(FRAME.out, bytes))
          .then(() => writer.send(FRAME.out)),
      );
    }
    if (request.stderr === "piped") {
      streams.push(
        pump(child.stderr, (bytes) => writer.send(FRAME.err, bytes))
          .then(() => writer.send(FRAME.err)),
      );
    }
    const status = await child.status;
    await Promise.allSettled(streams);
    await writer.send(FRAME.exit, JSON.stringify({ code: status.code, signal: status.signal }));
  } finally {
    for (const [signal, handler] of handlers) Deno.removeSignalListener(signal, handler);
  }
}
