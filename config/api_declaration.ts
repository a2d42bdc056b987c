/**
 * One declared API: an item of a `paths.apis` declaration file
 * (`{ "apis": [{ "name": "petstore", "spec": "./petstore.yaml", … }] }`),
 * read into what `mcpx api serve` needs. The list, the names and where the
 * files are belong to config/derived_servers.ts (decision 0052); the fields
 * below are this kind's own (decision 0053).
 *
 * | field        | meaning                                                                  |
 * | ------------ | ------------------------------------------------------------------------ |
 * | `spec`       | the OpenAPI document: a path (relative to the declaration file) or a URL |
 * | `methods`    | `"read"` (GET, HEAD; the default), `"all"`, or a list such as `["get", "post"]` |
 * | `deprecated` | `true` offers deprecated operations too, labelled                        |
 * | `baseUrl`    | the service's address, replacing the document's `servers`                |
 * | `auth`       | the same block as a remote MCP server's: bearer, basic, header or query  |
 * | `headers`    | headers sent with every request (`${VAR}` expanded)                      |
 * | `timeout`    | how long one request may take (`30s`; default 60 s)                       |
 *
 * @module
 */

import type { ServerAuth } from "./auth.ts";
import { readAuth } from "./_auth.ts";
import { describeValue } from "./_describe.ts";
import { type JsonPath, Problems } from "./_problems.ts";
import { isObject } from "./_read.ts";
import { expandVars } from "./expand.ts";
import { dirname, isAbsolute, resolve } from "../core/posix_path.ts";
import { parseDuration } from "./duration.ts";

/** A declared API, validated and `${VAR}` expanded. */
export interface ApiDeclaration {
  name: string;
  /** An http(s) URL, or an absolute file path. */
  spec: string;
  /** `read`, `all`, or a comma list of methods (apis/operations.ts `parseMethods`). */
  methods: string;
  deprecated: boolean;
  baseUrl?: string;
  auth?: ServerAuth;
  headers: Record<string, string>;
  /** ms. */
  timeoutMs?: number;
}

const FIELDS = [
  "name",
  "spec",
  "methods",
  "deprecated",
  "baseUrl",
  "auth",
  "headers",
  "timeout",
  "description",
  "cwd",
];

/**
 * Reads one declared item.
 *
 * @param item The item as written.
 * @param file The declaration file (absolute): `spec` paths are relative to its directory.
 * @param index The item's index in the file's `apis` list (for messages).
 * @param env Variables for `${VAR}` in `baseUrl`, `auth` and `headers`.
 * @throws {ConfigError} Naming the file, the JSON path, the value and the fix; every problem
 *   of the item together. An unset variable is one.
 */
export function readApiDeclaration(
  item: Record<string, unknown>,
  file: string,
  index: number,
  env: Record<string, string | undefined>,
): ApiDeclaration {
  const problems = new Problems(file);
  const at: JsonPath = ["apis", index];
  const name = String(item.name);
  for (const key of Object.keys(item)) {
    if (!FIELDS.includes(key)) {
      problems.add(
        [...at, key],
        `is not a field of a declared API (accepted: ${FIELDS.join(", ")})`,
      );
    }
  }
  const expand = (value: string, path: JsonPath) => {
    const { value: out, missing, malformed } = expandVars(value, env);
    if (malformed.length > 0) {
      problems.add(path, `${JSON.stringify(malformed[0].reference)} is not a \${NAME} reference`);
    }
    if (missing.length > 0) {
      problems.add(
        path,
        `\${${missing[0]}} is not set (API "${name}"); export ${missing[0]} before running mcpx`,
      );
    }
    return out;
  };
  let spec = "";
  if (typeof item.spec !== "string" || item.spec === "") {
    problems.add(
      [...at, "spec"],
      `must be the OpenAPI document's path or URL, got ${describeValue(item.spec)}; write e.g. ` +
        `"./petstore.yaml"`,
    );
  } else {
    spec = /^https?:\/\//i.test(item.spec) || isAbsolute(item.spec)
      ? item.spec
      : resolve(dirname(file), item.spec);
  }
  let methods = "read";
  if (item.methods !== undefined) {
    if (typeof item.methods === "string") methods = item.methods;
    else if (Array.isArray(item.methods) && item.methods.every((m) => typeof m === "string")) {
      methods = item.methods.join(",");
    } else {
      problems.add(
        [...at, "methods"],
        `must be "read", "all" or a list of methods, got ${describeValue(item.methods)}; write ` +
          `e.g. ["get", "post"]`,
      );
    }
  }
  if (item.deprecated !== undefined && typeof item.deprecated !== "boolean") {
    problems.add(
      [...at, "deprecated"],
      `must be true or false, got ${describeValue(item.deprecated)}`,
    );
  }
  let baseUrl: string | undefined;
  if (item.baseUrl !== undefined) {
    const text = typeof item.baseUrl === "string" ? expand(item.baseUrl, [...at, "baseUrl"]) : "";
    if (!/^https?:\/\/./i.test(text)) {
      problems.add(
        [...at, "baseUrl"],
        `must be an http(s) URL, got ${describeValue(item.baseUrl)}; write e.g. ` +
          `"https://api.example.com/v1"`,
      );
    } else baseUrl = text;
  }
  const headers: Record<string, string> = {};
  if (item.headers !== undefined) {
    if (!isObject(item.headers)) {
      problems.add(
        [...at, "headers"],
        `must be an object of strings, got ${describeValue(item.headers)}`,
      );
    } else {
      for (const [k, v] of Object.entries(item.headers)) {
        if (typeof v === "string") headers[k] = expand(v, [...at, "headers", k]);
        else problems.add([...at, "headers", k], `must be a string, got ${describeValue(v)}`);
      }
    }
  }
  let timeoutMs: number | undefined;
  if (item.timeout !== undefined) {
    try {
      timeoutMs = parseDuration(String(item.timeout));
    } catch {
      problems.add(
        [...at, "timeout"],
        `must be a duration such as "30s", got ${describeValue(item.timeout)}`,
      );
    }
  }
  const warnings: string[] = [];
  const auth = readAuth(item.auth, [...at, "auth"], {
    file,
    transport: "http",
    expand,
    headers,
    env: {},
    problems,
    warnings,
  });
  if (auth?.type === "oauth") {
    problems.add(
      [...at, "auth", "type"],
      `"oauth" is not offered for a declared API yet; use "bearer", "basic", "header" or "query"`,
    );
  }
  problems.throwIfAny();
  return {
    name,
    spec,
    methods,
    deprecated: item.deprecated === true,
    ...(baseUrl !== undefined ? { baseUrl } : {}),
    ...(auth !== undefined ? { auth } : {}),
    headers,
    ...(timeoutMs !== undefined ? { timeoutMs } : {}),
  };
}
