/**
 * Streamable HTTP for `mcpx serve --passthrough <namespace> --http`: `/mcp`
 * on the address given, both protocol eras. A 2025-era client gets a session
 * of its own (`Mcp-Session-Id`, a `DELETE` ends it, a stream closed mid-call
 * can be resumed from its event store); a 2026-07-28 client is served per
 * request (the SDK's `createMcpHandler`). Every request passes
 * cli/serve/serve_listen.ts `serveRefusal` first (Host and Origin against DNS
 * rebinding, the bearer token beyond loopback), as `mcpx serve --http` does.
 *
 * @module
 */

import {
  createMcpHandler,
  type EventStore,
  type JSONRPCMessage,
  type McpServer,
  type Server,
} from "@modelcontextprotocol/server";
import { legacySessions, listenMcp, serveBodyBytes, type ServeListen } from "./serve_listen.ts";

/** A session's streams, kept so a client that lost one can resume it (SEP-1699). */
export class MemoryEventStore implements EventStore {
  #events: { id: string; stream: string; message: JSONRPCMessage }[] = [];
  /** The most events kept; the oldest go first. */
  static readonly MAX = 1_000;

  /** Keeps `message`, sent on `stream`; its event id. */
  storeEvent(stream: string, message: JSONRPCMessage): Promise<string> {
    const id = `${stream}_${crypto.randomUUID()}`;
    this.#events.push({ id, stream, message });
    if (this.#events.length > MemoryEventStore.MAX) this.#events.shift();
    return Promise.resolve(id);
  }

  /** The stream an event was sent on, or undefined when it is no longer kept. */
  getStreamIdForEventId(id: string): Promise<string | undefined> {
    return Promise.resolve(this.#events.find((e) => e.id === id)?.stream);
  }

  /** Sends the events of `lastEventId`'s stream after it; that stream's id ("" when unknown). */
  async replayEventsAfter(
    lastEventId: string,
    { send }: { send: (id: string, message: JSONRPCMessage) => Promise<void> },
  ): Promise<string> {
    const at = this.#events.findIndex((e) => e.id === lastEventId);
    if (at < 0) return "";
    const stream = this.#events[at].stream;
    for (const e of this.#events.slice(at + 1)) {
      if (e.stream === stream) await send(e.id, e.message);
    }
    return stream;
  }
}

/**
 * Serves `build`'s servers at `http://<address>:<port>/mcp` until SIGINT or
 * SIGTERM; 0 then.
 *
 * @param build A fresh server for a 2025-era session or a 2026-07-28 request.
 * @param listen The address and port (0: any free port).
 * @param onListen Told the URL once the port is open.
 */
export async function servePassthroughHttp(
  build: () => Server | McpServer,
  listen: ServeListen,
  onListen: (url: string) => void,
): Promise<number> {
  const maxBodyBytes = serveBodyBytes(listen);
  const modern = createMcpHandler(() => build(), {
    legacy: "reject",
    maxRequestBodySize: maxBodyBytes,
  });
  const legacy = await legacySessions(build, {
    ...listen.sessions,
    maxBodyBytes,
    eventStore: () => new MemoryEventStore(),
    retryInterval: 100,
  });
  return await listenMcp(listen, {
    legacy,
    modern: { handle: (request) => modern.fetch(request), close: () => modern.close() },
  }, onListen);
}
