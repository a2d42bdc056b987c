/**
 * The one redactor: every configured secret value is replaced by the
 * reference it came from wherever mcpx writes or prints text — the schema
 * cache, status rows, error bodies on the wire, the CLI's error output, the
 * durable log, run records, process-group records (decision 0017).
 *
 * Rules, in order, for a string:
 *
 * 1. Every known secret ({@link Secret}: a value and its reference, found
 *    in the configuration by config/secrets.ts) is replaced by its reference:
 *    `got Bearer sk-live-123` becomes `got Bearer ${API_TOKEN}`. Longest first,
 *    so a secret inside another does not split it. Also replaced: the secret
 *    as it appears JSON-escaped, percent-encoded or base64-encoded, alone or
 *    inside longer encoded bytes ({@link encodedForms}), and a piece of it of
 *    8 characters or more cut off at the start or end of the text, of a line,
 *    or before `…` (a truncated stderr tail or message).
 * 2. URLs lose what is left of their user information and the values of
 *    query parameters named like secrets (`?token=…`, `?api_key=…`): those
 *    become {@link REDACTED}, since nothing configured says where they came from.
 * 3. A credential-bearing header ({@link CREDENTIAL_HEADERS}: `Authorization`,
 *    `Cookie`, `Set-Cookie`, `X-Api-Key`, …) written as a header line
 *    (`Set-Cookie: sid=…`) or a JSON pair (`"cookie":"sid=…"`) loses its value
 *    to {@link REDACTED} unless rule 1 already put a reference in it: a server
 *    may echo a cookie or token nothing configured. In structured data
 *    ({@link Redactor.json}) a string under such a key does the same.
 *
 * For log attributes ({@link Redactor.attrs}) a third rule applies first: an
 * attribute named like a secret (`env`, `headers`, `auth`, `…token`,
 * `…password…`, `authorization`, `apiKey`, …) keeps its name and loses its
 * value. Structured data ({@link Redactor.json}) keeps its keys' meaning:
 * only strings change.
 *
 * Which configured values count as secrets is {@link isSecretValue}: short and
 * ordinary values (`1`, `true`, `production`, an absolute path) would shred
 * unrelated text and are left alone unless named like a secret.
 *
 * @module
 */

/** What replaces a secret found by its shape (a URL's credentials) rather than by its value. */
export const REDACTED = "[redacted]";

/** The shortest configured value treated as a secret, in characters. */
export const MIN_SECRET_LENGTH = 6;

/** The shortest piece of a secret recognised at a cut (rule 1), in characters. */
const MIN_FRAGMENT = 8;

/**
 * A name (an environment variable, an `env` or `headers` key, a query
 * parameter, a flag) that says its value is a credential.
 */
export const SECRET_NAME =
  /passw|passphrase|secret|token|api[-_]?key|access[-_]?key|private[-_]?key|auth|credential|cookie|session[-_]?id|(^|[-_])(key|pat|pwd|pass|pin)$/i;

/** Log attribute names whose values are never written (rule 3). */
const SECRET_ATTRIBUTE =
  /^(env|headers|auth|pass)$|password|passwd|passphrase|secret|token$|api[-_]?key|authori[sz]ation|cookie|credential|private[-_]?key/i;

/**
 * Header names whose value is a credential wherever it is written (lower
 * case): RFC 9110 `Authorization` and `Proxy-Authorization`, RFC 6265
 * `Cookie` and `Set-Cookie`, and the API-key and token headers services use.
 * Each also matches `SECRET_NAME` and the log attributes' rule.
 */
export const CREDENTIAL_HEADERS: readonly string[] = [
  "authorization",
  "proxy-authorization",
  "cookie",
  "set-cookie",
  "x-api-key",
  "api-key",
  "x-auth-token",
  "x-access-token",
];
const HEADER_NAMES = CREDENTIAL_HEADERS.join("|");
/** A whole header line naming a credential header: its name and separator, then its value. */
const HEADER_LINE = new RegExp(
  String.raw`^([ \t]*(?:${HEADER_NAMES})[ \t]*:[ \t]*)(\S[^\r\n]*)$`,
  "gim",
);
/** A JSON pair `"<credential header>": "<value>"` as a document's text carries it. */
const HEADER_PAIR = new RegExp(
  String.raw`("(?:${HEADER_NAMES})"\s*:\s*")((?:[^"\\]|\\.)*)"`,
  "gi",
);
/** A cheap test that text may hold either. */
const HEADER_HINT = /authoriz|cookie|api-key|-token/i;
/** A credential header's name as a key of structured data. */
const HEADER_KEY = new RegExp(`^(?:${HEADER_NAMES})$`, "i");

const URL_USERINFO = /\b([a-z][a-z0-9+.-]*:\/\/)([^/\s:@]+(?::[^/\s@]*)?)@/gi;
const URL_SECRET_QUERY =
  /([?&](?:[^=&\s#]*(?:token|secret|key|pass|auth|sig|signature|code)[^=&\s#]*)=)([^&\s#]+)/gi;

/** A configured secret: its value and the reference shown in its place. */
export interface Secret {
  /** The value as the server receives it (after `${VAR}` expansion). */
  value: string;
  /**
   * What replaces it: the variable it came from (`${API_TOKEN}`), or for a
   * literal value the place it is written (`${mcpServers.api.env.API_KEY}`;
   * a dotted name is never a variable, so it cannot be mistaken for one).
   */
  reference: string;
}

/**
 * Whether a configured value is treated as a secret (decision 0017).
 *
 * A value shorter than {@link MIN_SECRET_LENGTH} never is: replacing `1`,
 * `true` or `info` everywhere would shred ordinary text, and a credential
 * that short protects nothing. Otherwise a value `named` like a secret (a
 * header, an `auth` field, URL credentials, or a key or variable matching
 * {@link SECRET_NAME}) always is; any other value is, unless it is a single
 * word of letters (`production`, `localhost`), a number, version, date or
 * address made of digits and `.:_-` (`8080`, `1.2.3`, `127.0.0.1`), or an
 * absolute path (`/home/me/projects`).
 *
 * @param value The value as the server receives it.
 * @param named Whether its name or place says it is a credential.
 * @returns True when the redactor must replace it.
 * @example
 * ```ts
 * import { isSecretValue } from "./redact.ts";
 * if (isSecretValue("production") || !isSecretValue("sk-live-123456")) throw new Error();
 * if (!isSecretValue("hunter22", true) || isSecretValue("true", true)) throw new Error();
 * ```
 */
export function isSecretValue(value: string, named = false): boolean {
  if (value.length < MIN_SECRET_LENGTH) return false;
  if (named) return true;
  return !/^[A-Za-z]+$/.test(value) && !/^[\d.:_-]+$/.test(value) &&
    !/^\/[^\s]*$/.test(value);
}

/** Above this many forms of secrets, text is scanned once with an index instead of once per form. */
const SCAN_ONCE_ABOVE = 128;

/** The multiplier of {@link prefixHash}, and its power for the character leaving the window. */
const HASH_BASE = 31;
const HASH_TOP = HASH_BASE ** (MIN_SECRET_LENGTH - 1);

/**
 * A 32-bit polynomial hash of the {@link MIN_SECRET_LENGTH} characters of
 * `text` from `at` (callers check they exist), which {@link Redactor}'s scan
 * rolls forward one character at a time.
 */
function prefixHash(text: string, at: number): number {
  let hash = 0;
  for (let j = at; j < at + MIN_SECRET_LENGTH; j++) {
    hash = (Math.imul(hash, HASH_BASE) + text.charCodeAt(j)) >>> 0;
  }
  return hash;
}

/** A form of a secret as it may appear in text, and what replaces it. */
interface Form {
  text: string;
  reference: string;
}

/** Applies the rules to strings, structured data and log attributes. */
export class Redactor {
  /** Each form a secret may take in text, longest first. */
  #forms: Form[];
  /** The forms by their first {@link MIN_SECRET_LENGTH} characters, longest first (many secrets). */
  #byPrefix?: Map<number, Form[]>;
  /**
   * Every run of {@link MIN_FRAGMENT} characters inside a secret long enough
   * to be cut, with the secret and where the run starts in it (the first time).
   */
  #grams = new Map<string, { secret: Secret; at: number }>();

  /**
   * @param secrets The configured secrets (config/secrets.ts `configSecrets()`);
   *   values shorter than {@link MIN_SECRET_LENGTH} are ignored. When two
   *   share a value, the first one's reference is shown.
   */
  constructor(secrets: readonly Secret[] = []) {
    const forms = new Map<string, string>();
    for (const secret of secrets) {
      if (secret.value.length < MIN_SECRET_LENGTH || forms.has(secret.value)) continue;
      for (const text of encodedForms(secret.value)) {
        if (!forms.has(text)) forms.set(text, secret.reference);
      }
      if (secret.value.length <= MIN_FRAGMENT) continue;
      for (let at = 0; at + MIN_FRAGMENT <= secret.value.length; at++) {
        const gram = secret.value.slice(at, at + MIN_FRAGMENT);
        if (!this.#grams.has(gram)) this.#grams.set(gram, { secret, at });
      }
    }
    this.#forms = [...forms].map(([text, reference]) => ({ text, reference }))
      .sort((a, b) => b.text.length - a.text.length);
    if (this.#forms.length > SCAN_ONCE_ABOVE) {
      this.#byPrefix = new Map();
      for (const form of this.#forms) {
        const key = prefixHash(form.text, 0);
        const list = this.#byPrefix.get(key);
        if (list) list.push(form);
        else this.#byPrefix.set(key, [form]);
      }
    }
  }

  /** How many distinct secrets this redactor replaces. */
  get size(): number {
    return new Set(this.#forms.map((f) => f.reference)).size;
  }

  /**
   * A string with every known secret replaced by its reference (rule 1) and
   * URL credentials by {@link REDACTED} (rule 2). Linear in the text's length
   * whatever the number of secrets.
   *
   * @example
   * ```ts
   * import { REDACTED, Redactor } from "./redact.ts";
   * const r = new Redactor([{ value: "s3cr3t-value", reference: "${API_TOKEN}" }]);
   * const out = r.text("got s3cr3t-value at https://u:p@h/x?token=abc");
   * if (out !== `got \${API_TOKEN} at https://${REDACTED}@h/x?token=${REDACTED}`) throw new Error();
   * ```
   */
  text(value: string): string {
    let out = this.#byPrefix ? this.#scan(value) : value;
    if (!this.#byPrefix) {
      for (const { text, reference } of this.#forms) {
        if (out.includes(text)) out = out.replaceAll(text, reference);
      }
    }
    if (this.#grams.size && out.length >= MIN_FRAGMENT) out = this.#cuts(out);
    if (out.includes("://")) {
      out = out
        .replace(
          URL_USERINFO,
          (all, scheme: string, info: string) =>
            info.includes("${") ? all : `${scheme}${REDACTED}@`,
        )
        .replace(
          URL_SECRET_QUERY,
          (all, name: string, v: string) => v.startsWith("${") ? all : `${name}${REDACTED}`,
        );
    }
    if (HEADER_HINT.test(out)) {
      out = out
        .replace(
          HEADER_LINE,
          (all, head: string, v: string) => keep(v) ? all : `${head}${REDACTED}`,
        )
        .replace(
          HEADER_PAIR,
          (all, head: string, v: string) => keep(v) ? all : `${head}${REDACTED}"`,
        );
    }
    return out;
  }

  /**
   * A deep copy of `value` with {@link text} applied to every string, object
   * keys included; numbers, booleans and null are kept, an `Error` becomes
   * `{ name, message }`. Used for what is written or sent whole: the schema
   * cache, status rows, error bodies.
   *
   * @param value Any JSON-like value (cycles are not followed past depth 64).
   * @returns The redacted copy (the input is not changed).
   * @example
   * ```ts
   * import { Redactor } from "./redact.ts";
   * const r = new Redactor([{ value: "sk-live-123456", reference: "${KEY}" }]);
   * const out = r.json({ error: { message: "bad key sk-live-123456" }, n: 1 });
   * if (out.error.message !== "bad key ${KEY}" || out.n !== 1) throw new Error();
   * ```
   */
  json<T>(value: T): T {
    return this.#value(value, 0, false) as T;
  }

  /**
   * Log attributes with every rule applied, as a new object: an attribute
   * named like a secret keeps its name and loses its value (for an object,
   * each value, so the names stay readable).
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
    return this.#object(attrs, 0, true);
  }

  /**
   * Every form in one pass, leftmost first, the longest where several start
   * at one place. Each position's first {@link MIN_SECRET_LENGTH} characters
   * are looked up by a rolling hash (no string made per position).
   */
  #scan(text: string): string {
    const n = MIN_SECRET_LENGTH;
    if (text.length < n) return text;
    let out = "";
    let last = 0;
    let hash = prefixHash(text, 0);
    for (let i = 0; i + n <= text.length;) {
      const forms = this.#byPrefix!.get(hash);
      const hit = forms?.find((f) => text.startsWith(f.text, i));
      if (hit) {
        out += text.slice(last, i) + hit.reference;
        i += hit.text.length;
        last = i;
        if (i + n <= text.length) hash = prefixHash(text, i);
        continue;
      }
      if (i + n < text.length) {
        hash = (Math.imul(hash - Math.imul(text.charCodeAt(i), HASH_TOP), HASH_BASE) +
          text.charCodeAt(i + n)) >>> 0;
      }
      i++;
    }
    return last === 0 ? text : out + text.slice(last);
  }

  /**
   * Replaces a piece of a secret, {@link MIN_FRAGMENT} characters or more,
   * cut off where text was truncated: its end at the start of the text or of
   * a line, its start at the end of the text or of a line, or before `…`.
   */
  #cuts(text: string): string {
    const edits: [number, number, string][] = [];
    const starts = [0];
    const ends = [text.length];
    for (let i = text.indexOf("\n"); i >= 0; i = text.indexOf("\n", i + 1)) {
      starts.push(i + 1);
      ends.push(i);
    }
    for (let i = text.indexOf("…"); i >= 0; i = text.indexOf("…", i + 1)) ends.push(i);
    for (const p of starts) {
      const found = this.#grams.get(text.slice(p, p + MIN_FRAGMENT));
      if (!found || found.at === 0) continue;
      const piece = found.secret.value.slice(found.at);
      if (text.startsWith(piece, p)) edits.push([p, p + piece.length, found.secret.reference]);
    }
    for (const e of ends) {
      const found = e >= MIN_FRAGMENT && this.#grams.get(text.slice(e - MIN_FRAGMENT, e));
      if (!found) continue;
      const piece = found.secret.value.slice(0, found.at + MIN_FRAGMENT);
      if (piece.length < found.secret.value.length && text.slice(e - piece.length, e) === piece) {
        edits.push([e - piece.length, e, found.secret.reference]);
      }
    }
    if (edits.length === 0) return text;
    edits.sort((a, b) => b[0] - a[0]);
    let out = text;
    let floor = Infinity;
    for (const [from, to, reference] of edits) {
      if (to > floor) continue; // overlaps one already made
      out = out.slice(0, from) + reference + out.slice(to);
      floor = from;
    }
    return out;
  }

  #object(value: Record<string, unknown>, depth: number, log: boolean): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      if (log && SECRET_ATTRIBUTE.test(key)) out[key] = blank(item);
      else if (typeof item === "string" && HEADER_KEY.test(key)) {
        // A credential header's value (rule 3): its reference when configured, else nothing.
        const text = this.text(item);
        out[log ? key : this.text(key)] = keep(text) ? text : REDACTED;
      } else out[log ? key : this.text(key)] = this.#value(item, depth + 1, log);
    }
    return out;
  }

  #value(value: unknown, depth: number, log: boolean): unknown {
    if (typeof value === "string") return this.text(value);
    if (value === null || typeof value !== "object" || depth > 64) return value;
    if (value instanceof Error) {
      return this.#object({ name: value.name, message: value.message }, depth, log);
    }
    if (Array.isArray(value)) return value.map((v) => this.#value(v, depth + 1, log));
    return this.#object(value as Record<string, unknown>, depth, log);
  }
}

const encoder = new TextEncoder();

/**
 * A secret's value and the encodings of it a server may echo (rule 1), each
 * at least {@link MIN_SECRET_LENGTH} characters: JSON-escaped; percent-encoded
 * (upper- and lower-case hex); base64 padded and unpadded, and base64url
 * (RFC 4648 sections 4 and 5) of its UTF-8 bytes, as a header of its own
 * (`Basic <base64 of user:password>`) is echoed; and the part of its base64
 * that is the same wherever it sits inside longer encoded bytes
 * (`base64("x-token:" + secret)`): one per alignment (0, 1 or 2 bytes before
 * it), without the characters its neighbours share, kept when
 * {@link MIN_FRAGMENT} characters or more.
 *
 * @param value The secret (at least {@link MIN_SECRET_LENGTH} characters).
 * @returns Distinct forms, the value first.
 */
export function encodedForms(value: string): string[] {
  const percent = encodeURIComponent(value);
  const forms = [
    value,
    JSON.stringify(value).slice(1, -1),
    percent,
    percent.replace(/%[0-9A-F]{2}/g, (p) => p.toLowerCase()),
  ];
  const bytes = encoder.encode(value);
  const padded = bytes.toBase64();
  forms.push(padded, padded.replace(/=+$/, ""));
  forms.push(bytes.toBase64({ alphabet: "base64url", omitPadding: true }));
  for (let before = 0; before < 3; before++) {
    const shifted = new Uint8Array(before + bytes.length);
    shifted.set(bytes, before);
    // Characters of 6 bits that hold only the secret's bits: from bit 8·before to its last byte.
    const from = Math.ceil((8 * before) / 6);
    const to = Math.floor((8 * (before + bytes.length)) / 6);
    if (to - from < MIN_FRAGMENT) continue;
    for (const alphabet of ["base64", "base64url"] as const) {
      forms.push(shifted.toBase64({ alphabet, omitPadding: true }).slice(from, to));
    }
  }
  return [...new Set(forms)];
}

/** A credential header's value that may stay: already a reference, or already redacted. */
function keep(value: string): boolean {
  return value.includes("${") || value === REDACTED || value === "";
}

/** A secret-named value: objects keep their keys, everything else becomes {@link REDACTED}. */
function blank(value: unknown): unknown {
  if (value === undefined || value === null || value === "") return value;
  if (typeof value === "object" && !Array.isArray(value)) {
    return Object.fromEntries(Object.keys(value as object).map((k) => [k, REDACTED]));
  }
  return REDACTED;
}
