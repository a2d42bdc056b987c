/**
 * A Streamable HTTP MCP server in the test's own process (MCP 2025-06-18,
 * "Transports"), written as a raw `Deno.serve` handler so that each failure a
 * test needs is exactly that failure: a session the server forgot (answered
 * with a chosen status), and tools whose JSON-RPC error *text* only sounds
 * like a session loss, a timeout or a broken socket. For the engine's tests;
 * not part of mcpx.
 *
 * Tools: `echo {text}`, `hang {}` (accepted, never answered), `fail
 * {message}` (a JSON-RPC error with that message), `gone {}` (HTTP 404
 * whose body says "Session not found", whatever session the request carried),
 * and `invalid {}` (a result whose content the SDK's validation refuses).
 *
 * @module
 */

import { DEFAULT_POOL, type PoolSettings, type ServerSpec } from "../config/types.ts";

type Message = { jsonrpc: "2.0"; id?: string | number; method?: string; params?: any };

/** What {@linkcode remoteFixture} serves. */
export interface RemoteFixtureOptions {
  /**
   * Issue an `Mcp-Session-Id` on `initialize` (default true); without, the
   * server is stateless and never answers a session loss.
   */
  sessions?: boolean;
  /** The status answering a request whose session id the server does not know (default 404). */
  unknownSessionStatus?: number;
}

/** A running fixture; dispose it with `await using`. */
export interface RemoteFixture extends AsyncDisposable {
  /** `http://127.0.0.1:<port>/mcp`. */
  url: string;
  /** How many requests of each JSON-RPC method (`tools/call:<tool>` per tool) the server ran. */
  ran: Map<string, number>;
  /** Requests refused because their session was unknown, with the session id each carried. */
  refused: string[];
  /** Sessions started so far (one per `initialize`). */
  sessionsStarted(): number;
  /** Forgets every session, as a server that restarted. */
  forget(): void;
}

const TOOLS = ["echo", "hang", "fail", "gone", "invalid"].map((name) => ({
  name,
  inputSchema: { type: "object", properties: {} },
}));

/** Starts the fixture on a free port of 127.0.0.1. */
export function remoteFixture(options: RemoteFixtureOptions = {}): Promise<RemoteFixture> {
  const issue = options.sessions ?? true;
  const known = new Set<string>();
  const ran = new Map<string, number>();
  const refused: string[] = [];
  let started = 0;
  const count = (name: string) => ran.set(name, (ran.get(name) ?? 0) + 1);

  const answer = (m: Message): unknown => {
    const ok = (result: unknown) => ({ jsonrpc: "2.0", id: m.id, result });
    switch (m.method) {
      case "initialize":
        return ok({
          protocolVersion: m.params?.protocolVersion ?? "2025-06-18",
          capabilities: { tools: {} },
          serverInfo: { name: "remote-fixture", version: "1.0.0" },
        });
      case "tools/list":
        return ok({ tools: TOOLS });
      case "tools/call": {
        const { name, arguments: args } = m.params ?? {};
        if (name === "echo") return ok({ content: [{ type: "text", text: String(args?.text) }] });
        // A result the SDK's own validation refuses, with its multi-line message.
        if (name === "invalid") return ok({ content: [{ type: "text" }, { type: "nope" }] });
        if (name === "fail") {
          return { jsonrpc: "2.0", id: m.id, error: { code: -32000, message: args?.message } };
        }
        return undefined; // hang
      }
      default:
        return { jsonrpc: "2.0", id: m.id, error: { code: -32601, message: "method not found" } };
    }
  };

  const sessionNotFound = (m: Message, status: number) =>
    Response.json({
      jsonrpc: "2.0",
      id: m.id ?? null,
      error: { code: -32000, message: "Session not found" },
    }, { status });

  const handle = async (request: Request): Promise<Response> => {
    if (request.method === "DELETE") return new Response(null, { status: 200 });
    if (request.method !== "POST") return new Response(null, { status: 405 });
    const m = await request.json() as Message;
    const session = request.headers.get("mcp-session-id");
    if (m.method === "initialize") {
      started++;
      count("initialize");
      const id = `s${started}`;
      if (issue) known.add(id);
      return Response.json(answer(m), { headers: issue ? { "mcp-session-id": id } : {} });
    }
    if (issue && (!session || !known.has(session))) {
      refused.push(session ?? "");
      return sessionNotFound(m, options.unknownSessionStatus ?? 404);
    }
    if (m.id === undefined) return new Response(null, { status: 202 });
    count(m.method === "tools/call" ? `tools/call:${m.params?.name}` : m.method ?? "");
    if (m.method === "tools/call" && m.params?.name === "gone") return sessionNotFound(m, 404);
    const reply = answer(m);
    if (reply === undefined) {
      await new Promise<void>((resolve) => {
        if (request.signal.aborted) resolve();
        request.signal.addEventListener("abort", () => resolve(), { once: true });
      });
      return new Response(null, { status: 499 });
    }
    return Response.json(reply);
  };

  return new Promise((resolve) => {
    const server = Deno.serve({
      hostname: "127.0.0.1",
      port: 0,
      onListen: ({ port }) =>
        resolve({
          url: `http://127.0.0.1:${port}/mcp`,
          ran,
          refused,
          sessionsStarted: () => started,
          forget: () => known.clear(),
          async [Symbol.asyncDispose]() {
            await server.shutdown();
          },
        }),
    }, handle);
  });
}

/** A Streamable HTTP server entry for `url`, named `remote`, with `pool` over the defaults. */
export function remoteSpec(url: string, pool: Partial<PoolSettings> = {}): ServerSpec {
  return {
    name: "remote",
    namespace: "remote",
    disabled: false,
    tags: [],
    profiles: [],
    default: true,
    toolTags: {},
    toolFilter: { exclude: [] },
    transport: "http",
    url,
    args: [],
    env: {},
    headers: {},
    pool: { ...DEFAULT_POOL, ...pool },
    poolId: "remote-pool",
    listingId: "remote-listing",
  };
}
