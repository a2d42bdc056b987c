/**
 * Secrets never reach a record. Three rules, applied to every record before
 * it is written:
 *
 * 1. An attribute named like a secret (`env`, `headers`, `auth`, `…token`,
 *    `…password…`, `…secret…`, `authorization`, `apiKey`, `cookie`,
 *    `credential`, `privateKey`, …) has its value replaced by `[redacted]` (for an object,
 *    each value: the names stay readable).
 * 2. Every string (message, attribute values at any depth) has the known
 *    secret values replaced: the values a server's `env` and `headers` give
 *    (after `${VAR}` expansion), see {@link serverSecrets}.
 * 3. URLs lose their user information and the values of query parameters
 *    named like secrets (`?token=…`).
 *
 * @module
 */

/** What replaces a secret. */
export const REDACTED = "[redacted]";

const SECRET_KEY =
  /^(env|headers|auth|pass)$|password|passwd|passphrase|secret|token$|api[-_]?key|authori[sz]ation|cookie|credential|private[-_]?key/i;
const URL_USERINFO = /\b([a-z][a-z0-9+.-]*:\/\/)[^/\s:@]+(?::[^/\s@]*)?@/gi;
const URL_SECRET_QUERY =
  /([?&](?:[^=&\s#]*(?:token|secret|key|pass|auth|sig|signature|code)[^=&\s#]*)=)[^&\s#]+/gi;

/** The server fields {@link serverSecrets} reads. */
export interface SecretSource {
  env?: Record<string, string>;
  headers?: Record<string, string>;
}

/**
 * The values that must never be written: each value of a server's `env`
 * (6 characters or more: shorter ones such as `1` or `true` are no secret
 * and would blank ordinary text) and of its `headers` (4 or more), and each
 * word of 8 or more characters inside a header value (the token of
 * `Bearer <token>`).
 *
 * @param servers The configured servers, expanded.
 * @returns Distinct secret strings, longest first.
 */
export function serverSecrets(servers: readonly SecretSource[]): string[] {
  const out = new Set<string>();
  for (const server of servers) {
    for (const value of Object.values(server.env ?? {})) {
      if (typeof value === "string" && value.length >= 6) out.add(value);
    }
    for (const value of Object.values(server.headers ?? {})) {
      if (typeof value !== "string") continue;
      if (value.length >= 4) out.add(value);
      for (const word of value.split(/\s+/)) if (word.length >= 8) out.add(word);
    }
  }
  return [...out].sort((a, b) => b.length - a.length);
}

/** Applies the three rules. */
export class Redactor {
  #secrets: string[];

  /** @param secrets Values to blank wherever they appear ({@link serverSecrets}). */
  constructor(secrets: readonly string[] = []) {
    this.#secrets = [...secrets].filter((s) => s.length > 0).sort((a, b) => b.length - a.length);
  }

  /**
   * A string with every known secret and URL secret replaced.
   *
   * @example
   * ```ts
   * import { Redactor } from "./redact.ts";
   * const r = new Redactor(["s3cr3t-value"]);
   * if (r.text("got s3cr3t-value at https://u:p@h/x?token=abc") !==
   *   "got [redacted] at https://[redacted]@h/x?token=[redacted]") throw new Error();
   * ```
   */
  text(value: string): string {
    let out = value;
    for (const secret of this.#secrets) {
      if (out.includes(secret)) out = out.replaceAll(secret, REDACTED);
    }
    if (out.includes("://")) {
      out = out.replace(URL_USERINFO, `$1${REDACTED}@`).replace(URL_SECRET_QUERY, `$1${REDACTED}`);
    }
    return out;
  }

  /**
   * Attributes with the three rules applied, as a new object (the input is not changed).
   *
   * @example
   * ```ts
   * import { Redactor } from "./redact.ts";
   * const out = new Redactor().attrs({ env: { API_KEY: "x" }, token: "y", n: 1 });
   * if (JSON.stringify(out) !== '{"env":{"API_KEY":"[redacted]"},"token":"[redacted]","n":1}') {
   *   throw new Error();
   * }
   * ```
   */
  attrs(attrs: Record<string, unknown>): Record<string, unknown> {
    return this.#object(attrs, 0);
  }

  #object(value: Record<string, unknown>, depth: number): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      out[key] = SECRET_KEY.test(key) ? blank(item) : this.#value(item, depth + 1);
    }
    return out;
  }

  #value(value: unknown, depth: number): unknown {
    if (typeof value === "string") return this.text(value);
    if (value === null || typeof value !== "object" || depth > 8) return value;
    if (value instanceof Error) {
      return this.#object({ name: value.name, message: value.message }, depth);
    }
    if (Array.isArray(value)) return value.map((v) => this.#value(v, depth + 1));
    return this.#object(value as Record<string, unknown>, depth);
  }
}

/** A secret-named value: objects keep their keys, everything else becomes {@link REDACTED}. */
function blank(value: unknown): unknown {
  if (value === undefined || value === null || value === "") return value;
  if (typeof value === "object" && !Array.isArray(value)) {
    return Object.fromEntries(Object.keys(value as object).map((k) => [k, REDACTED]));
  }
  return REDACTED;
}
