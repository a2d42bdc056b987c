/**
 * The upstream tool catalog as an OpenAPI 3.1 document, for a client
 * generator (spec 000, "Types, in whichever form a consumer reads";
 * decision 0051): one `POST /v1/call/<namespace>/<tool>` per tool, the path
 * the daemon serves over TCP (daemon/call_path.ts), its request body the
 * tool's input schema and its answer the wire's envelope around a
 * CallToolResult whose `structuredContent` is the tool's output schema.
 *
 * The daemon's own routes are `mcpx openapi` (ops/openapi.ts); this
 * document shares its envelope, failures and headers, so the two describe
 * one API. Schemas sit under `components.schemas` with the keys the JSON
 * Schema form puts under `$defs` (discovery/schema_forms.ts), made safe for
 * OpenAPI's key pattern (`^[a-zA-Z0-9._-]+$`).
 *
 * @module
 */

import type { NamespaceEntry } from "../discovery/types.ts";
import { defKey, toolSchemas } from "../discovery/schema_forms.ts";
import { callerHeaders } from "../wire/caller_headers.ts";
import { VERSION } from "../core/version.ts";
import { setOwn } from "../core/own.ts";
import { answerSchema, COMPONENT_SCHEMAS, ERROR_RESPONSES, VERSION_PARAMETER } from "./openapi.ts";

type Json = Record<string, unknown>;

/** A `components.schemas` key for a `$defs` key (OpenAPI 3.1 §4.8.7.1 key pattern). */
export function componentKey(key: string): string {
  return key.replace(/[^A-Za-z0-9._-]/g, "_");
}

/** The result of a call whose `structuredContent` is `output` (MCP 2025-11-25 `CallToolResult`). */
function callResult(output: Json | undefined): Json {
  return {
    type: "object",
    description: "The tool's MCP CallToolResult as its server gave it.",
    properties: {
      content: { type: "array", items: { type: "object" } },
      structuredContent: output ?? { type: "object" },
      isError: { type: "boolean" },
    },
  };
}

/**
 * The OpenAPI 3.1.0 document of the namespaces' tools.
 *
 * @param namespaces The namespaces view, tools with whole schemas.
 * @returns A plain JSON object; `paths` holds one path per tool.
 */
export function upstreamOpenApi(namespaces: NamespaceEntry[]): Json {
  const schemas: Json = {};
  for (
    const [key, schema] of toolSchemas(namespaces, (k) => `#/components/schemas/${componentKey(k)}`)
  ) {
    setOwn<unknown>(schemas, componentKey(key), schema);
  }
  const parameters: Json = { version: VERSION_PARAMETER };
  for (const { header, field, spec } of callerHeaders()) {
    parameters[field] = {
      name: header,
      in: "header",
      required: false,
      description: spec.description,
      schema: {
        type: spec.type === "integer" ? "integer" : spec.type === "boolean" ? "boolean" : "string",
      },
    };
  }
  // Shared by every path, so a catalog of many tools does not repeat them.
  const errorRefs = Object.fromEntries(
    Object.keys(ERROR_RESPONSES).map((status) => [
      status,
      { $ref: `#/components/responses/${status}` },
    ]),
  );
  const paths: Json = {};
  for (const ns of namespaces) {
    for (const tool of ns.tools) {
      const path = `/v1/call/${encodeURIComponent(ns.namespace)}/${encodeURIComponent(tool.tool)}`;
      const ref = (key: string) => ({ $ref: `#/components/schemas/${componentKey(key)}` });
      setOwn<unknown>(paths, path, {
        post: {
          operationId: `${tool.namespace}.${tool.fn}`,
          summary: tool.title ?? (tool.description.split("\n")[0].slice(0, 120) || tool.tool),
          ...(tool.description ? { description: tool.description } : {}),
          tags: [ns.namespace],
          parameters: Object.keys(parameters).map((p) => ({
            $ref: `#/components/parameters/${p}`,
          })),
          requestBody: {
            required: true,
            content: { "application/json": { schema: ref(defKey(tool, "input")) } },
          },
          responses: {
            "200": {
              description: "Answered: `ok` true with the tool's result, or false with the error.",
              content: {
                "application/json": {
                  schema: answerSchema(
                    callResult(tool.outputSchema ? ref(defKey(tool, "output")) : undefined),
                  ),
                },
              },
            },
            ...errorRefs,
          },
        },
      });
    }
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "mcpx upstream tools",
      version: VERSION,
      description: "Every tool of the namespaces shown, as the mcpx daemon serves it over HTTP " +
        "(mcpx daemon --port P): POST its path with the arguments as the JSON body. The " +
        "caller's session and context travel in X-Mcpx-* headers; beyond loopback every request " +
        "needs Authorization: Bearer <transport.bearerToken>.",
    },
    security: [{}, { bearer: [] }],
    tags: namespaces.map((ns) => ({ name: ns.namespace, description: ns.description })),
    paths,
    components: {
      schemas: { ...COMPONENT_SCHEMAS, ...schemas },
      parameters,
      responses: ERROR_RESPONSES,
      securitySchemes: {
        bearer: {
          type: "http",
          scheme: "bearer",
          description: "transport.bearerToken; required on a listener bound beyond loopback.",
        },
      },
    },
  };
}
