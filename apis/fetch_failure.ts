/**
 * What a failed `fetch` of an OpenAPI document or operation means, in words
 * that say where to look. The runtime's own message is often only `fetch
 * failed`, its cause holding the reason as text (`tcp connect error:
 * Connection refused`, `dns error`); this names the URL's origin and the
 * likely fix instead.
 *
 * @module
 */

/** Where the URL a request went to came from, for the fix: a document, or an operation's base URL. */
export type FetchTarget = "document" | "operation";

/**
 * The reason a `fetch` of `url` threw, naming the URL's origin.
 *
 * @param error What fetch threw (a `TypeError` whose `cause` carries the reason).
 * @param url The URL requested (only its origin is named: a query may hold a credential).
 * @param target What was fetched: the fix differs for a document and an operation.
 * @returns e.g. `nothing answers at http://127.0.0.1:8080 (connection refused); check that the
 *   service is running there and that the base URL (the declaration's "baseUrl", --base-url,
 *   or the document's servers) is right`.
 * @example
 * ```ts
 * import { describeFetchFailure } from "./fetch_failure.ts";
 * const error = new TypeError("fetch failed", {
 *   cause: new Error("client error (Connect): tcp connect error: Connection refused (os error 111)"),
 * });
 * const text = describeFetchFailure(error, "http://127.0.0.1:1/pets?key=x", "operation");
 * if (!text.startsWith("nothing answers at http://127.0.0.1:1 (connection refused)")) throw new Error();
 * ```
 */
export function describeFetchFailure(error: unknown, url: string, target: FetchTarget): string {
  let origin = url;
  try {
    origin = new URL(url).origin;
  } catch { /* named as given */ }
  const text = reasons(error).join(": ");
  const where = target === "document"
    ? "the document's URL"
    : `the base URL (the declaration's "baseUrl", --base-url, or the document's servers)`;
  if (/connection refused/i.test(text)) {
    return `nothing answers at ${origin} (connection refused); check that the service is ` +
      `running there and that ${where} is right`;
  }
  if (/dns error|failed to lookup|name or service not known|no such host/i.test(text)) {
    return `the host of ${origin} was not found (DNS); check ${where}`;
  }
  if (/certificate|tls|ssl/i.test(text)) {
    return `the TLS connection to ${origin} failed (${lastReason(text)}); check ${where} and ` +
      `the service's certificate`;
  }
  if (/timed out|timeout/i.test(text)) {
    return `${origin} did not answer in time; check that the service is reachable`;
  }
  return `${origin} could not be reached (${lastReason(text) || "fetch failed"}); check ${where}`;
}

/** The messages of `error` and its causes, outermost first, without the URLs they quote. */
function reasons(error: unknown): string[] {
  const out: string[] = [];
  for (let e = error, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    out.push(e.message.replace(/error sending request for url \([^)]*\):?\s*/i, ""));
  }
  if (out.length === 0) out.push(String(error));
  return out.filter((m) => m !== "");
}

/** The innermost part of a runtime's `a: b: c` message, without `(os error N)`. */
function lastReason(text: string): string {
  return (text.split(": ").at(-1) ?? "").replace(/\s*\(os error \d+\)/, "").trim();
}
