/**
 * `mcpx serve --http`: Streamable HTTP at `/mcp` on a loopback address
 * (decision 0044). 2026-07-28 requests go to the SDK's per-request handler
 * (`createMcpHandler`, legacy rejected there); 2025-era requests, told apart
 * by the SDK's own `isLegacyRequest`, to a sessionful Streamable HTTP
 * transport per `Mcp-Session-Id`, so each legacy client session leases as one
 * mcpx session (`serve-<Mcp-Session-Id>`). A 2026-07-28 request leases under
 * the session its `_meta["mcpx/session"]` names, else as a caller of its own.
 *
 * Every request passes cli/serve/serve_listen.ts `serveRefusal` first: Host and
 * Origin against DNS rebinding (a page on another site that resolves its
 * name to 127.0.0.1 is refused with 403), then the bearer token beyond
 * loopback (401).
 *
 * @module
 */

import { createMcpHandler } from "@modelcontextprotocol/server";
import { legacySessions, listenMcp, serveBodyBytes, type ServeListen } from "./serve_listen.ts";

/** The mcpx session a 2025-era HTTP client's `Mcp-Session-Id` leases as. */
const keyOf = (id: string) => `serve-${id}`;
import type { CliContext } from "../context.ts";
import type { ContextOptions } from "../context_settings.ts";
import { metaSession, serveServer, type ServeShared } from "./serve_server.ts";
import { subscriptionsSettled } from "./subscription_relay.ts";

/**
 * Serves until the process is stopped (SIGINT, SIGTERM); the exit code.
 * Prints `mcpx serve: listening on http://<address>:<port>/mcp` on stderr
 * once it listens (with the real port when `port` is 0).
 */
export async function serveHttp(
  ctx: CliContext,
  base: ContextOptions,
  listen: ServeListen,
  shared: ServeShared,
): Promise<number> {
  let saidOwnCaller = false;
  const modern = createMcpHandler(
    () =>
      serveServer(
        base,
        ({ meta }) => {
          const named = metaSession(meta);
          if (named === undefined && !saidOwnCaller) {
            saidOwnCaller = true;
            ctx.io.err(
              `mcpx serve: a 2026-07-28 request named no session (_meta "mcpx/session"), so each ` +
                "such request is a caller of its own; name one to keep session-scoped servers\n",
            );
          }
          return named;
        },
        shared,
        "modern",
      ),
    {
      legacy: "reject",
      maxRequestBodySize: serveBodyBytes(listen),
      onerror: (error) => ctx.io.err(`mcpx serve: ${error.message}\n`),
    },
  );
  const code = await listenMcp(
    listen,
    {
      // 2025-era clients: a session of their own each, leasing as `serve-<Mcp-Session-Id>`.
      legacy: await legacySessions(
        () =>
          serveServer(
            base,
            ({ sessionId, meta }) =>
              metaSession(meta) ?? (sessionId !== undefined ? keyOf(sessionId) : undefined),
            shared,
            "legacy",
          ),
        {
          ...listen.sessions,
          maxBodyBytes: serveBodyBytes(listen),
          onEnded: async (id) => {
            try {
              await ctx.requestRunning("endSession", { session: keyOf(id) });
            } catch { /* no daemon: nothing holds the session */ }
          },
        },
      ),
      modern: { handle: (request) => modern.fetch(request), close: () => modern.close() },
    },
    (url) => ctx.io.err(`mcpx serve: listening on ${url}\n`),
  );
  // The sessions' subscriptions are ended with the daemon before the process goes.
  await subscriptionsSettled();
  return code;
}
