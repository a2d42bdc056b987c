/**
 * The daemon's HTTP API as an OpenAPI 3.1 document, generated from the op
 * table's routes (ops/routes.ts `ROUTE_SPECS`): one `POST /v1/<route>` per
 * route, its request body the route's zod input and its answer the wire's
 * envelope around the route's zod output (both as JSON Schema, zod 4
 * `z.toJSONSchema`), plus the one templated tool-call path
 * `/v1/call/{namespace}/{tool}` (upstream tools are one machine's list, so
 * they are not paths of their own) and `GET /v1/openapi.json` itself.
 * `mcpx openapi` prints it; the daemon serves it (daemon/http.ts).
 *
 * OpenAPI 3.1.0: https://spec.openapis.org/oas/v3.1.0 (Schema Objects are
 * JSON Schema 2020-12, so zod's output is used as it is; `$defs` a schema
 * carries are moved under `components.schemas`, where a `$ref` resolves).
 *
 * @module
 */

import * as z from "zod";
import { ROUTE_SPECS } from "./routes.ts";
import type { OpSpec } from "./op.ts";
import { VERSION } from "../core/version.ts";
import { callerHeaders } from "../wire/caller_headers.ts";
import { VERSION_HEADER } from "../wire/wire.ts";
import { ownFields } from "./caller_schema.ts";

/** Where the daemon serves this document. */
export const OPENAPI_PATH = "/v1/openapi.json";

/** The path of a tool call by URL (daemon/call_path.ts serves it). */
export const CALL_PATH_TEMPLATE = "/v1/call/{namespace}/{tool}";

type Json = Record<string, unknown>;

/**
 * A zod schema as a Schema Object: `$schema` dropped (the document's dialect
 * is 2020-12 already), `$defs` moved to `defs` under `<prefix>_<name>` with
 * every `#/$defs/<name>` reference rewritten to point there.
 */
function schemaOf(schema: z.ZodType, io: "input" | "output", prefix: string, defs: Json): Json {
  const json = z.toJSONSchema(schema, { io, unrepresentable: "any" }) as Json;
  delete json.$schema;
  const local = json.$defs as Json | undefined;
  delete json.$defs;
  if (!local) return json;
  const rename = (name: string) => `${prefix}_${name}`.replace(/[^A-Za-z0-9._-]/g, "_");
  const rewrite = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(rewrite);
    if (value === null || typeof value !== "object") return value;
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [
        k,
        k === "$ref" && typeof v === "string" && v.startsWith("#/$defs/")
          ? `#/components/schemas/${rename(v.slice("#/$defs/".length))}`
          : rewrite(v),
      ]),
    );
  };
  for (const [name, def] of Object.entries(local)) defs[rename(name)] = rewrite(def);
  return rewrite(json) as Json;
}

/** The answer envelope around one route's result (wire/wire.ts `WireAnswer`). */
export function answerSchema(result: Json): Json {
  return {
    oneOf: [
      {
        type: "object",
        properties: {
          ok: { const: true },
          result,
          trace: { $ref: "#/components/schemas/WireTrace" },
          notices: { type: "array", items: { $ref: "#/components/schemas/WireNotice" } },
        },
        required: ["ok"],
      },
      { $ref: "#/components/schemas/WireFailure" },
    ],
  };
}

/** The failures every path may answer, by HTTP status. */
export const ERROR_RESPONSES = {
  "400": {
    description: "The body or a header failed the route's schema (code usage); nothing was run.",
    content: { "application/json": { schema: { $ref: "#/components/schemas/WireFailure" } } },
  },
  "401": {
    description: "Bound beyond loopback, and the bearer token is missing or wrong.",
    content: { "application/json": { schema: { $ref: "#/components/schemas/WireFailure" } } },
  },
  "403": {
    description: "The Host or Origin header does not name this listener (DNS rebinding).",
    content: { "application/json": { schema: { $ref: "#/components/schemas/WireFailure" } } },
  },
};

/** The `X-Mcpx-Version` header parameter. */
export const VERSION_PARAMETER = {
  name: VERSION_HEADER,
  in: "header",
  required: false,
  description: "The caller's mcpx version; a daemon of another version refuses " +
    "(version-mismatch) without running anything.",
  schema: { type: "string" },
};

function routeOperation(name: string, spec: OpSpec, defs: Json): Json {
  return {
    operationId: name,
    summary: spec.description,
    ...(spec.cli ? { description: `The daemon's side of \`${spec.cli.usage}\`.` } : {}),
    tags: [spec.hints.readOnly ? "read" : "act"],
    parameters: [VERSION_PARAMETER],
    requestBody: {
      required: false,
      content: {
        "application/json": { schema: schemaOf(spec.input, "input", `${name}_in`, defs) },
      },
    },
    responses: {
      "200": {
        description: "Answered: `ok` true with the result, or false with the error " +
          "(an operation that failed runs under HTTP 200).",
        content: {
          "application/json": {
            schema: answerSchema(schemaOf(spec.output, "output", `${name}_out`, defs)),
          },
        },
      },
      ...ERROR_RESPONSES,
    },
  };
}

/**
 * A streaming route's `GET /v1/<name>` (ops/op.ts `stream`): its own fields
 * as query parameters, `Last-Event-ID` as a header, and a `text/event-stream`
 * answer whose every message's `data` is the route's output.
 */
function streamOperation(name: string, spec: OpSpec, defs: Json): Json {
  const input = schemaOf(spec.input, "input", `${name}_in`, defs);
  const properties = (input.properties ?? {}) as Record<string, Json>;
  return {
    operationId: name,
    summary: spec.description,
    ...(spec.cli ? { description: `The daemon's side of \`${spec.cli.usage}\`.` } : {}),
    tags: [spec.hints.readOnly ? "read" : "act"],
    parameters: [
      VERSION_PARAMETER,
      {
        name: "Last-Event-ID",
        in: "header",
        required: false,
        description: "Where a reconnecting client resumes (an event id, <epoch>-<seq>); " +
          "`since` wins when both are given.",
        schema: { type: "string" },
      },
      ...ownFields(spec.input).map((field) => ({
        name: field,
        in: "query",
        required: false,
        ...(typeof properties[field]?.description === "string"
          ? { description: properties[field].description }
          : {}),
        schema: properties[field]?.type === "boolean" ? { type: "boolean" } : { type: "string" },
        // A list field takes the parameter repeated or a comma list.
        ...(properties[field]?.type === "boolean" ? {} : { explode: true }),
      })),
    ],
    responses: {
      "200": {
        description: "Server-sent events (WHATWG HTML): each message's `id` is the event's id, " +
          "`event` its kind, `data` the event as JSON; a comment line is a heartbeat.",
        content: {
          "text/event-stream": { schema: schemaOf(spec.output, "output", `${name}_out`, defs) },
        },
      },
      ...ERROR_RESPONSES,
    },
  };
}

function callPathOperation(defs: Json): Json {
  const call = ROUTE_SPECS.call as OpSpec;
  const name = (text: string) => ({
    in: "path",
    required: true,
    schema: { type: "string", minLength: 1 },
    description: text,
  });
  return {
    operationId: "callTool",
    summary: "Call one upstream tool: the body is its arguments; the caller's context " +
      "(session, cwd, pid, … which choose the scope its instance is leased under) is in " +
      "X-Mcpx-* headers. Leased and answered as the call route is.",
    tags: ["act"],
    parameters: [
      { name: "namespace", ...name("the namespace (mcpx ls)") },
      { name: "tool", ...name("the tool's name or identifier (mcpx types)") },
      VERSION_PARAMETER,
      {
        name: "x-mcpx-timeout-ms",
        in: "header",
        required: false,
        description: "the caller's limit on the wait for an instance and the call together, ms",
        schema: { type: "integer", minimum: 1 },
      },
      ...callerHeaders().map(({ header, spec }) => ({
        name: header,
        in: "header",
        required: false,
        description: spec.description,
        schema: spec.type === "integer"
          ? { type: "integer" }
          : spec.type === "boolean"
          ? { type: "boolean" }
          : { type: "string" },
      })),
    ],
    requestBody: {
      required: false,
      description: "The tool's arguments (its input schema: `mcpx types <namespace>.<tool>`).",
      content: {
        "application/json": { schema: { type: "object", additionalProperties: true } },
      },
    },
    responses: {
      "200": {
        description: "The tool's CallToolResult (or a task's handle, or { question }).",
        content: {
          "application/json": {
            schema: answerSchema(schemaOf(call.output, "output", "callTool_out", defs)),
          },
        },
      },
      ...ERROR_RESPONSES,
    },
  };
}

/** The wire's shared schemas (`WireError`, `WireFailure`, `WireNotice`, `WireTrace`). */
export const COMPONENT_SCHEMAS: Json = {
  WireError: {
    type: "object",
    description: "A failed operation (wire/wire.ts WireErrorBody).",
    properties: {
      code: { type: "string", description: "usage, not-found, timeout, server, unauthorized, …" },
      message: { type: "string" },
      suggestions: { type: "array", items: { type: "string" } },
      stderrTail: { type: "string" },
      ms: { type: "number" },
      bound: { type: "string" },
      setting: { type: "string" },
      limit: { type: "number" },
    },
    required: ["code", "message"],
  },
  WireFailure: {
    type: "object",
    properties: {
      ok: { const: false },
      error: { $ref: "#/components/schemas/WireError" },
      notices: { type: "array", items: { $ref: "#/components/schemas/WireNotice" } },
    },
    required: ["ok", "error"],
  },
  WireNotice: {
    type: "object",
    properties: { code: { type: "string" }, message: { type: "string" } },
    required: ["code", "message"],
  },
  WireTrace: {
    type: "object",
    properties: {
      namespace: { type: "string" },
      tool: { type: "string" },
      server: { type: "string" },
      pid: { type: "integer" },
      key: { type: "string" },
      instance: { type: "string" },
      call: { type: "string" },
    },
    required: ["namespace", "tool", "server", "key", "instance", "call"],
  },
};

/**
 * The OpenAPI 3.1.0 document of the daemon's API, generated from the routes.
 *
 * @returns A plain JSON object; the same for every call in one mcpx version.
 */
export function openApiDocument(): Json {
  const defs: Json = {};
  const paths: Json = {};
  for (const [name, spec] of Object.entries(ROUTE_SPECS) as [string, OpSpec][]) {
    paths[`/v1/${name}`] = spec.stream
      ? { get: streamOperation(name, spec, defs) }
      : { post: routeOperation(name, spec, defs) };
  }
  paths[CALL_PATH_TEMPLATE] = { post: callPathOperation(defs) };
  paths[OPENAPI_PATH] = {
    get: {
      operationId: "openapi",
      summary: "This document.",
      tags: ["read"],
      responses: {
        "200": {
          description: "The OpenAPI 3.1 document of this daemon's API.",
          content: { "application/json": { schema: { type: "object" } } },
        },
      },
    },
  };
  return {
    openapi: "3.1.0",
    info: {
      title: "mcpx daemon",
      version: VERSION,
      description: "The mcpx daemon's API: every route of the op table as POST /v1/<route> " +
        "with a JSON body, answered { ok, result } or { ok: false, error }, but a streaming " +
        "route (GET /v1/events), whose input is its query string and whose answer is " +
        "server-sent events. On its unix socket " +
        "(mode 0600) it needs nothing more; on TCP (mcpx daemon --port) the Host and Origin " +
        "headers must name the listener, and beyond loopback every request needs " +
        "Authorization: Bearer <transport.bearerToken>.",
    },
    security: [{}, { bearer: [] }],
    tags: [
      { name: "read", description: "Changes nothing." },
      { name: "act", description: "Starts, calls, answers or stops something." },
    ],
    paths,
    components: {
      schemas: { ...COMPONENT_SCHEMAS, ...defs },
      securitySchemes: {
        bearer: {
          type: "http",
          scheme: "bearer",
          description: "transport.bearerToken (MCPX_TRANSPORT_BEARER_TOKEN); required on a " +
            "listener bound beyond loopback.",
        },
      },
    },
  };
}
