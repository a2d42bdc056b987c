/**
 * One event of the daemon's bus as a line for a person (`mcpx events`
 * without `--json`): its time, kind, server and session, then the facts that
 * say what happened, short (`--json` prints the event whole).
 *
 * `12:00:01.234 call.finished     fs [s-1] fs.read_file ok 12 ms`
 *
 * @module
 */

import type { BusEvent } from "../../engine/event_bus.ts";
import { localTime } from "../../logs/render.ts";
import { terminalText } from "../../core/terminal_text.ts";

/** The facts each kind shows first, in order; the rest follow as `key=value`. */
const LEAD: Readonly<Record<string, readonly string[]>> = {
  call: ["tool", "outcome", "ms", "error"],
  server: ["why", "code", "signal", "pid", "during", "error"],
  question: ["id", "kind", "state", "reason"],
  list: ["list"],
  resource: [],
  session: ["why", "instances", "named"],
  log: ["reason", "count", "records"],
  config: ["change", "config"],
  gap: ["reason", "missed", "from"],
};

/** Facts never shown on the line: identities `--json` keeps for programs. */
const QUIET = new Set(["localId", "name", "key", "transport", "owners", "message", "fingerprint"]);

/** The most characters one fact's value takes on the line. */
const VALUE_MAX = 80;

/**
 * The line of `event` (no line end), safe for a terminal (core/terminal_text.ts).
 *
 * @example
 * ```ts
 * import { eventLine } from "./event_line.ts";
 * const line = eventLine({ id: "e-1", seq: 1, kind: "call.finished", at: 0, server: "fs",
 *   data: { tool: "fs.read", outcome: "ok", ms: 3 } });
 * if (!line.endsWith(" call.finished     fs fs.read ok 3 ms")) throw new Error(line);
 * ```
 */
export function eventLine(event: BusEvent): string {
  const lead = LEAD[event.kind.split(".")[0]] ?? [];
  const data = event.data ?? {};
  const facts: string[] = [];
  for (const key of lead) {
    const value = data[key];
    if (value === undefined || value === null) continue;
    // A word reads alone (`crash`, `ok`); a number says what it counts (`code=3 pid=4242`).
    facts.push(
      key === "ms" ? `${value} ms` : typeof value === "number" ? `${key}=${value}` : shown(value),
    );
  }
  for (const [key, value] of Object.entries(data)) {
    if (lead.includes(key) || QUIET.has(key) || value === undefined || value === null) continue;
    facts.push(`${key}=${shown(value)}`);
  }
  const parts = [
    localTime(new Date(event.at).toISOString(), false),
    // The longest kind, `question.answered`, is 17 characters.
    event.kind.padEnd(17),
    event.server ?? "-",
    ...(event.session ? [`[${event.session}]`] : []),
    ...(event.uri ? [event.uri] : []),
    facts.join(" "),
  ];
  return terminalText(parts.join(" ").trimEnd()).replace(/[\r\n]+/g, " ");
}

/** A fact's value: a string as it is, anything else as JSON, cut at {@link VALUE_MAX}. */
function shown(value: unknown): string {
  const text = typeof value === "string" ? value : JSON.stringify(value);
  return text.length > VALUE_MAX ? `${text.slice(0, VALUE_MAX - 1)}…` : text;
}
