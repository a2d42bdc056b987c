/**
 * Turning thrown values into one-line text for messages and log records,
 * with a remote server's URL secrets redacted.
 *
 * @module
 */

import type { ServerSpec } from "../config/types.ts";

/**
 * `url` with its credentials and query values replaced by `***`, so an API key
 * in a server URL never reaches an error message or a log record.
 */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.username) parsed.username = "***";
    if (parsed.password) parsed.password = "***";
    for (const key of [...parsed.searchParams.keys()]) parsed.searchParams.set(key, "***");
    return parsed.toString().replaceAll("%2A%2A%2A", "***");
  } catch {
    return url;
  }
}

/** `text` with a remote server's URL secrets redacted (see {@link redactUrl}). */
export function redactFor(spec: ServerSpec, text: string): string {
  if (spec.transport === "stdio" || !spec.url) return text;
  return text.replaceAll(spec.url, redactUrl(spec.url))
    .replace(/(https?:\/\/[^\s)"']*[?&][^=\s&)"']+=)[^&\s)"']+/g, "$1***");
}

/** A one-line description of any thrown value. */
export function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const message = error.message.split("\n")[0] || error.name;
  // fetch says only "fetch failed"; why (connection refused, DNS, TLS) is in `cause`.
  const cause = error.cause instanceof Error ? error.cause.message.split("\n")[0] : "";
  return cause && !message.includes(cause) ? `${message}: ${cause}` : message;
}
