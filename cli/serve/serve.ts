/**
 * `mcpx serve`: mcpx as an MCP server (spec 000, "mcpx speaks MCP"; decision
 * 0044). Over stdio by default, or Streamable HTTP at `/mcp` with `--http`
 * (cli/serve/serve_http.ts); with `--passthrough <namespace>`, one upstream's own
 * surface instead (cli/serve/serve_passthrough.ts).
 *
 * Sessions: every call from one stdio connection leases as one mcpx session
 * (`serve-<id>`, minted when serve starts, ended when the client leaves), so
 * a session-scoped server keeps its state across the connection's calls; a
 * request that names `_meta["mcpx/session"]` leases under that name instead.
 *
 * @module
 */

import type { CliContext } from "../context.ts";
import type { InputOf } from "../../ops/op.ts";
import type { serve } from "../../ops/serve_ops.ts";
import { UsageError } from "../../core/errors.ts";
import { metaSession, serveServer, type ServeShared } from "./serve_server.ts";
import { questionSeal } from "./serve_input.ts";
import { serveHttp } from "./serve_http.ts";
import { serveToolChoice, serveTools } from "./serve_tools.ts";
import { OPS } from "../../ops/table.ts";
import { DEFAULT_SERVE_PORT, serveListen } from "./serve_listen.ts";
import { exited, type Streamed } from "../../ops/outcome.ts";
import { subscriptionsSettled } from "./subscription_relay.ts";

/**
 * Serves MCP until the client leaves (stdio) or the process is stopped (`--http`).
 * A streamed op (decision 0064): the protocol on stdio or the socket is its output.
 *
 * @returns `exit` with the code serving ended with (0 once the client closed stdio).
 * @throws {UsageError} `--address`/`--port` without `--http`, or a `--port` that is no port.
 * @throws {ConfigError} When the configuration cannot be read.
 */
export async function handle(ctx: CliContext, input: InputOf<typeof serve>): Promise<Streamed> {
  return exited(await serveUntilDone(ctx, input));
}

async function serveUntilDone(ctx: CliContext, input: InputOf<typeof serve>): Promise<number> {
  if (!input.http && (input.address !== undefined || input.port !== undefined)) {
    throw new UsageError(
      `--${
        input.address !== undefined ? "address" : "port"
      } is for --http; add --http, or drop it ` +
        "to serve stdio",
    );
  }
  if (input.tools !== undefined && input.passthrough !== undefined) {
    throw new UsageError(
      "--tools chooses mcpx's own tools; --passthrough serves a namespace's tools instead: give one",
    );
  }
  // Refused before anything listens: a name that is no operation.
  const tools = serveTools(OPS, serveToolChoice(input.tools));
  const http = input.http
    ? await serveListen(ctx, input.address ?? "127.0.0.1", portOf(input.port))
    : undefined;
  if (input.passthrough !== undefined) {
    const { servePassthrough } = await import("./serve_passthrough.ts");
    return await servePassthrough(ctx, input.passthrough, http ? { http } : {});
  }
  // Fail now, not at the first call, on a configuration that cannot be read.
  await ctx.config();
  const base = ctx.optionsWith({});
  const shared = { ...await serveShared(ctx), tools };
  if (http) return await serveHttp(ctx, base, http, shared);
  return await serveOverStdio(ctx, shared);
}

/** What every server instance of this process shares: the question seal and the task TTL (and the tools, above). */
async function serveShared(ctx: CliContext): Promise<ServeShared> {
  return {
    seal: questionSeal(Number(await ctx.setting("elicit.timeout"))),
    taskTtlMs: Number(await ctx.setting("tasks.ttl")),
  };
}

/** Serves one stdio connection until the client closes stdin; the exit code. */
async function serveOverStdio(ctx: CliContext, shared: ServeShared): Promise<number> {
  const { serveStdio, StdioServerTransport } = await import(
    "@modelcontextprotocol/server/stdio"
  );
  const session = `serve-${crypto.randomUUID().slice(0, 12)}`;
  const base = ctx.optionsWith({});
  const { promise: closed, resolve } = Promise.withResolvers<void>();
  class Transport extends StdioServerTransport {
    override async close(): Promise<void> {
      await super.close();
      resolve();
    }
  }
  const handle = serveStdio(
    ({ era }) => serveServer(base, ({ meta }) => metaSession(meta) ?? session, shared, era),
    {
      transport: new Transport(),
      onerror: (error) => ctx.io.err(`mcpx serve: ${error.message}\n`),
    },
  );
  await closed;
  await handle.close();
  // The connection's subscriptions are ended with the daemon before the process goes.
  await subscriptionsSettled();
  // The connection's session-scoped instances end with it.
  try {
    await ctx.requestRunning("endSession", { session });
  } catch { /* no daemon, or it is gone: nothing holds the session */ }
  return 0;
}

/** The `--port` value as a number; 0 asks for any free port. @throws {UsageError} otherwise. */
function portOf(text: string | undefined): number {
  if (text === undefined) return DEFAULT_SERVE_PORT;
  const port = Number(text);
  if (!/^\d+$/.test(text.trim()) || port > 65535) {
    throw new UsageError(`--port takes a port number from 0 to 65535, got "${text}"`);
  }
  return port;
}
