/**
 * `mcpx api`: OpenAPI documents as tools (spec 000, "Specifications as
 * tools"; decision 0053). `api tools --spec` lists a document's operations as
 * tools, `api call <operationId> '{…}' --spec` calls one, both without
 * declaring anything; `api serve <name>` serves a declared API (a
 * `paths.apis` declaration file) as an MCP stdio server, which is what the
 * daemon runs for each declared API (config/derived_servers.ts).
 *
 * @module
 */

import * as z from "zod";
import { defineOp } from "./op.ts";
import { CallOutput } from "./engine_outputs.ts";

/** One operation of `mcpx --json api tools`. */
const ApiToolRow = z.strictObject({
  name: z.string().describe("the tool's name: the operationId, or method and path made a name"),
  operationId: z.string().optional(),
  method: z.string().describe("GET, POST, …"),
  path: z.string().describe("the path template as the document writes it"),
  description: z.string(),
  deprecated: z.boolean(),
  inputSchema: z.record(z.string(), z.unknown()).describe(
    "JSON Schema of the one argument object",
  ),
});

/** `mcpx --json api …`. */
export const ApiOutput = z.union([
  z.strictObject({
    spec: z.string().describe("the document's location"),
    title: z.string(),
    baseUrl: z.string().optional().describe("where the operations are sent, when resolved"),
    problem: z.string().optional().describe("why no base URL could be resolved"),
    tools: z.array(ApiToolRow),
  }).describe("api tools"),
  CallOutput.describe("api call: the operation's answer as a tool result"),
]);

/** `mcpx api`. */
export const api = defineOp({
  name: "api",
  description: "OpenAPI documents as tools: `api tools --spec <file|url>` lists the operations " +
    "(reads only unless --methods), `api call <operationId> '{…}' --spec …` calls one, " +
    "`api serve <name>` serves a declared API (paths.apis) over MCP stdio.",
  where: "cli",
  hints: { readOnly: false, destructive: false, idempotent: false },
  serve: {
    core: false,
    refuse: (input: { action?: string }) =>
      input.action === "serve"
        ? "`api serve` is the server the daemon starts, speaking MCP on stdio until its client " +
          "leaves; a tool call cannot run it (tools and call are available)"
        : undefined,
  },
  input: z.object({
    action: z.string().optional().describe("tools, call or serve"),
    rest: z.array(z.string()).default([]).describe(
      "call: the operationId, then its arguments as JSON; serve: the declaration's name",
    ),
    spec: z.string().optional().describe(
      "the OpenAPI 3.0/3.1 document: a file (JSON or YAML) or an http(s) URL",
    ),
    methods: z.string().optional().describe(
      "which operations become tools: read (GET, HEAD; the default), all, or a list such as get,post",
    ),
    deprecated: z.boolean().optional().describe(
      "offer deprecated operations too, labelled DEPRECATED",
    ),
    baseUrl: z.string().optional().describe(
      "the service's address, replacing the document's servers",
    ),
    header: z.array(z.string()).optional().describe(
      "headers sent with every request, each `Name: value`",
    ),
    from: z.string().optional().describe(
      "serve: the declaration file that declares <name> (default: the paths.apis places)",
    ),
    raw: z.boolean().optional().describe("call: print the whole MCP tool result"),
  }),
  output: ApiOutput,
  cli: {
    command: "api",
    module: "./adapters/api.ts",
    usage: "mcpx api tools --spec <file|url> [--methods all] [--deprecated] | " +
      "call <operationId> ['{…}' | - | @file] --spec <file|url> | serve <name> [--from <file>]",
    summary: "OpenAPI documents as tools: list, call, or serve a declared API over MCP",
    args: [
      { field: "action", name: "tools|call|serve", complete: ["tools", "call", "serve"] },
      {
        field: "rest",
        name: "operationId|name",
        variadic: true,
        optional: true,
        syntax: "json-or-file",
      },
    ],
    flags: {
      spec: {
        field: "spec",
        type: "string",
        complete: "file",
      },
      methods: {
        field: "methods",
        type: "string",
      },
      deprecated: {
        field: "deprecated",
        type: "boolean",
      },
      "base-url": {
        field: "baseUrl",
        type: "string",
      },
      header: {
        field: "header",
        type: "string",
        multiple: true,
      },
      from: {
        field: "from",
        type: "string",
        complete: "file",
      },
      raw: { field: "raw", type: "boolean" },
    },
  },
});
