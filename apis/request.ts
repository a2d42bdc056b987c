/**
 * Calling one OpenAPI operation: the tool's argument object turned into an
 * HTTP request (path parameters escaped, query parameters in OpenAPI's
 * default `form` style, headers, a JSON or form body), the API's `auth`
 * block applied as for a remote MCP server (config/auth.ts), and the answer
 * as an MCP tool result: its body as text (JSON as JSON), an error result
 * for a status of 400 or more (decision 0053).
 *
 * @module
 */

import { McpxError } from "../core/errors.ts";
import { authHeaders, authUrl, type ServerAuth } from "../config/auth.ts";
import type { ApiOperation } from "./operations.ts";
import { checkArguments } from "./arguments.ts";
import { describeFetchFailure } from "./fetch_failure.ts";

/** An MCP `tools/call` result (MCP 2025-06-18, "Tool Result"). */
export interface ToolResult {
  [key: string]: unknown;
  content: (
    | { type: "text"; text: string }
    | { type: "image"; data: string; mimeType: string }
    | { type: "resource"; resource: { uri: string; mimeType: string; blob: string } }
  )[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

/** What a call needs besides the operation and its arguments. */
export interface CallOptions {
  /** The API's `auth` block (bearer, basic, header or query). */
  auth?: ServerAuth;
  /** Headers sent with every request (a declaration's `headers`, `--header`). */
  headers?: Record<string, string>;
  /** How long the request may take, in ms (default 60 000). */
  timeoutMs?: number;
  signal?: AbortSignal;
  /** The fetch to use (tests). */
  fetch?: typeof fetch;
}

/** The request an operation's arguments make, before auth: for tests and `--json` dry views. */
export interface BuiltRequest {
  url: string;
  method: string;
  headers: Record<string, string>;
  body?: string;
}

/**
 * The request for `operation` with `args`.
 *
 * @throws {McpxError} Code `api-arguments` when a required argument is
 *   missing, an argument is not one the operation takes, an argument breaks
 *   the operation's schema (apis/arguments.ts), or a path parameter is not a
 *   string, number or boolean, is empty, or is `.` or `..`; code `api-spec` when the
 *   operation has no usable base URL.
 */
export function buildRequest(operation: ApiOperation, args: Record<string, unknown>): BuiltRequest {
  const { places, inputSchema } = operation;
  const unknown = Object.keys(args).filter((k) => places[k] === undefined);
  if (unknown.length > 0) {
    throw new McpxError(
      "api-arguments",
      `${operation.tool} takes no argument ${unknown.map((k) => JSON.stringify(k)).join(", ")}; ` +
        `it takes ${Object.keys(places).join(", ") || "none"}`,
    );
  }
  const missing = (inputSchema.required ?? []).filter((k) => args[k] === undefined);
  if (missing.length > 0) {
    throw new McpxError(
      "api-arguments",
      `${operation.tool} needs ${missing.map((k) => JSON.stringify(k)).join(", ")}`,
    );
  }
  checkArguments(operation, args);
  if (typeof operation.baseUrl !== "string") {
    throw new McpxError("api-spec", `${operation.tool}: ${operation.baseUrl.problem}`);
  }
  let path = operation.path;
  const query = new URLSearchParams();
  const headers: Record<string, string> = {};
  let body: string | undefined;
  for (const [key, value] of Object.entries(args)) {
    if (value === undefined || value === null) continue;
    const place = places[key];
    switch (place.in) {
      case "path": {
        if (typeof value === "object") {
          throw new McpxError(
            "api-arguments",
            `${operation.tool}: the path parameter ${JSON.stringify(key)} must be a string, ` +
              `number or boolean, got ${JSON.stringify(value)}`,
          );
        }
        const whole = operation.path.split("/").includes(`{${place.name}}`);
        checkPathValue(operation.tool, key, String(value), whole);
        // Escaped whole: a "/" in a value must not change which endpoint is called.
        path = path.split(`{${place.name}}`).join(encodeURIComponent(String(value)));
        break;
      }
      case "query":
        addQuery(query, place.name, value, place.explode ?? true);
        break;
      case "header":
        headers[place.name] = Array.isArray(value) ? value.map(String).join(",") : String(value);
        break;
      case "body":
        if (operation.bodyType === "application/x-www-form-urlencoded" && isRecord(value)) {
          const form = new URLSearchParams();
          for (const [k, v] of Object.entries(value)) addQuery(form, k, v, true);
          body = form.toString();
        } else if (typeof value === "string" && !/json/i.test(operation.bodyType ?? "")) {
          body = value;
        } else body = JSON.stringify(value);
        headers["Content-Type"] = operation.bodyType ?? "application/json";
        break;
    }
  }
  const base = operation.baseUrl.endsWith("/") ? operation.baseUrl.slice(0, -1) : operation.baseUrl;
  const url = new URL(base + path);
  for (const [k, v] of query) url.searchParams.append(k, v);
  return {
    url: url.href,
    method: operation.method.toUpperCase(),
    headers,
    ...(body !== undefined ? { body } : {}),
  };
}

/**
 * Calls `operation` with `args` and returns its answer as a tool result. A
 * status of 400 or more is an error result (`isError`) carrying the status
 * and the body; a network failure or a timeout is thrown.
 *
 * @throws {McpxError} Code `api-arguments`/`api-spec` from {@link buildRequest};
 *   code `api-request` when the service cannot be reached or does not
 *   answer within `timeoutMs` (the message names the URL without query credentials).
 */
export async function callOperation(
  operation: ApiOperation,
  args: Record<string, unknown>,
  options: CallOptions = {},
): Promise<ToolResult> {
  const built = buildRequest(operation, args);
  const url = authUrl(built.url, options.auth);
  const headers = {
    Accept: "application/json, */*;q=0.8",
    ...options.headers,
    ...built.headers,
    ...authHeaders(options.auth),
  };
  const timeout = AbortSignal.timeout(options.timeoutMs ?? 60_000);
  const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
  let response: Response;
  try {
    response = await (options.fetch ?? fetch)(url, {
      method: built.method,
      headers,
      ...(built.body !== undefined ? { body: built.body } : {}),
      signal,
      redirect: "follow",
    });
  } catch (error) {
    const why = timeout.aborted
      ? `no answer within ${Math.round((options.timeoutMs ?? 60_000) / 1000)} s`
      : options.signal?.aborted
      ? "cancelled"
      : describeFetchFailure(error, built.url, "operation");
    // The runtime's message may quote the URL, which a `query` block gave its credential.
    throw new McpxError(
      "api-request",
      `${operation.tool}: ${built.method} ${built.url} failed: ${
        withoutSecrets(why, options.auth)
      }`,
    );
  }
  return await resultOf(response, built);
}

/** A response as a tool result. */
async function resultOf(response: Response, built: BuiltRequest): Promise<ToolResult> {
  const type = response.headers.get("content-type") ?? "";
  const bytes = new Uint8Array(await response.arrayBuffer());
  const isError = response.status >= 400;
  const status = `HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ""}`;
  const textual = type === "" ||
    /^text\/|json|xml|yaml|javascript|x-www-form-urlencoded/i.test(type);
  if (!textual) {
    const mimeType = type.split(";")[0].trim();
    const data = bytes.toBase64();
    const part = mimeType.startsWith("image/")
      ? { type: "image" as const, data, mimeType }
      : { type: "resource" as const, resource: { uri: built.url, mimeType, blob: data } };
    return { content: [part], ...(isError ? { isError } : {}) };
  }
  const text = new TextDecoder().decode(bytes);
  let structured: Record<string, unknown> | undefined;
  if (/json/i.test(type)) {
    try {
      const parsed = JSON.parse(text);
      if (isRecord(parsed)) structured = parsed;
    } catch { /* not JSON after all: the text as it came */ }
  }
  if (isError) {
    return { content: [{ type: "text", text: `${status}${text ? `\n${text}` : ""}` }], isError };
  }
  return {
    content: [{ type: "text", text: text === "" ? status : text }],
    ...(structured !== undefined ? { structuredContent: structured } : {}),
  };
}

/**
 * Refuses a path parameter's value that escaping cannot keep inside its
 * segment: empty (`GET /pets/` is another endpoint, or none), or, when it is
 * the whole segment (`whole`), `.` and `..`, which URL resolution removes (RFC 3986 section 5.2.4, and the WHATWG URL
 * standard even in their `%2E` forms), so `{"petId":".."}` would call `GET /`.
 *
 * @throws {McpxError} Code `api-arguments` naming the parameter and the value.
 */
function checkPathValue(tool: string, key: string, value: string, whole: boolean): void {
  if (value === "") {
    throw new McpxError(
      "api-arguments",
      `${tool}: the path parameter ${JSON.stringify(key)} is empty; give it a value ` +
        "(a path parameter is always required)",
    );
  }
  if (whole && (value === "." || value === "..")) {
    throw new McpxError(
      "api-arguments",
      `${tool}: the path parameter ${JSON.stringify(key)} cannot be ${JSON.stringify(value)}: ` +
        "a URL path drops that segment, so the request would reach another endpoint",
    );
  }
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** Adds one query parameter in OpenAPI's `form` style (3.1, "Style Values"). */
function addQuery(query: URLSearchParams, name: string, value: unknown, explode: boolean): void {
  if (value === undefined || value === null) return;
  if (Array.isArray(value)) {
    if (explode) { for (const v of value) query.append(name, String(v)); }
    else query.append(name, value.map(String).join(","));
  } else if (isRecord(value)) {
    if (explode) { for (const [k, v] of Object.entries(value)) query.append(k, String(v)); }
    else query.append(name, Object.entries(value).flat().map(String).join(","));
  } else query.append(name, String(value));
}

/** `text` with every credential of `auth` (and its URL-encoded forms) shown as `…`. */
export function withoutSecrets(text: string, auth: ServerAuth | undefined): string {
  const secrets = auth === undefined
    ? []
    : auth.type === "bearer"
    ? [auth.token]
    : auth.type === "basic"
    ? [auth.password]
    : auth.type === "header" || auth.type === "query"
    ? [auth.value]
    : [];
  let out = text;
  for (const secret of secrets.filter((s) => s.length > 0)) {
    const forms = new Set([
      secret,
      encodeURIComponent(secret),
      new URLSearchParams({ s: secret }).toString().slice(2),
    ]);
    for (const form of forms) out = out.replaceAll(form, "…");
  }
  return out;
}
