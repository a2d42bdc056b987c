/**
 * Reading a server entry's `auth` block into a config/auth.ts `ServerAuth`:
 * its kind, its fields (each string `${VAR}` expanded, an unset variable
 * making the server unavailable as in the process keys), whether the kind
 * suits the transport, and whether it says the same thing as another key of
 * the entry. Private to config/.
 *
 * Overlaps are refused rather than ranked (decision 0041): an `auth` block
 * that sets `Authorization` beside a configured `Authorization` header, a
 * header, query parameter or variable the entry also sets elsewhere. The one
 * precedence kept is the older rule for a URL's user information
 * (config/url_credentials.ts): any configured `Authorization` wins over it,
 * now including the one an `auth` block sets, with a warning.
 *
 * Source: spec 000, "Credentials"; spec 002's `auth` block.
 *
 * @module
 */

import { AUTH_TYPES, type AuthType, type ServerAuth, STDIO_AUTH_TYPES } from "./auth.ts";
import type { TransportKind } from "./types.ts";
import { describeValue } from "./_describe.ts";
import { formatPath, type JsonPath, type Problems } from "./_problems.ts";
import { didYouMean } from "./_suggest.ts";
import { isObject, type Obj } from "./_read.ts";
import { authorizationHeader, urlCredentials } from "./url_credentials.ts";

/** What {@link readAuth} needs besides the block. */
export interface AuthContext {
  file: string | null;
  transport: TransportKind;
  /** Expands `${VAR}` in a string at a path, recording unset variables and malformed references. */
  expand: (value: string, path: JsonPath) => string;
  /** The entry's other keys, expanded, to find overlaps. */
  headers: Record<string, string>;
  env: Record<string, string>;
  url?: string;
  problems: Problems;
  warnings: string[];
}

/** The fields each kind takes besides `type`, and an example of them for messages. */
const FIELDS: Record<AuthType, { required: string[]; optional: string[]; example: string }> = {
  bearer: { required: ["token"], optional: [], example: `"token": "\${API_TOKEN}"` },
  basic: {
    required: ["username", "password"],
    optional: [],
    example: `"username": "me", "password": "\${API_PASSWORD}"`,
  },
  header: {
    required: ["name", "value"],
    optional: [],
    example: `"name": "X-Api-Key", "value": "\${API_KEY}"`,
  },
  query: {
    required: ["name", "value"],
    optional: [],
    example: `"name": "key", "value": "\${API_KEY}"`,
  },
  env: {
    required: [],
    optional: ["name", "value", "vars"],
    example: `"name": "API_KEY", "value": "\${API_KEY}"`,
  },
  oauth: {
    required: [],
    optional: ["clientId", "clientSecret", "scopes", "metadataUrl"],
    example: `"clientId": "\${CLIENT_ID}", "scopes": ["read"]`,
  },
};

/** An HTTP header name: an RFC 9110 section 5.6.2 token. */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
/** A variable name a child's environment can hold portably. */
const VARIABLE_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/**
 * Reads `entry.auth`. Problems of the file go to `ctx.problems`; a URL whose
 * user information is no longer sent warns in `ctx.warnings`.
 *
 * @param value The block as written (`entry.auth`); undefined: none.
 * @param at The block's JSON path (`["mcpServers", name, "auth"]`).
 * @param ctx Transport, expansion, the entry's other keys and the collectors.
 * @returns The block, or undefined when absent or wrong.
 */
export function readAuth(
  value: unknown,
  at: JsonPath,
  ctx: AuthContext,
): ServerAuth | undefined {
  if (value === undefined) return undefined;
  const { problems } = ctx;
  const before = problems.list.length;
  const kinds = AUTH_TYPES.map((t) => `"${t}"`).join(", ");
  if (!isObject(value)) {
    problems.add(
      at,
      `must be an object with a "type" (${kinds}), got ${describeValue(value)}; write e.g. ` +
        `{ "type": "bearer", "token": "\${API_TOKEN}" }`,
    );
    return undefined;
  }
  const type = value.type;
  if (typeof type !== "string" || !(AUTH_TYPES as readonly string[]).includes(type)) {
    problems.add(
      [...at, "type"],
      `must be one of ${kinds}, got ${describeValue(type)}${
        typeof type === "string" ? didYouMean(type, AUTH_TYPES) : ""
      }; write e.g. "bearer"`,
    );
    return undefined;
  }
  const kind = type as AuthType;
  const { required, optional, example } = FIELDS[kind];
  const accepted = ["type", ...required, ...optional];
  for (const key of Object.keys(value)) {
    if (accepted.includes(key)) continue;
    problems.add(
      [...at, key],
      `is not a field of a "${kind}" block${
        didYouMean(key, accepted) || "; remove it"
      } (accepted: ${accepted.join(", ")})`,
    );
  }
  for (const key of required) {
    if (value[key] === undefined) {
      problems.add(
        at,
        `a "${kind}" block needs "${key}", got keys ${describeValue(Object.keys(value))}; ` +
          `write e.g. { "type": "${kind}", ${example} }`,
      );
    }
  }
  const transportProblem = wrongTransport(kind, ctx.transport);
  if (transportProblem) problems.add([...at, "type"], transportProblem);
  if (problems.list.length > before) return undefined;

  /** A string field, expanded; undefined (with a problem) when it is not a string. */
  const text = (block: Obj, key: string, path: JsonPath, nonEmpty: boolean) => {
    const v = block[key];
    if (typeof v !== "string" || (nonEmpty && v === "")) {
      problems.add(
        [...path, key],
        `must be a ${nonEmpty ? "non-empty " : ""}string, got ${describeValue(v)}; write e.g. ` +
          `"\${${
            key === "token" || key === "value" || key === "password" ? "API_TOKEN" : "NAME"
          }}"`,
      );
      return undefined;
    }
    return ctx.expand(v, [...path, key]);
  };
  /** A name as written (never expanded: it is not a secret), checked against `pattern`. */
  const name = (v: unknown, path: JsonPath, pattern: RegExp, what: string, e: string) => {
    if (typeof v === "string" && pattern.test(v)) return v;
    problems.add(path, `must be ${what}, got ${describeValue(v)}; write e.g. "${e}"`);
    return undefined;
  };

  let auth: ServerAuth | undefined;
  switch (kind) {
    case "bearer": {
      const token = text(value, "token", at, true);
      if (token !== undefined) auth = { type: "bearer", token };
      break;
    }
    case "basic": {
      const username = text(value, "username", at, true);
      const password = text(value, "password", at, false);
      if (username !== undefined && username.includes(":")) {
        problems.add(
          [...at, "username"],
          `must not contain ":" (HTTP Basic separates the user name from the password with it, ` +
            `RFC 7617); use a user name without one`,
        );
      }
      if (username !== undefined && password !== undefined) {
        auth = { type: "basic", username, password };
      }
      break;
    }
    case "header":
    case "query": {
      const n = kind === "header"
        ? name(value.name, [...at, "name"], HEADER_NAME, "an HTTP header name", "X-Api-Key")
        : name(value.name, [...at, "name"], /^.+$/s, "a non-empty string", "key");
      const v = text(value, "value", at, false);
      if (n !== undefined && v !== undefined) auth = { type: kind, name: n, value: v };
      break;
    }
    case "env":
      auth = readEnv(value, at, ctx, name, text);
      break;
    case "oauth":
      auth = readOAuth(value, at, ctx, text);
      break;
  }
  if (auth === undefined || problems.list.length > before) return undefined;
  checkOverlaps(auth, at, ctx);
  return problems.list.length > before ? undefined : auth;
}

type Text = (block: Obj, key: string, path: JsonPath, nonEmpty: boolean) => string | undefined;
type Name = (v: unknown, path: JsonPath, pattern: RegExp, what: string, e: string) =>
  | string
  | undefined;

function readEnv(value: Obj, at: JsonPath, ctx: AuthContext, name: Name, text: Text) {
  const single = value.name !== undefined || value.value !== undefined;
  if (single === (value.vars !== undefined)) {
    ctx.problems.add(
      at,
      single
        ? `has both "name"/"value" and "vars"; write one variable as "name" and "value", or ` +
          `several as "vars": { "NAME": "\${NAME}" }`
        : `an "env" block needs "name" and "value", or "vars"; write e.g. ` +
          `{ "type": "env", "name": "API_KEY", "value": "\${API_KEY}" }`,
    );
    return undefined;
  }
  const variable = (v: unknown, path: JsonPath) =>
    name(v, path, VARIABLE_NAME, "a variable name (letters, digits and _)", "API_KEY");
  const vars: Record<string, string> = {};
  if (single) {
    const n = variable(value.name, [...at, "name"]);
    const v = text(value, "value", at, false);
    if (n === undefined || v === undefined) return undefined;
    vars[n] = v;
    return { type: "env" as const, vars };
  }
  if (!isObject(value.vars) || Object.keys(value.vars).length === 0) {
    ctx.problems.add(
      [...at, "vars"],
      `must be an object of at least one variable name to value, got ${
        describeValue(value.vars)
      }; write e.g. { "API_KEY": "\${API_KEY}" }`,
    );
    return undefined;
  }
  let ok = true;
  for (const key of Object.keys(value.vars)) {
    const n = variable(key, [...at, "vars", key]);
    const v = text(value.vars, key, [...at, "vars"], false);
    if (n === undefined || v === undefined) ok = false;
    else vars[n] = v;
  }
  return ok ? { type: "env" as const, vars } : undefined;
}

function readOAuth(value: Obj, at: JsonPath, ctx: AuthContext, text: Text) {
  const out: ServerAuth & { type: "oauth" } = { type: "oauth" };
  let ok = true;
  for (const key of ["clientId", "clientSecret", "metadataUrl"] as const) {
    if (value[key] === undefined) continue;
    const v = text(value, key, at, true);
    if (v === undefined) ok = false;
    else out[key] = v;
  }
  if (out.clientSecret !== undefined && value.clientId === undefined) {
    ctx.problems.add(
      [...at, "clientSecret"],
      `is set without "clientId"; a client secret belongs to a registered client: add its ` +
        `"clientId", or remove "clientSecret" to register one dynamically`,
    );
    ok = false;
  }
  if (out.metadataUrl !== undefined && !/^\$\{/.test(String(value.metadataUrl))) {
    let parsed: URL | undefined;
    try {
      parsed = new URL(out.metadataUrl);
    } catch { /* reported below */ }
    if (!parsed || (parsed.protocol !== "https:" && parsed.protocol !== "http:")) {
      ctx.problems.add(
        [...at, "metadataUrl"],
        `must be an http:// or https:// URL, got ${describeValue(out.metadataUrl)}; write e.g. ` +
          `"https://auth.example.com/.well-known/oauth-authorization-server"`,
      );
      ok = false;
    }
  }
  if (value.scopes !== undefined) {
    const scopes = value.scopes;
    // RFC 6749 section 3.3: a scope token is printable ASCII without space, `"` or `\`.
    const bad = Array.isArray(scopes)
      ? scopes.findIndex((s) => typeof s !== "string" || !/^[\x21\x23-\x5B\x5D-\x7E]+$/.test(s))
      : -1;
    if (!Array.isArray(scopes) || bad !== -1) {
      ctx.problems.add(
        Array.isArray(scopes) ? [...at, "scopes", bad] : [...at, "scopes"],
        `must be an array of scope names (no spaces, RFC 6749 section 3.3), got ${
          describeValue(Array.isArray(scopes) ? scopes[bad] : scopes)
        }; write e.g. ["read", "write"]`,
      );
      ok = false;
    } else out.scopes = [...scopes] as string[];
  }
  return ok ? out : undefined;
}

/** The problem with a kind on a transport, or undefined. Spec 000, "Credentials". */
function wrongTransport(kind: AuthType, transport: TransportKind): string | undefined {
  const stdio = transport === "stdio";
  if (stdio === STDIO_AUTH_TYPES.includes(kind)) return undefined;
  if (!stdio) {
    return `is "env", which sets variables of a child process, but this is a remote ` +
      `(${transport}) server; send its credentials with "bearer", "basic", "header", "query" ` +
      `or "oauth"`;
  }
  if (kind === "oauth") {
    return `is "oauth", which is for remote servers (a stdio server takes its credentials from ` +
      `its environment, MCP "Authorization"); use { "type": "env", "name": "API_KEY", ` +
      `"value": "\${API_KEY}" }`;
  }
  return `is "${kind}", which is sent with HTTP requests, but this is a stdio server; give it ` +
    `its credentials in its environment: { "type": "env", "name": "API_KEY", "value": "\${API_KEY}" }`;
}

/** Refuses an `auth` block that says what another key of the entry says too. */
function checkOverlaps(auth: ServerAuth, at: JsonPath, ctx: AuthContext): void {
  const server = at.slice(0, -1);
  const where = (...path: (string | number)[]) => formatPath([...server, ...path]);
  const sets = auth.type === "oauth" ? ["Authorization"] : Object.keys(authHeadersOf(auth));
  for (const header of sets) {
    const configured = Object.keys(ctx.headers).find((h) =>
      h.toLowerCase() === header.toLowerCase()
    );
    if (configured === undefined) continue;
    ctx.problems.add(
      at,
      `sets the ${header} header, and so does ${where("headers", configured)}; keep one of them ` +
        `(the "auth" block, whose value is shown as its reference, is the one to keep)`,
    );
  }
  if (auth.type === "query" && ctx.url !== undefined) {
    let has = false;
    try {
      has = new URL(ctx.url).searchParams.has(auth.name);
    } catch { /* an unset variable in the URL: nothing to compare */ }
    if (has) {
      ctx.problems.add(
        at,
        `sets the query parameter "${auth.name}", and so does ${where("url")}; remove it from ` +
          `one of them`,
      );
    }
  }
  if (auth.type === "env") {
    for (const variable of Object.keys(auth.vars)) {
      if (!Object.hasOwn(ctx.env, variable)) continue;
      ctx.problems.add(
        at,
        `sets the variable ${variable}, and so does ${where("env", variable)}; keep one of them`,
      );
    }
  }
  const authorization = sets.some((h) => h.toLowerCase() === "authorization");
  if (
    authorization && ctx.url !== undefined && urlCredentials(ctx.url) &&
    authorizationHeader(ctx.headers) === undefined
  ) {
    ctx.warnings.push(
      `config ${ctx.file ?? "(none)"}: ${where("url")}: its user information (user:password@) ` +
        `is not sent, because ${formatPath(at)} sets the Authorization header; remove one of them`,
    );
  }
}

/** The header names a static kind sets (values do not matter here). */
function authHeadersOf(auth: ServerAuth): Record<string, true> {
  if (auth.type === "bearer" || auth.type === "basic") return { Authorization: true };
  if (auth.type === "header") return { [auth.name]: true };
  return {};
}
