/**
 * `mcpx serve --passthrough <namespace>`: one upstream server's own tools,
 * prompts and resources served unprefixed, with mcpx's pooling, leasing,
 * logging and era bridging in front (issue 14, "Conformance"). A stub until
 * it is written; the signature is agreed with `mcpx serve` (cli/serve.ts).
 *
 * @module
 */

import type { CliContext } from "./context.ts";
import { McpxError } from "../core/errors.ts";

/** Options of {@link servePassthrough}. */
export interface PassthroughOptions {
  /** Serve Streamable HTTP at `/mcp` on this loopback address and port; absent: stdio. */
  http?: { address: string; port: number };
}

/**
 * Serves `namespace` until the client leaves (stdio) or the process is stopped (HTTP).
 *
 * @returns The exit code.
 * @throws {McpxError} Code `not-implemented`, for now.
 */
export function servePassthrough(
  _ctx: CliContext,
  namespace: string,
  _options: PassthroughOptions,
): Promise<number> {
  return Promise.reject(
    new McpxError(
      "not-implemented",
      `mcpx serve --passthrough ${namespace} is not available yet; run \`mcpx serve\` for mcpx's ` +
        "own tools (mcpx_call reaches that namespace's tools)",
    ),
  );
}
