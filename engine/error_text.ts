/**
 * Turning thrown values into text for messages and log records. A server's
 * error may span many lines (the SDK's validation of a result it refused is a
 * JSON list of issues, `Invalid result for tools/call: [` and on): it is kept
 * whole up to a bound ({@link ERROR_TEXT_MAX_LINES} lines,
 * {@link ERROR_TEXT_MAX_BYTES} bytes), and what was cut is said on its last
 * line, rather than cut to its first line (issue 24).
 *
 * Secrets in that text (a server URL's key, a token a server echoes) are
 * replaced where the text leaves the daemon, by the one redactor
 * (core/redact.ts): the wire, the schema cache, the log.
 *
 * @module
 */

/** The most lines of an error's text kept (the first line included). */
export const ERROR_TEXT_MAX_LINES = 40;
/** The most bytes (UTF-8) of an error's text kept, the note of what was cut aside. */
export const ERROR_TEXT_MAX_BYTES = 4096;

/**
 * `text` within {@link ERROR_TEXT_MAX_LINES} lines and
 * {@link ERROR_TEXT_MAX_BYTES} bytes: whole when it fits, else its first
 * lines that fit and a last line saying how many lines and bytes were cut.
 *
 * @param text Any text, e.g. an error's whole message.
 * @returns The text, or its head and `… N more lines (M bytes) cut`.
 * @example
 * ```ts
 * import { boundedText } from "./error_text.ts";
 * const out = boundedText(Array.from({ length: 100 }, (_, i) => `line ${i}`).join("\n"));
 * if (!out.endsWith("… 60 more lines (480 bytes) cut")) throw new Error(out);
 * ```
 */
export function boundedText(text: string): string {
  const bytes = new TextEncoder().encode(text).length;
  const lines = text.split("\n");
  if (lines.length <= ERROR_TEXT_MAX_LINES && bytes <= ERROR_TEXT_MAX_BYTES) return text;
  const kept: string[] = [];
  let size = 0;
  for (const line of lines.slice(0, ERROR_TEXT_MAX_LINES)) {
    const length = new TextEncoder().encode(line).length + (kept.length ? 1 : 0);
    if (size + length > ERROR_TEXT_MAX_BYTES) {
      // A first line longer than the bound keeps its head, so the text never comes back empty.
      if (kept.length === 0) kept.push(line.slice(0, ERROR_TEXT_MAX_BYTES / 4));
      break;
    }
    kept.push(line);
    size += length;
  }
  const cutLines = lines.length - kept.length;
  const cutBytes = bytes - new TextEncoder().encode(kept.join("\n")).length;
  const more = cutLines > 0 ? `${cutLines} more line${cutLines === 1 ? "" : "s"}` : "the rest";
  return `${kept.join("\n")}\n… ${more} (${cutBytes} bytes) cut`;
}

/**
 * A description of any thrown value: its message's first line (with the
 * first line of its `cause` when that says more, as `fetch failed: …`), and
 * the message's further lines indented two spaces under it, bounded by
 * {@link boundedText}.
 *
 * @param error Any thrown value.
 * @returns One line, or a first line and the indented rest.
 * @example
 * ```ts
 * import { describe } from "./error_text.ts";
 * const out = describe(new Error("Invalid result for tools/call: [\n{\n  \"code\": 1\n}\n]"));
 * if (out !== 'Invalid result for tools/call: [\n  {\n    "code": 1\n  }\n  ]') throw new Error(out);
 * ```
 */
export function describe(error: unknown): string {
  if (!(error instanceof Error)) return indentRest(boundedText(String(error)));
  const [first, ...rest] = boundedText(error.message).split("\n");
  const message = first || error.name;
  // fetch says only "fetch failed"; why (connection refused, DNS, TLS) is in `cause`.
  const cause = error.cause instanceof Error ? error.cause.message.split("\n")[0] : "";
  const head = cause && !error.message.includes(cause) ? `${message}: ${cause}` : message;
  return indentRest([head, ...rest].join("\n"));
}

/** The whole message of a thrown value (every line), or its text when it is not an `Error`. */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Every line after the first indented two spaces (blank lines stay blank). */
function indentRest(text: string): string {
  return text.replace(/\n(?=.)/g, "\n  ");
}
