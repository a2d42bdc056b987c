/**
 * `mcpx events [-f] [--since N] [--kind K…] [--server S…] [--session S]`: the
 * daemon's event bus (ops/event_ops.ts; decision 0080), read as server-sent
 * events from `GET /v1/events` on the daemon's socket or endpoint
 * (wire/sse.ts). One line per event for a person (cli/logs/event_line.ts),
 * one JSON event per line under `--json`.
 *
 * - Without `-f`: what is retained after `--since` (default 0: everything
 *   retained), then it exits. With no daemon running nothing has happened:
 *   it says so on stderr and starts none.
 * - With `-f`: from `--since` when given, else live only, until SIGINT,
 *   SIGTERM or stdout's reader leaves. A lost stream (the daemon restarted or
 *   went idle) is resumed with `Last-Event-ID` once a daemon runs again, so
 *   nothing is printed twice; what a new daemon cannot replay arrives as a
 *   `gap` event. A follower starts a daemon only for its first stream: one
 *   that ended is waited for, so `mcpx stop` stays stopped.
 *
 * It runs in the CLI's own process, never relayed through the front (decision
 * 0080): its answer is a stream it writes itself, so it ends `exited(0)`.
 *
 * @module
 */

import { pause } from "../../core/pause.ts";
import type { CliContext } from "../context.ts";
import { UsageError } from "../../core/errors.ts";
import type { InputOf } from "../../ops/op.ts";
import type { events } from "../../ops/event_ops.ts";
import { exited, type Outcome } from "../../ops/outcome.ts";
import type { BusEvent } from "../../engine/event_bus.ts";
import { eventLine } from "./event_line.ts";
import { readEvents } from "./event_source.ts";

/** How long a follower waits before reconnecting to a lost daemon, ms (doubling to the max). */
const RECONNECT_MS = 250;
const RECONNECT_MAX_MS = 4000;

/**
 * Prints the events asked for.
 *
 * @returns `exited(0)` once they are printed (`-f`: once stopped).
 * @throws {UsageError} For an empty `--session`, or what the daemon refuses
 *   (a malformed `--since`, an unknown kind), naming the value.
 */
export async function handle(ctx: CliContext, input: InputOf<typeof events>): Promise<Outcome> {
  const session = ctx.sessionFlag;
  if (session === "") throw new UsageError("--session needs a key: `--session <key>`");
  const follow = input.follow === true;
  const json = await ctx.json().catch(() => false);
  const print = (event: BusEvent) =>
    ctx.io.out(json ? JSON.stringify(event) + "\n" : eventLine(event) + "\n");
  const query = {
    kind: input.kind ?? [],
    server: input.server ?? [],
    session: session === undefined ? [] : [session],
  };
  const token = await ctx.endpointToken();
  if (!follow) {
    const { probeDaemon } = await import("../daemon_connect.ts");
    const socket = await ctx.existingDaemonSocket();
    if (!(await ctx.endpoint()) && !(await probeDaemon(socket))) {
      ctx.io.err("No daemon runs for this configuration, so nothing has happened yet.\n");
      return exited(0);
    }
    await readEvents(socket, { ...query, since: input.since ?? "0", follow: false, token }, print);
    return exited(0);
  }
  const stop = new AbortController();
  const onSignal = () => stop.abort();
  const signals = ["SIGINT", "SIGTERM"] as const;
  for (const s of signals) Deno.addSignalListener(s, onSignal);
  ctx.io.stdoutGone?.addEventListener("abort", onSignal, { once: true });
  if (ctx.io.stdoutGone?.aborted) stop.abort();
  try {
    let last: string | undefined;
    let wait = RECONNECT_MS;
    let told = false;
    const { probeDaemon } = await import("../daemon_connect.ts");
    while (!stop.signal.aborted) {
      try {
        // The first stream may start the daemon; a lost one is waited for, never started again:
        // a follower that restarted the daemon would undo the `mcpx stop` that ended it.
        const socket = last === undefined
          ? await ctx.daemonSocket()
          : await ctx.existingDaemonSocket();
        if (last !== undefined && !(await ctx.endpoint()) && !(await probeDaemon(socket))) {
          if (!told) {
            ctx.io.err("the daemon stopped; waiting for the next one (Ctrl-C ends)\n");
            told = true;
          }
          throw new Error("no daemon yet");
        }
        told = false;
        await readEvents(socket, {
          ...query,
          // The first stream starts where asked; a resumed one where the last event left it.
          ...(last === undefined ? { since: input.since } : { lastEventId: last }),
          follow: true,
          token,
          signal: stop.signal,
        }, (event) => {
          last = event.id;
          wait = RECONNECT_MS;
          print(event);
        });
      } catch (error) {
        // A refusal of what was asked is final; a lost daemon is waited for.
        if (error instanceof UsageError || stop.signal.aborted) throw error;
      }
      if (stop.signal.aborted) break;
      await pause(wait, stop.signal);
      wait = Math.min(wait * 2, RECONNECT_MAX_MS);
    }
  } catch (error) {
    if (!stop.signal.aborted) throw error;
  } finally {
    for (const s of signals) Deno.removeSignalListener(s, onSignal);
    ctx.io.stdoutGone?.removeEventListener("abort", onSignal);
  }
  return exited(0);
}
