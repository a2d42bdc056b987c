/**
 * `mcpx serve`: mcpx itself as an MCP server (spec 000, "mcpx speaks MCP";
 * decision 0044), over stdio or Streamable HTTP at `/mcp`. Its tools are the
 * ops marked `serve` in the op table (ops/op.ts `ServeSpec`); with
 * `--passthrough <namespace>` it serves one upstream server's own surface
 * instead (cli/serve/serve_passthrough.ts).
 *
 * @module
 */

import * as z from "zod";
import { defineOp } from "./op.ts";

/** `mcpx serve`. */
export const serve = defineOp({
  name: "serve",
  description:
    "Serve mcpx over MCP (stdio, or Streamable HTTP at /mcp with --http): a few tools that reach " +
    "every configured server (ls, search, types, call, exec, …), schemas staying on this side.",
  where: "cli",
  hints: { readOnly: false, destructive: false, idempotent: false },
  input: z.object({
    http: z.boolean().optional().describe("serve Streamable HTTP at /mcp instead of stdio"),
    address: z.string().optional().describe(
      "the address --http listens on (default 127.0.0.1; loopback only for now)",
    ),
    port: z.string().optional().describe(
      "the port --http listens on (default 8808; 0 picks a free one, printed on stderr)",
    ),
    passthrough: z.string().optional().describe(
      "serve one namespace's own tools, prompts and resources, unprefixed",
    ),
    tools: z.string().optional().describe(
      "which tools to list: core (the default: ls, search, types, call, exec and a few more), " +
        "all (every operation but serve, daemon, explore, events and completion-words), or " +
        "operation names separated by commas",
    ),
  }),
  // Nothing: it serves until its client leaves or it is stopped.
  output: z.never(),
  cli: {
    command: "serve",
    module: "./serve/serve.ts",
    usage:
      "mcpx serve [--http [--address 127.0.0.1] [--port N]] [--tools core|all|<names>] [--passthrough <namespace>]",
    summary: "serve mcpx over MCP: stdio, or Streamable HTTP at /mcp with --http",
    flags: {
      http: {
        field: "http",
        type: "boolean",
      },
      address: {
        field: "address",
        type: "string",
      },
      port: {
        field: "port",
        type: "string",
      },
      passthrough: {
        field: "passthrough",
        type: "string",
        complete: "namespace",
      },
      tools: {
        field: "tools",
        type: "string",
      },
    },
  },
});
