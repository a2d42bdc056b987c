/**
 * The secrets a configuration gives its servers, each with the reference
 * shown in its place (decision 0017): read from the document as written, so
 * a value that came from `${API_TOKEN}` is shown as `${API_TOKEN}` and a
 * literal one as the place it is written, `${mcpServers.api.env.API_KEY}`.
 *
 * Where secrets are looked for, per server entry:
 *
 * - every `${VAR}` expanded in any field (`command`, `args`, `env`, `cwd`,
 *   `url`, `headers`, `auth`): its value, shown as `${VAR}`;
 * - literal values of `env` and `headers`, and every string in `auth` but its
 *   `type`, `name`, `scopes` and `metadataUrl`: the whole value, and for a header each word after the first (the
 *   token of `Bearer <token>`) and, for `Basic <base64>`, the `user:password`
 *   it decodes to and the password;
 * - the `url`'s user name, password and query values (`?key=…`), and its
 *   `user:password` (shown as `${mcpServers.<name>.url.userinfo}`), which mcpx
 *   sends as a Basic header (config/url_credentials.ts), and a `basic` auth
 *   block's `username:password` (shown as `${mcpServers.<name>.auth.userinfo}`);
 * - a literal `args` value given to a flag named like a secret
 *   (`--token=…`, or `--api-key` followed by the value).
 *
 * Which of those values count is core/redact.ts `isSecretValue()`: values
 * under 6 characters never do, and ordinary ones (a word, a number, an
 * absolute path) only when their key, variable or place says credential.
 *
 * @module
 */

import { isSecretValue, Redactor, type Secret, SECRET_NAME } from "../core/redact.ts";
import { expandVars } from "./expand.ts";
import { interpolationEnv } from "./user_env.ts";
import { formatPath, type JsonPath } from "./_problems.ts";
import { basicCredentials, urlCredentials } from "./url_credentials.ts";

const REFERENCE = /\$\{[A-Za-z_][A-Za-z0-9_]*(?::-[^}]*)?\}/g;
const FLAG_WITH_VALUE = /^--?([A-Za-z][\w.-]*)=(.+)$/s;
const FLAG = /^--?([A-Za-z][\w.-]*)$/;
/** Headers holding cookies (RFC 6265): a list of `name=value` pairs, each a credential. */
const COOKIE_HEADER = /^(set-)?cookie$/i;
/** Fields of an `auth` block (config/auth.ts) that never hold a secret. */
const AUTH_NOT_SECRET = new Set(["type", "name", "scopes", "metadataUrl"]);

type Obj = Record<string, unknown>;
const isObject = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * For a value of an `auth` block of type `env` (`vars.<NAME>`, or `value`
 * beside `name`): whether its variable's name says credential; undefined
 * for any other `auth` value (all of which are credentials).
 */
function envAuthName(auth: unknown, path: JsonPath): boolean | undefined {
  if (!isObject(auth) || auth.type !== "env") return undefined;
  if (path[3] === "vars" && path.length === 5) return SECRET_NAME.test(String(path[4]));
  if (path[3] === "value") return SECRET_NAME.test(String(auth.name ?? ""));
  return undefined;
}

/**
 * Every secret the document's servers are given, variables' values before
 * literals (so a value written both ways shows as its variable).
 *
 * @param document The configuration as parsed (`LoadedConfig.document`), before expansion.
 * @param env The variables it is expanded with.
 * @returns Secrets in the order found; a value may repeat (the first reference wins in
 *   core/redact.ts `Redactor`).
 * @example
 * ```ts
 * import { configSecrets } from "./secrets.ts";
 * const secrets = configSecrets({ mcpServers: { api: {
 *   url: "https://x.test/mcp", headers: { Authorization: "Bearer ${API_TOKEN}" },
 * } } }, { API_TOKEN: "sk-live-123456" });
 * if (secrets[0].reference !== "${API_TOKEN}") throw new Error();
 * ```
 */
export function configSecrets(document: Obj, env: Record<string, string | undefined>): Secret[] {
  const variables: Secret[] = [];
  const literals: Secret[] = [];
  const servers = isObject(document.mcpServers) ? document.mcpServers : {};
  for (const [name, entry] of Object.entries(servers)) {
    if (isObject(entry)) entrySecrets(entry, ["mcpServers", name], env, variables, literals);
  }
  return [...variables, ...literals];
}

/**
 * Every secret the items of declaration files (config/derived_servers.ts:
 * `paths.apis`, `paths.adapters`) give the servers derived from them, found
 * as in a server entry (an API's `auth`, `headers` and `baseUrl` as a remote's
 * `auth`, `headers` and `url`), each `${VAR}` shown as `${VAR}` and a literal
 * as its place in its file (`${apis[0].auth.value}`).
 *
 * @param declarations Each item as written, with its kind and index in its file.
 * @param env The variables the items are expanded with.
 * @returns Secrets, variables' values before literals.
 * @example
 * ```ts
 * import { declarationSecrets } from "./secrets.ts";
 * const [s] = declarationSecrets([{ kind: "apis", index: 0, item: {
 *   name: "pets", auth: { type: "bearer", token: "${PET_KEY}" },
 * } }], { PET_KEY: "sekrit123" });
 * if (s.value !== "sekrit123" || s.reference !== "${PET_KEY}") throw new Error();
 * ```
 */
export function declarationSecrets(
  declarations: readonly { kind: string; index: number; item: Obj }[],
  env: Record<string, string | undefined>,
): Secret[] {
  const variables: Secret[] = [];
  const literals: Secret[] = [];
  for (const { kind, index, item } of declarations) {
    const entry = typeof item.baseUrl === "string" ? { ...item, url: item.baseUrl } : item;
    entrySecrets(entry, [kind, index], env, variables, literals);
  }
  return [...variables, ...literals];
}

/** Adds the secrets of one server entry (or declared item) at `at` to `variables` and `literals`. */
function entrySecrets(
  entry: Obj,
  at: JsonPath,
  env: Record<string, string | undefined>,
  variables: Secret[],
  literals: Secret[],
): void {
  const ref = (path: JsonPath) => `\${${formatPath(path)}}`;
  /** Adds the variables `raw` expands to, and returns its literal text. */
  const expand = (raw: string, named: boolean): { value: string; literal: string } => {
    const { value, used } = expandVars(raw, env);
    for (const u of used) {
      if (isSecretValue(u.value, named || SECRET_NAME.test(u.name))) {
        variables.push({ value: u.value, reference: `\${${u.name}}` });
      }
    }
    return { value, literal: raw.replace(REFERENCE, " ") };
  };
  const literal = (value: string, named: boolean, path: JsonPath) => {
    if (isSecretValue(value, named)) literals.push({ value, reference: ref(path) });
  };

  for (const [key, raw] of stringsOf(entry.env)) {
    const named = SECRET_NAME.test(key);
    const { value, literal: text } = expand(raw, named);
    if (text === raw) literal(value, named, [...at, "env", key]);
  }
  for (const [key, raw] of stringsOf(entry.headers)) {
    const { value, literal: text } = expand(raw, true);
    const path = [...at, "headers", key];
    if (text === raw) literal(value, true, path);
    if (COOKIE_HEADER.test(key)) {
      // Every `name=value` of a cookie, and its value, as a server may echo one alone
      // (`Set-Cookie: sid=…; Path=/`): a cookie header has no scheme word.
      for (const pair of raw.split(";")) {
        const cookie = pair.trim();
        if (cookie.includes("${")) continue; // a variable's value is a secret of its own
        literal(cookie, true, path);
        if (cookie.includes("=")) literal(cookie.slice(cookie.indexOf("=") + 1), true, path);
      }
      continue;
    }
    // The first word of a header is its scheme (`Bearer`), the rest its credentials.
    const parts = words(raw.replace(REFERENCE, " "));
    const skip = /^\s*\S+\s/.test(raw) ? 1 : 0;
    for (const word of parts.slice(skip)) literal(word, true, path);
    // A Basic credential's decoded `user:password` and password, as a server may echo them.
    for (const decoded of basicParts(value)) literal(decoded, true, path);
  }
  for (const [path, raw] of leaves(entry.auth, [...at, "auth"])) {
    // What names a credential or where to get one is not one (`X-Api-Key`, a scope).
    if (AUTH_NOT_SECRET.has(String(path[3]))) continue;
    // An `env` block's variables are judged as `env`'s are, by their names: a path or a word
    // under a name like LD_PRELOAD stays visible where a project's file is reviewed for trust.
    const named = envAuthName(entry.auth, path) ?? true;
    const { value, literal: text } = expand(raw, named);
    if (text === raw) literal(value, named, path);
  }
  // A `basic` block's `user:password`, as its header carries it (base64 forms: core/redact.ts).
  if (isObject(entry.auth) && entry.auth.type === "basic") {
    const { username, password } = entry.auth;
    // Only when both are known: an unset reference left in it is no secret (and would match
    // the reference's own text).
    const known = (v: unknown): v is string =>
      typeof v === "string" && expandVars(v, env).missing.length === 0;
    if (known(username) && known(password)) {
      const userPass = `${expand(username, true).value}:${expand(password, true).value}`;
      literal(userPass, true, [...at, "auth", "userinfo"]);
    }
  }
  if (typeof entry.url === "string") {
    const { value } = expand(entry.url, false);
    for (const [part, v, named] of urlParts(value)) literal(v, named, [...at, "url", ...part]);
  }
  const args = Array.isArray(entry.args) ? entry.args : [];
  args.forEach((arg, i) => {
    if (typeof arg !== "string") return;
    const { value, literal: text } = expand(arg, false);
    if (text !== arg) return;
    const given = FLAG_WITH_VALUE.exec(value);
    const previous = typeof args[i - 1] === "string" ? FLAG.exec(args[i - 1] as string) : null;
    if (given && SECRET_NAME.test(given[1])) literal(given[2], true, [...at, "args", i]);
    else if (previous && SECRET_NAME.test(previous[1])) literal(value, true, [...at, "args", i]);
  });
  for (const key of ["command", "cwd"]) {
    if (typeof entry[key] === "string") expand(entry[key] as string, false);
  }
}

/**
 * The redactor for a loaded configuration: its {@link configSecrets}, and
 * the secrets of its declared namespaces ({@link declarationSecrets}) once
 * config/derived_servers.ts `withDerivedServers` has added them.
 *
 * @param config A configuration as loaded (its `document` is read).
 * @param env The process environment it was expanded with (the user-level .env's values that
 *   `loadConfig()` read are added under it: config/user_env.ts).
 * @returns A core/redact.ts `Redactor`.
 */
export function configRedactor(
  config: { document: Obj; declaredSecrets?: readonly Secret[] },
  env: Record<string, string | undefined>,
): Redactor {
  // Values `${VAR}` took from the user-level .env are secrets as the environment's are.
  return new Redactor([
    ...configSecrets(config.document, interpolationEnv(env)),
    ...config.declaredSecrets ?? [],
  ]);
}

function stringsOf(value: unknown): [string, string][] {
  if (!isObject(value)) return [];
  return Object.entries(value).filter((e): e is [string, string] => typeof e[1] === "string");
}

/** Every string inside `value` with its JSON path. */
function leaves(value: unknown, at: JsonPath, depth = 0): [JsonPath, string][] {
  if (typeof value === "string") return [[at, value]];
  if (depth > 8 || value === null || typeof value !== "object") return [];
  const entries: [string | number, unknown][] = Array.isArray(value)
    ? value.map((v, i) => [i, v])
    : Object.entries(value);
  return entries.flatMap(([k, v]) => leaves(v, [...at, k], depth + 1));
}

/**
 * The `user:password` and the password inside a header value
 * `Basic <base64>` (RFC 7617), or nothing when it is not one.
 */
function basicParts(header: string): string[] {
  const match = /^\s*basic\s+([A-Za-z0-9+/]+=*)\s*$/i.exec(header);
  if (!match) return [];
  let userPass: string;
  try {
    userPass = new TextDecoder("utf-8", { fatal: true }).decode(Uint8Array.fromBase64(match[1]));
  } catch {
    return [];
  }
  const colon = userPass.indexOf(":");
  return colon < 0 ? [] : [userPass, userPass.slice(colon + 1)];
}

function words(text: string): string[] {
  return text.split(/[\s,;]+/).filter((w) => w !== "");
}

/**
 * A URL's user name, password, its `user:password` as a Basic header carries
 * it (config/url_credentials.ts, shown as `url.userinfo`), and its query
 * values: `[path under url, value, named]`.
 */
function urlParts(url: string): [JsonPath, string, boolean][] {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return [];
  }
  const out: [JsonPath, string, boolean][] = [];
  const credentials = urlCredentials(url);
  if (credentials) {
    out.push([["userinfo"], basicCredentials(credentials), true]);
    if (credentials.username) out.push([["username"], credentials.username, true]);
    if (credentials.password) out.push([["password"], credentials.password, true]);
  }
  for (const [key, value] of parsed.searchParams) {
    out.push([["query", key], value, SECRET_NAME.test(key)]);
  }
  return out;
}
