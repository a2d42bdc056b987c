/**
 * Turning thrown values into one-line text for messages and log records.
 * Secrets in that text (a server URL's key, a token a server echoes) are
 * replaced where the text leaves the daemon, by the one redactor
 * (core/redact.ts): the wire, the schema cache, the log.
 *
 * @module
 */

/** A one-line description of any thrown value. */
export function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const message = error.message.split("\n")[0] || error.name;
  // fetch says only "fetch failed"; why (connection refused, DNS, TLS) is in `cause`.
  const cause = error.cause instanceof Error ? error.cause.message.split("\n")[0] : "";
  return cause && !message.includes(cause) ? `${message}: ${cause}` : message;
}

/** The whole message of a thrown value (every line), or its text when it is not an `Error`. */
export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
