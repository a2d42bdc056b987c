/**
 * Reading an OpenAPI document (3.0 or 3.1, JSON or YAML, a file or an http(s)
 * URL): parsed, every `$ref` dereferenced, and validated against the
 * OpenAPI schema by `@apidevtools/swagger-parser` (docs/dependencies.md), so
 * what {@link loadDocument} returns is a plain tree the operations can be
 * read from. Where it came from is kept: relative server URLs resolve
 * against it (spec 000, "Specifications as tools"; decision 0053).
 *
 * @module
 */

import { describeFetchFailure } from "./fetch_failure.ts";
import SwaggerParser from "@apidevtools/swagger-parser";
import { McpxError } from "../core/errors.ts";
import { fileURLToPath, pathToFileURL } from "node:url";
import { parse as parseYaml } from "yaml";
import { isAbsolute, resolve } from "../core/posix_path.ts";

/** An OpenAPI 3.x document after dereferencing: JSON values only (cycles are cut). */
export type OpenApiDocument = Record<string, unknown> & {
  openapi: string;
  info: { title: string; version: string };
  paths?: Record<string, unknown>;
  servers?: unknown[];
};

/** A document and where it was read from. */
export interface LoadedDocument {
  document: OpenApiDocument;
  /** The document's location as a URL: `https://…` as given, or `file:///abs/path`. */
  location: URL;
}

/** How long fetching a document (and each document its `$ref`s name) may take, in ms. */
export const FETCH_TIMEOUT_MS = 20_000;

/**
 * The URL of a document named on the command line or in a declaration: an
 * http(s) URL as given, anything else a file path (relative to `cwd`).
 *
 * @throws {McpxError} Code `api-spec` for a URL of another scheme.
 */
export function documentLocation(spec: string, cwd: string): URL {
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(spec)) {
    const url = new URL(spec);
    if (url.protocol === "http:" || url.protocol === "https:" || url.protocol === "file:") {
      return url;
    }
    throw new McpxError(
      "api-spec",
      `an OpenAPI document is read from a file or an http(s) URL, got ${JSON.stringify(spec)}; ` +
        `give a path or an https:// URL`,
    );
  }
  return pathToFileURL(isAbsolute(spec) ? spec : resolve(cwd, spec));
}

/**
 * Reads, dereferences and validates one OpenAPI 3.0/3.1 document.
 *
 * @param location From {@link documentLocation}.
 * @returns The document (cycles in its schemas replaced by `{}` with a
 *   description naming the schema) and its location.
 * @throws {McpxError} Code `api-spec` when it cannot be read or fetched,
 *   is neither JSON nor YAML, is Swagger 2.0, or fails validation; the
 *   message names the document and the first problems the validator found.
 */
export async function loadDocument(location: URL): Promise<LoadedDocument> {
  const where = location.protocol === "file:" ? fileURLToPath(location) : location.href;
  const raw = await readRaw(location, where);
  let api: unknown;
  try {
    // The parser is given the text we read (so its own reading, which drops a
    // relative server URL's port, is not used) and the location (so relative
    // `$ref`s resolve against it).
    api = await SwaggerParser.validate(where, structuredClone(raw) as never, {
      resolve: {
        http: { timeout: FETCH_TIMEOUT_MS, safeUrlResolver: !trustsLocalRefs(location) },
      },
      dereference: { circular: "ignore" },
    });
  } catch (error) {
    throw new McpxError("api-spec", `cannot use the OpenAPI document ${where}: ${tidy(error)}`, {
      cause: error,
    });
  }
  const doc = api as Record<string, unknown>;
  if (typeof doc.openapi !== "string" || !doc.openapi.startsWith("3.")) {
    throw new McpxError(
      "api-spec",
      `${where} is ${
        typeof doc.swagger === "string" ? `Swagger ${doc.swagger}` : "not an OpenAPI 3 document"
      }; mcpx reads OpenAPI 3.0 and 3.1 (convert a Swagger 2.0 document first)`,
    );
  }
  restoreServers(raw, doc);
  return { document: acyclic(doc) as OpenApiDocument, location };
}

/** Most bytes an OpenAPI document may have (32 MiB): larger is refused, not read. */
export const MAX_DOCUMENT_BYTES = 32 * 1024 * 1024;

/** The document's text, parsed as YAML (which JSON is a subset of). */
async function readRaw(location: URL, where: string): Promise<Record<string, unknown>> {
  let text: string;
  try {
    if (location.protocol === "file:") {
      const info = await Deno.stat(location);
      if (info.size > MAX_DOCUMENT_BYTES) throw new Error(`${info.size} bytes is too large`);
      text = await Deno.readTextFile(location);
    } else {
      const response = await fetch(location, {
        headers: { Accept: "application/json, application/yaml;q=0.9, */*;q=0.5" },
        signal: AbortSignal.timeout(FETCH_TIMEOUT_MS),
      });
      if (!response.ok) {
        await response.body?.cancel();
        throw new Error(`HTTP ${response.status} ${response.statusText}`.trim());
      }
      text = await response.text();
      if (text.length > MAX_DOCUMENT_BYTES) throw new Error(`${text.length} bytes is too large`);
    }
  } catch (error) {
    const why = error instanceof Deno.errors.NotFound
      ? "no such file; check the path (a relative one is read from the working directory, or in a declaration from its file's directory)"
      : error instanceof TypeError && location.protocol !== "file:"
      ? describeFetchFailure(error, location.href, "document")
      : error instanceof Error
      ? error.message
      : String(error);
    throw new McpxError(
      "api-spec",
      `cannot read the OpenAPI document ${where}: ${why}`,
      { cause: error },
    );
  }
  let parsed: unknown;
  try {
    parsed = parseYaml(text);
  } catch (error) {
    throw new McpxError(
      "api-spec",
      `the OpenAPI document ${where} is neither JSON nor YAML: ${tidy(error)}`,
      { cause: error },
    );
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    throw new McpxError("api-spec", `the OpenAPI document ${where} is not an object`);
  }
  return parsed as Record<string, unknown>;
}

/**
 * Puts back the `servers` arrays as the document wrote them (root, path
 * items, operations): the parser rewrites a relative server URL against the
 * document's host and drops its port, while OpenAPI resolves it against the
 * document's full URL (operations.ts does).
 */
function restoreServers(raw: Record<string, unknown>, doc: Record<string, unknown>): void {
  const obj = (v: unknown) =>
    typeof v === "object" && v !== null && !Array.isArray(v)
      ? v as Record<string, unknown>
      : undefined;
  if (Array.isArray(raw.servers)) doc.servers = raw.servers;
  const rawPaths = obj(raw.paths) ?? {};
  const paths = obj(doc.paths) ?? {};
  for (const [path, rawItem] of Object.entries(rawPaths)) {
    const ri = obj(rawItem);
    const item = obj(paths[path]);
    if (ri === undefined || item === undefined || typeof ri.$ref === "string") continue;
    if (Array.isArray(ri.servers)) item.servers = ri.servers;
    for (const [key, rawOp] of Object.entries(ri)) {
      const ro = obj(rawOp);
      const op = obj(item[key]);
      if (ro && op && Array.isArray(ro.servers)) op.servers = ro.servers;
    }
  }
}

/**
 * Whether the `$ref`s of a document may name loopback and private addresses.
 * The parser refuses them by default, so that a document from the internet
 * cannot make mcpx fetch from this machine's network; a document that is
 * itself a local file or on such an address was put there by the person
 * who named it, and its references may stay there too (decision 0053).
 */
export function trustsLocalRefs(location: URL): boolean {
  if (location.protocol === "file:") return true;
  const host = location.hostname.replace(/^\[|\]$/g, "");
  return host === "localhost" || host.endsWith(".localhost") || host === "::1" ||
    /^127\./.test(host) || /^10\./.test(host) || /^192\.168\./.test(host) ||
    /^172\.(1[6-9]|2\d|3[01])\./.test(host);
}

/** The validator's message on a few lines: its first problems, without a stack. */
function tidy(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  const lines = text.split("\n").map((l) => l.trim()).filter((l) => l !== "");
  const shown = lines.slice(0, 6).join("; ");
  return lines.length > 6 ? `${shown}; … (${lines.length - 6} more)` : shown;
}

/**
 * A copy of a dereferenced tree with every cycle cut: an object met again on
 * its own path becomes `{}` described as recursive, and a `$ref` left in
 * place (a circular one the parser kept) becomes the same, so the result is
 * JSON and every tool's schema is self-contained.
 */
export function acyclic(value: unknown, path: unknown[] = []): unknown {
  if (Array.isArray(value)) {
    if (path.includes(value)) return {};
    return value.map((v) => acyclic(v, [...path, value]));
  }
  if (typeof value !== "object" || value === null) return value;
  const obj = value as Record<string, unknown>;
  if (path.includes(value) || typeof obj.$ref === "string") {
    const ref = typeof obj.$ref === "string" ? ` (${obj.$ref})` : "";
    return { description: `recursive${ref}: any value of the enclosing shape` };
  }
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(obj)) out[k] = acyclic(v, [...path, value]);
  return out;
}
