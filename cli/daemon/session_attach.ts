/**
 * `mcpx session attach <name> [--read-only | --take-over]` (issue 29;
 * decision 0085). Read-only (the default) watches the session: the daemon
 * mints a read attachment, then the session's `call.started` and
 * `call.finished` events are printed as they happen (`--json`: one event per
 * line, the first line the attachment) until SIGINT, SIGTERM or stdout's
 * reader leaves; the attachment ends with it. `--take-over` makes the caller
 * the session's writer and prints the attachment to export as `MCPX_ATTACH`:
 * calls under the session without it are refused from then on
 * (`session-taken-over`).
 *
 * Runs in the CLI's own process (not relayed: cli/relay/relayed.ts), as
 * `mcpx events` does.
 *
 * @module
 */

import type { CliContext } from "../context.ts";
import { UsageError } from "../../core/errors.ts";
import { exited, ok, type Outcome } from "../../ops/outcome.ts";
import type { BusEvent } from "../../engine/event_bus.ts";
import { eventLine } from "../logs/event_line.ts";
import { readEvents } from "../logs/event_source.ts";

/** What the daemon answers an attach (ops/routes.ts `sessionAttach`). */
export interface Attached {
  session: string;
  mode: "read" | "write";
  token: string;
  since: string;
  previous?: { pid?: number; user?: string; run?: string };
}

/**
 * Attaches to session `name`.
 *
 * @returns `ok(attached)` for a take-over; `exited(0)` once a watch stops.
 * @throws {UsageError} For both `--read-only` and `--take-over`; what the daemon refuses
 *   (`session-unknown`, `attach-refused`) as its typed error.
 */
export async function attach(
  ctx: CliContext,
  name: string,
  options: { readOnly?: boolean; takeOver?: boolean },
): Promise<Outcome<Attached>> {
  if (options.readOnly && options.takeOver) {
    throw new UsageError("give --read-only (watch) or --take-over (take it over), not both");
  }
  const mode = options.takeOver ? "write" : "read";
  const attached = await ctx.request<Attached>("sessionAttach", { name, mode });
  if (mode === "write") return ok(attached);
  const json = await ctx.json().catch(() => false);
  ctx.io.out(
    json
      ? JSON.stringify(attached) + "\n"
      : `watching session ${name} read-only (${attached.token}); Ctrl-C stops\n`,
  );
  const stop = new AbortController();
  const onSignal = () => stop.abort();
  const signals = ["SIGINT", "SIGTERM"] as const;
  for (const s of signals) Deno.addSignalListener(s, onSignal);
  ctx.io.stdoutGone?.addEventListener("abort", onSignal, { once: true });
  try {
    await readEvents(await ctx.daemonSocket(), {
      kind: ["call"],
      session: [name],
      follow: true,
      token: await ctx.endpointToken(),
      signal: stop.signal,
    }, (event: BusEvent) => ctx.io.out(json ? JSON.stringify(event) + "\n" : watchLine(event)));
  } catch (error) {
    if (!stop.signal.aborted) throw error;
  } finally {
    for (const s of signals) Deno.removeSignalListener(s, onSignal);
    ctx.io.stdoutGone?.removeEventListener("abort", onSignal);
  }
  if (!stop.signal.aborted) {
    // The stream ended with the daemon, and the attachment with it (attachments live in its
    // memory): detaching would start a daemon, undoing the `mcpx stop` that ended this one.
    ctx.io.err(`the daemon stopped, so the watch of session ${name} ended\n`);
    return exited(0);
  }
  await ctx.request("sessionDetach", { token: attached.token }).catch(() => {});
  return exited(0);
}

/** An event's line, with a finished call's result preview under it. */
function watchLine(event: BusEvent): string {
  // The answer goes on a line of its own, indented, rather than as a fact of the event's line.
  const { preview, ...data } = event.data;
  return eventLine({ ...event, data }) + "\n" +
    (typeof preview === "string" ? `    ${preview}\n` : "");
}

/** A take-over's text: what to export, and whom it replaced. */
export function takeOverText(a: Attached): string {
  const from = a.previous
    ? ` from pid ${a.previous.pid ?? "?"}${a.previous.user ? ` (user ${a.previous.user})` : ""}`
    : "";
  return `took over session ${a.session}${from}; calls under it now need this attachment:\n` +
    `export MCPX_ATTACH=${a.token}\n`;
}
