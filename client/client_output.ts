/**
 * What the client writes: records, one line each on stderr (U+001E, then the
 * JSON of a {@link LogRecord}; decision 0004, "Records and control messages
 * share stderr"), and values on stdout as JSON, binary content described
 * rather than printed (`mcpx help results`, docs/topics/results.md). `emit` is here: it is
 * one of the two.
 *
 * @module
 */

import type { Level, LogRecord } from "../logs/record.ts";
import { rtConfig } from "./client_config.ts";
import { describeBlock, isBinaryBlock } from "./content_text.ts";
import { runtimeIo } from "./host_runtime.ts";
import { errorFrames, renderStack } from "./stack_frames.ts";
import { syntaxErrorsOf, syntaxLocation } from "./syntax_location.ts";
import { ToolError } from "./tool_result.ts";

const rtIdPrefix = (() => {
  let hex = "";
  for (const b of crypto.getRandomValues(new Uint8Array(6))) hex += b.toString(16).padStart(2, "0");
  return hex;
})();
let rtIdCounter = 0;

/**
 * Error as data: name, message, stack, frames (plus a ToolError's names, a
 * cause, a code, and where a syntax error is).
 */
export function errorData(err: Error): Record<string, unknown> {
  const frames = errorFrames(err);
  const data: Record<string, unknown> = {
    name: err.name,
    message: err.message,
    stack: typeof err.stack === "string" ? err.stack : renderStack(err, frames),
    frames,
  };
  if (err instanceof ToolError) {
    data.server = err.server;
    data.namespace = err.namespace;
    data.tool = err.tool;
  }
  const code = (err as { code?: unknown }).code;
  if (code !== undefined) data.code = code;
  if (err.cause !== undefined) data.cause = err.cause;
  const location = syntaxLocation(err);
  if (location) {
    data.location = location;
    if (err.name === "BuildMessage") data.name = "SyntaxError"; // bun's name for it
    return data;
  }
  // Bun reports several parse errors at once as an AggregateError of BuildMessages, each
  // placed: the first is the error's place, and every one is kept with its own.
  const placed = syntaxErrorsOf(err);
  if (placed.length) {
    data.name = "SyntaxError";
    data.message = placed[0].message;
    data.location = placed[0].location;
    data.syntaxErrors = placed;
  }
  return data;
}

function jsonReplacer(_key: string, value: unknown): unknown {
  if (typeof value === "bigint") return value.toString();
  if (value instanceof Error) return errorData(value);
  if (value instanceof Map) return [...value];
  if (value instanceof Set) return [...value];
  if (typeof value === "symbol") return value.toString();
  if (typeof value === "function") return `[Function ${value.name || "(anonymous)"}]`;
  return value;
}

/** How printed output ends the description of binary content it leaves out. */
export const PRINTED_DATA_HINT = "not printed; the value in the script holds the data (`.raw`)";

/**
 * JSON for a value that reaches stdout (the entry's result, an `emit`), with
 * binary content blocks described, never their base64 (`mcpx help results`,
 * docs/topics/results.md); the script's own value keeps the data.
 */
export function printedJson(value: unknown, indent?: number): string {
  return rtStringify(
    value,
    indent,
    (v) => isBinaryBlock(v) ? describeBlock(v, PRINTED_DATA_HINT) : v,
  );
}

/** JSON for a record or an emitted value: BigInt as text, Errors as data, cycles cut. */
function rtStringify(
  value: unknown,
  indent?: number,
  describe: (value: unknown) => unknown = (v) => v,
): string {
  const replacer = (key: string, v: unknown) => describe(jsonReplacer(key, v));
  try {
    return JSON.stringify(value, replacer, indent) ?? "null";
  } catch {
    const seen = new WeakSet<object>();
    return JSON.stringify(value, (key, v) => {
      const out = replacer(key, v);
      if (typeof out === "object" && out !== null) {
        if (seen.has(out)) return "[Circular]";
        seen.add(out);
      }
      return out;
    }, indent) ?? "null";
  }
}

/**
 * Writes one record to stderr, stamped with the time, a fresh id and the
 * run's span (`MCPX_RUN`).
 *
 * @param event `log`, `run.emit`, `run.result`, `run.error`.
 * @param msg The rendered message; `template` is what it was rendered from.
 * @param attrs The record's attributes (BigInt as text, Errors as data, cycles cut).
 */
export function writeRecord(
  level: Level,
  event: string,
  msg: string,
  template: string,
  attrs: Record<string, unknown>,
): void {
  const record: LogRecord = {
    time: new Date().toISOString(),
    level,
    event,
    msg,
    template,
    id: rtIdPrefix + (rtIdCounter++).toString(16).padStart(8, "0"),
    span: rtConfig.env.span,
    attrs,
  };
  runtimeIo.err("\u001e" + rtStringify(record) + "\n");
}

/**
 * Streams one value out now: a JSON line on stdout, or under `--json`
 * (MCPX_OUTPUT=json) a `run.emit` record the CLI collects into `results`.
 *
 * @param value Any JSON-able value (BigInt as text, Errors as data).
 */
export function emit(value: unknown): void {
  if (rtConfig.env.json) writeRecord("info", "run.emit", "emit", "emit", { value });
  else runtimeIo.out(printedJson(value) + "\n");
}
