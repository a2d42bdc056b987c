/**
 * An OpenAPI document's operations as tools (spec 000, "Specifications as
 * tools"; decision 0053): which operations are offered (reads only unless
 * asked; deprecated ones skipped unless asked, and labelled when included),
 * each tool's name, description and input schema (the path, query and header
 * parameters and the JSON body as one object), and the base URL each
 * operation is sent to (relative server URLs resolved against where the
 * document came from).
 *
 * @module
 */

import { McpxError } from "../core/errors.ts";
import type { LoadedDocument } from "./document.ts";

/** The HTTP methods an OpenAPI path item may hold (OpenAPI 3.1, "Path Item Object"). */
export const HTTP_METHODS = [
  "get",
  "put",
  "post",
  "delete",
  "options",
  "head",
  "patch",
  "trace",
] as const;

/** One of {@link HTTP_METHODS}. */
export type HttpMethod = (typeof HTTP_METHODS)[number];

/** The methods offered when nothing else is asked: those that only read (RFC 9110 section 9.2.1 safe methods GET and HEAD). */
export const READ_METHODS: readonly HttpMethod[] = ["get", "head"];

/** Which operations become tools. */
export interface OperationFilter {
  /** The methods offered (default {@link READ_METHODS}). */
  methods?: readonly HttpMethod[];
  /** Offer deprecated operations too (labelled in their description). */
  deprecated?: boolean;
}

/** Where one argument of a tool goes in the request. */
export interface ArgumentPlace {
  /** `path`, `query` or `header`, or `body` for the request body. */
  in: "path" | "query" | "header" | "body";
  /** The parameter's name in the request (the body has none). */
  name: string;
  /** For a query parameter: OpenAPI's `explode` (arrays and objects; default true for `form`). */
  explode?: boolean;
}

/** One operation as a tool. */
export interface ApiOperation {
  /** The tool's name: the operationId, or `<method>_<path>` made a name when it has none. */
  tool: string;
  /** The operationId as the document writes it, when it has one. */
  operationId?: string;
  method: HttpMethod;
  /** The path template as the document writes it (`/pets/{petId}`). */
  path: string;
  description: string;
  deprecated: boolean;
  /** A JSON Schema of type object: one property per argument. */
  inputSchema: { type: "object"; properties: Record<string, unknown>; required?: string[] };
  /** Argument name → where it goes. */
  places: Record<string, ArgumentPlace>;
  /** The body's media type, when the operation takes a body. */
  bodyType?: string;
  /** The base URL the path is appended to (absolute), or the reason there is none. */
  baseUrl: string | { problem: string };
}

/** A tool name's form: what MCP accepts (SEP-986: 1–128 of A–Z a–z 0–9 _ - .). */
const TOOL_NAME = /^[A-Za-z0-9_.-]{1,128}$/;

/**
 * The operations of a document that pass `filter`, in the document's order.
 *
 * @param loaded The document and its location.
 * @param filter Methods and deprecation.
 * @param baseUrl A base URL that replaces the document's `servers` (a declaration's `baseUrl`).
 * @returns The operations; tool names are unique (a repeat gets `_2`, `_3`, …).
 */
export function operationsOf(
  loaded: LoadedDocument,
  filter: OperationFilter = {},
  baseUrl?: string,
): ApiOperation[] {
  const methods = filter.methods ?? READ_METHODS;
  const { document, location } = loaded;
  const out: ApiOperation[] = [];
  const taken = new Set<string>();
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    if (!isObject(item)) continue;
    for (const method of HTTP_METHODS) {
      const op = item[method];
      if (!isObject(op) || !methods.includes(method)) continue;
      const deprecated = op.deprecated === true;
      if (deprecated && !filter.deprecated) continue;
      const operationId = typeof op.operationId === "string" ? op.operationId : undefined;
      let tool = operationId !== undefined && TOOL_NAME.test(operationId)
        ? operationId
        : nameOf(operationId ?? `${method}_${path}`);
      for (let n = 2; taken.has(tool); n++) tool = `${nameOf(operationId ?? tool)}_${n}`;
      taken.add(tool);
      const servers = arrayOr(op.servers) ?? arrayOr(item.servers) ?? arrayOr(document.servers);
      out.push({
        tool,
        ...(operationId !== undefined ? { operationId } : {}),
        method,
        path,
        description: describe(method, path, op, deprecated),
        deprecated,
        ...inputOf([...(arrayOr(item.parameters) ?? []), ...(arrayOr(op.parameters) ?? [])], op),
        baseUrl: baseUrl !== undefined
          ? absoluteBase(baseUrl, location)
          : absoluteBase(serverUrl(servers?.[0]), location),
      });
    }
  }
  return out;
}

/**
 * Parses a `--methods` value: `read` (GET and HEAD), `all`, or a comma list of methods.
 *
 * @throws {McpxError} Code `api-spec` naming an unknown method.
 */
export function parseMethods(value: string | undefined): HttpMethod[] {
  if (value === undefined || value === "read") return [...READ_METHODS];
  if (value === "all") return [...HTTP_METHODS];
  const words = value.split(",").map((w) => w.trim().toLowerCase()).filter((w) => w !== "");
  for (const w of words) {
    if (!(HTTP_METHODS as readonly string[]).includes(w)) {
      throw new McpxError(
        "api-spec",
        `unknown HTTP method ${JSON.stringify(w)} in methods ${JSON.stringify(value)}; write ` +
          `read, all, or a list such as get,post (${HTTP_METHODS.join(", ")})`,
      );
    }
  }
  return words as HttpMethod[];
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

const arrayOr = (v: unknown): unknown[] | undefined =>
  Array.isArray(v) && v.length > 0 ? v : undefined;

/** Any text as a tool name: runs of other characters become `_`, at most 128. */
function nameOf(text: string): string {
  const name = text.replace(/[{}]/g, "").replace(/[^A-Za-z0-9_.-]+/g, "_").replace(/^_+|_+$/g, "");
  return (name === "" ? "operation" : name).slice(0, 128);
}

function describe(
  method: string,
  path: string,
  op: Record<string, unknown>,
  deprecated: boolean,
): string {
  const text = [op.summary, op.description].filter((s): s is string =>
    typeof s === "string" && s.trim() !== ""
  ).map((s) => s.trim());
  if (text.length === 2 && text[1].startsWith(text[0])) text.shift();
  const head = `${deprecated ? "DEPRECATED. " : ""}${method.toUpperCase()} ${path}`;
  return text.length === 0 ? head : `${head}: ${text.join("\n\n")}`;
}

/** The input schema and argument places of an operation's parameters and body. */
function inputOf(
  parameters: unknown[],
  op: Record<string, unknown>,
): Pick<ApiOperation, "inputSchema" | "places" | "bodyType"> {
  // A parameter at the operation replaces one of the same name and place at the path item.
  const byKey = new Map<string, Record<string, unknown>>();
  for (const p of parameters) {
    if (isObject(p) && typeof p.name === "string" && typeof p.in === "string") {
      byKey.set(`${p.in}\0${p.name}`, p);
    }
  }
  const properties: Record<string, unknown> = {};
  const required: string[] = [];
  const places: Record<string, ArgumentPlace> = {};
  const claim = (wanted: string, where: string) =>
    places[wanted] === undefined ? wanted : `${where}_${wanted}`;
  for (const p of byKey.values()) {
    const where = p.in as string;
    if (where !== "path" && where !== "query" && where !== "header") continue; // cookies: not sent
    const key = claim(p.name as string, where);
    const schema = isObject(p.schema) ? { ...p.schema } : schemaOfContent(p.content) ?? {};
    if (typeof p.description === "string" && schema.description === undefined) {
      schema.description = p.description;
    }
    if (p.deprecated === true) schema.deprecated = true;
    properties[key] = schema;
    if (p.required === true || where === "path") required.push(key);
    const explode = typeof p.explode === "boolean" ? p.explode : undefined;
    places[key] = {
      in: where,
      name: p.name as string,
      ...(explode !== undefined ? { explode } : {}),
    };
  }
  let bodyType: string | undefined;
  const body = op.requestBody;
  if (isObject(body) && isObject(body.content)) {
    const types = Object.keys(body.content);
    bodyType = types.find((t) => /json/i.test(t)) ??
      types.find((t) => t === "application/x-www-form-urlencoded") ??
      types.find((t) => t.startsWith("text/")) ?? types[0];
    if (bodyType !== undefined) {
      const media = body.content[bodyType];
      const key = claim("body", "request");
      const schema = isObject(media) && isObject(media.schema) ? { ...media.schema } : {};
      if (typeof body.description === "string" && schema.description === undefined) {
        schema.description = body.description;
      }
      properties[key] = schema;
      if (body.required === true) required.push(key);
      places[key] = { in: "body", name: key };
    }
  }
  return {
    inputSchema: { type: "object", properties, ...(required.length > 0 ? { required } : {}) },
    places,
    ...(bodyType !== undefined ? { bodyType } : {}),
  };
}

function schemaOfContent(content: unknown): Record<string, unknown> | undefined {
  if (!isObject(content)) return undefined;
  const media = Object.values(content)[0];
  return isObject(media) && isObject(media.schema) ? { ...media.schema } : undefined;
}

/** A Server Object's URL with each `{variable}` replaced by its default (OpenAPI 3.1, "Server Object"). */
function serverUrl(server: unknown): string {
  if (!isObject(server) || typeof server.url !== "string") return "/";
  const vars = isObject(server.variables) ? server.variables : {};
  return server.url.replace(/\{([^}]+)\}/g, (whole, name: string) => {
    const v = vars[name];
    return isObject(v) && typeof v.default === "string" ? v.default : whole;
  });
}

/**
 * A server URL made absolute against the document's location (OpenAPI 3.1,
 * "Relative References in API URLs": relative to where the document was
 * found). A relative one under a document read from a file has no host to
 * resolve against: that is returned as a problem naming the fix.
 */
function absoluteBase(url: string, location: URL): string | { problem: string } {
  let resolved: URL;
  try {
    resolved = new URL(url, location);
  } catch {
    return { problem: `the server URL ${JSON.stringify(url)} is not a URL` };
  }
  if (resolved.protocol === "http:" || resolved.protocol === "https:") return resolved.href;
  return {
    problem: `the document's server URL ${JSON.stringify(url)} is ${
      location.protocol === "file:" ? "relative to a file, which has no host" : "not http(s)"
    }; give the service's address as the declaration's "baseUrl" or --base-url`,
  };
}
