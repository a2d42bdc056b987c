/**
 * Connecting a client in the protocol era a server's mode asks for (spec 000,
 * "Two protocol eras"; issue 12; decision 0031):
 *
 * | mode           | how                                                                                     |
 * | -------------- | --------------------------------------------------------------------------------------- |
 * | `legacy`       | `initialize` only (the SDK's plain connect)                                             |
 * | `auto`         | `initialize`; when the answer is one only a 2026-07-28 server gives, 2026-07-28         |
 * | `preferModern` | `server/discover` first, `initialize` when the server is not modern (SDK `mode: auto`)  |
 * | `modern`       | `server/discover` at 2026-07-28 only (SDK `{ pin }`), never `initialize`                |
 *
 * The answers to `initialize` that only a 2026-07-28 server gives
 * ({@link modernOnlyAnswer}): UnsupportedProtocolVersion (-32022) naming a
 * 2026-07-28 revision; over HTTP a 400 whose JSON-RPC error is -32020 (a
 * request without the `MCP-Protocol-Version` header, which a 2025-era client
 * sends only after `initialize`); and -32601 (no method `initialize`, which
 * every 2025-era server has). Once a server was reached in 2026-07-28 that
 * way, `auto` tries that era first for it for the rest of the daemon's life
 * ({@link learnedModern}), as `preferModern` does, falling back as it does;
 * over Streamable HTTP `auto` always does ({@link effectiveMode}).
 *
 * `auto`'s second attempt reuses what the first reached: the same stdio
 * process (a 2026-07-28-only server keeps its pipe open after refusing
 * `initialize`; engine/transport_lease.ts), and over HTTP a new transport to
 * the same URL (the refusal made no session). An UnsupportedProtocolVersion
 * answer from a modern server ends the attempts: the server is of the right
 * era but offers no revision mcpx speaks, and is reported as that.
 *
 * @module
 */

import {
  type Client,
  type RequestOptions,
  SdkError,
  SdkErrorCode,
  SdkHttpError,
  SUPPORTED_PROTOCOL_VERSIONS,
  type Transport,
  type VersionNegotiationOptions,
} from "@modelcontextprotocol/client";
import type { ProtocolMode, TransportKind } from "../config/types.ts";
import { McpxError } from "../core/errors.ts";
import { settlesWithin } from "../core/deadline.ts";
import { ProcessGroupStdioTransport } from "./stdio_transport.ts";
import { TransportLease } from "./transport_lease.ts";

/** The 2026-07-28-era revisions mcpx speaks (its SDK's, client 2.4.0), newest first. */
export const MODERN_REVISIONS: readonly string[] = ["2026-07-28"];

/** The JSON-RPC code of UnsupportedProtocolVersion (MCP 2026-07-28, "Versioning"). */
export const UNSUPPORTED_PROTOCOL_VERSION = -32022;

/** Whether a protocol revision belongs to the 2026-07-28 era (revisions are ISO dates). */
export function isModernRevision(revision: string): boolean {
  return revision >= "2026-07-28";
}

/**
 * A server and mcpx share no protocol: `kind: "era"` when the server speaks
 * only the era the mode rules out (a 2026-07-28-only server under `legacy`,
 * a legacy server under `modern`), `kind: "version"` when it is of an era
 * mcpx tried but supports none of the revisions mcpx offered (an
 * UnsupportedProtocolVersion answer, -32022). `code` is `protocol-era` or
 * `protocol-version`.
 */
export class ProtocolMismatchError extends McpxError {
  readonly kind: "era" | "version";
  /** The revisions the server said it supports (empty when it did not say). */
  readonly supported: string[];
  /** The revisions mcpx offered. */
  readonly offered: string[];
  constructor(
    kind: "era" | "version",
    message: string,
    detail: { supported: string[]; offered: string[] },
    options?: ErrorOptions,
  ) {
    super(`protocol-${kind}`, message, options);
    this.name = "ProtocolMismatchError";
    this.kind = kind;
    this.supported = detail.supported;
    this.offered = detail.offered;
  }
}

/** What {@link connectInEra} needs. */
export interface EraConnectOptions {
  /** The server's name, for messages. */
  server: string;
  mode: ProtocolMode;
  /** A new client that negotiates as given (no argument: plain `initialize`). */
  client: (negotiation?: VersionNegotiationOptions) => Client;
  /** The transport of the first attempt, not started. */
  transport: Transport;
  /** A new transport to the same server: a second attempt over HTTP, or a new stdio process. */
  freshTransport: () => Transport;
  /** Passed to each `connect()` (the start allowance and its abort signal). */
  connect: RequestOptions;
}

/** A connected client and what it agreed with the server. */
export interface EraConnection {
  client: Client;
  /** The transport the server is reached through (a stdio process's own, never a lease). */
  transport: Transport;
  /** The negotiated protocol revision, e.g. `2025-11-25` or `2026-07-28`. */
  revision: string;
  era: "legacy" | "modern";
}

/**
 * Connects in the era `options.mode` asks for (see the module table).
 *
 * @returns The connected client, its transport and the negotiated revision.
 * @throws {ProtocolMismatchError} when the server and the mode share no era,
 *   or the server offers no revision mcpx speaks; whatever `connect()`
 *   throws otherwise (the caller words it: engine/start_failure.ts).
 */
export async function connectInEra(options: EraConnectOptions): Promise<EraConnection> {
  const { server, mode } = options;
  const offeredLegacy = [SUPPORTED_PROTOCOL_VERSIONS[0]];
  if (mode === "legacy" || mode === "auto") {
    const first = options.transport;
    // Over stdio the client gets a lease, so a refused initialize leaves the process running.
    const wire = mode === "auto" && first instanceof ProcessGroupStdioTransport
      ? new TransportLease(first)
      : first;
    const client = options.client();
    try {
      await client.connect(wire, options.connect);
      return connected(client, first);
    } catch (error) {
      const refusal = unsupportedVersionOf(error);
      if (!refusal) {
        if (mode === "legacy" || !modernOnlyAnswer(error)) throw error;
        // It does not speak initialize the 2025 way: speak 2026-07-28, or say why both failed.
        const second = first instanceof ProcessGroupStdioTransport
          ? first
          : options.freshTransport();
        const wire2 = second instanceof ProcessGroupStdioTransport
          ? new TransportLease(second)
          : second;
        try {
          const era = await connectModern(options, { pin: MODERN_REVISIONS[0] }, wire2, second);
          learnedModern.add(server);
          return era;
        } catch (modernError) {
          if (modernError instanceof ProtocolMismatchError) throw modernError;
          throw new McpxError(
            "protocol-era",
            `server "${server}" answered initialize as only a 2026-07-28 server does ` +
              `(${describeAnswer(error)}), and then failed at 2026-07-28 too: ` +
              `${(modernError as Error).message}`,
            { cause: modernError },
          );
        }
      }
      const modern = refusal.supported.filter(isModernRevision);
      const mutual = MODERN_REVISIONS.find((r) => modern.includes(r));
      if (mode === "legacy" || mutual === undefined) {
        throw mismatch(server, mode, modern.length > 0 && mode === "legacy" ? "era" : "version", {
          supported: refusal.supported,
          offered: mode === "legacy" ? offeredLegacy : [...offeredLegacy, ...MODERN_REVISIONS],
        }, error);
      }
      // A 2026-07-28 server that refused initialize: speak its era on what the first attempt reached.
      const second = first instanceof ProcessGroupStdioTransport ? first : options.freshTransport();
      const wire2 = second instanceof ProcessGroupStdioTransport
        ? new TransportLease(second)
        : second;
      const era = await connectModern(options, { pin: mutual }, wire2, second);
      learnedModern.add(server);
      return era;
    }
  }
  const negotiation: VersionNegotiationOptions["mode"] = mode === "modern"
    ? { pin: MODERN_REVISIONS[0] }
    : "auto";
  try {
    return await connectModern(options, negotiation, options.transport, options.transport);
  } catch (error) {
    const first = options.transport;
    // A server that exits on an unknown first request is legacy: start it again for initialize.
    if (
      mode === "preferModern" && first instanceof ProcessGroupStdioTransport &&
      error instanceof SdkError && error.code === SdkErrorCode.EraNegotiationFailed &&
      first.exited !== undefined && await settlesWithin(first.exited, 1000)
    ) {
      const fresh = options.freshTransport();
      const client = options.client();
      await client.connect(fresh, options.connect);
      return connected(client, fresh);
    }
    throw probeCause(error);
  }
}

/**
 * What made a 2026-07-28 probe fail when the probe itself is not the reason:
 * the SDK wraps a failure to reach the server at all (connection refused, a
 * DNS error, a TLS failure) in EraNegotiationFailed, whose message would then
 * hide it ("Version negotiation probe failed: fetch failed"); that failure is
 * what the start is reported with (engine/start_failure.ts words it).
 */
function probeCause(error: unknown): unknown {
  if (
    error instanceof SdkError && error.code === SdkErrorCode.EraNegotiationFailed &&
    error.cause instanceof Error && !(error.cause instanceof SdkError)
  ) {
    return error.cause;
  }
  return error;
}

async function connectModern(
  options: EraConnectOptions,
  mode: VersionNegotiationOptions["mode"],
  wire: Transport,
  transport: Transport,
): Promise<EraConnection> {
  const client = options.client({ mode });
  try {
    await client.connect(wire, options.connect);
  } catch (error) {
    const refusal = unsupportedVersionOf(error);
    if (refusal) {
      throw mismatch(options.server, options.mode, "version", {
        supported: refusal.supported,
        offered: typeof mode === "object" ? [mode.pin] : [...MODERN_REVISIONS],
      }, error);
    }
    if (
      typeof mode === "object" && error instanceof SdkError &&
      error.code === SdkErrorCode.EraNegotiationFailed
    ) {
      throw new ProtocolMismatchError(
        "era",
        `server "${options.server}" did not answer server/discover as a ${mode.pin} server ` +
          `(a legacy-era server answers only initialize), and its protocol mode "${options.mode}" ` +
          `never falls back to initialize; set "mcpx": { "protocol": "auto" } (or "preferModern") ` +
          `in mcpServers.${options.server}`,
        { supported: [], offered: [mode.pin] },
        { cause: error },
      );
    }
    throw error;
  }
  return connected(client, transport);
}

/**
 * How a server is asked, given its configured mode and transport: `auto`
 * (the default) is `preferModern` over Streamable HTTP, and for a server
 * this daemon already reached in the 2026-07-28 era ({@link learnedModern});
 * anything else as configured. Over HTTP a 2026-07-28 probe costs a legacy
 * server one refused request when its instance starts and never a second
 * start, while a legacy-first probe is itself a request a 2026-07-28 server
 * counts against the client (its `initialize` carries none of the
 * 2026-07-28 headers and `_meta`); over stdio nearly every server is legacy,
 * and one that exits on an unknown request would be started twice
 * (decision 0072, amending 0031).
 *
 * @example
 * ```ts
 * import { effectiveMode } from "./protocol_era.ts";
 * if (effectiveMode("auto", "http", "s") !== "preferModern") throw new Error();
 * if (effectiveMode("auto", "stdio", "s") !== "auto") throw new Error();
 * if (effectiveMode("legacy", "http", "s") !== "legacy") throw new Error();
 * ```
 */
export function effectiveMode(
  mode: ProtocolMode,
  transport: TransportKind,
  server: string,
): ProtocolMode {
  if (mode !== "auto") return mode;
  return transport === "http" || learnedModern.has(server) ? "preferModern" : "auto";
}

/**
 * The servers (by name) this process has reached in the 2026-07-28 era after
 * `initialize` said they are of it: `auto` asks them in that era first from
 * then on. One daemon serves one configuration, so a name is one server.
 */
export const learnedModern: Set<string> = new Set();

/** The JSON-RPC code a 2026-07-28 server gives a request without a valid `MCP-Protocol-Version` header. */
export const HEADER_MISMATCH = -32020;

/** JSON-RPC "Method not found". */
const METHOD_NOT_FOUND = -32601;

/**
 * Whether `error`, the answer to a 2025-era `initialize`, is one that only a
 * server of the 2026-07-28 era gives (see the module's notes): a -32020 in
 * the body of an HTTP 400, or a -32601 (every 2025-era server has
 * `initialize`). UnsupportedProtocolVersion is read apart
 * ({@link unsupportedVersionOf}), since the revisions it names decide more.
 *
 * @example
 * ```ts
 * import { modernOnlyAnswer } from "./protocol_era.ts";
 * if (!modernOnlyAnswer({ code: -32601, message: "Method not found" })) throw new Error();
 * if (modernOnlyAnswer({ code: -32603, message: "Internal error" })) throw new Error();
 * ```
 */
export function modernOnlyAnswer(error: unknown): boolean {
  const { code } = jsonRpcErrorOf(error) ?? {};
  if (error instanceof SdkHttpError) return error.status === 400 && code === HEADER_MISMATCH;
  return code === METHOD_NOT_FOUND;
}

/** `error`'s JSON-RPC error: its own code, or the one in an HTTP answer's body. */
function jsonRpcErrorOf(error: unknown): { code?: unknown; data?: unknown } | undefined {
  if (error instanceof SdkHttpError) {
    const text = (error.data as { text?: unknown } | undefined)?.text;
    if (typeof text !== "string") return undefined;
    try {
      return JSON.parse(text)?.error ?? undefined;
    } catch {
      return undefined;
    }
  }
  if (error !== null && typeof error === "object") {
    const { code, data } = error as { code?: unknown; data?: unknown };
    return { code, data };
  }
  return undefined;
}

/** An answer to `initialize` as a message says it: `HTTP 400, -32020 "…"`. */
function describeAnswer(error: unknown): string {
  const body = jsonRpcErrorOf(error) as { code?: unknown; message?: unknown } | undefined;
  const status = error instanceof SdkHttpError ? `HTTP ${error.status}, ` : "";
  const message = typeof body?.message === "string" ? ` "${body.message}"` : "";
  return `${status}${String(body?.code)}${message}`;
}

function connected(client: Client, transport: Transport): EraConnection {
  const revision = client.getNegotiatedProtocolVersion() ?? "unknown";
  return { client, transport, revision, era: client.getProtocolEra() ?? "legacy" };
}

/**
 * The revisions a server named when it refused mcpx's with UnsupportedProtocolVersion
 * (-32022): the SDK's error over stdio, or the JSON-RPC error in the body of an
 * HTTP 400 answer (Streamable HTTP). Undefined for any other failure.
 */
export function unsupportedVersionOf(
  error: unknown,
): { supported: string[]; requested?: string } | undefined {
  const { code, data } = jsonRpcErrorOf(error) ?? {};
  if (code !== UNSUPPORTED_PROTOCOL_VERSION || data === null || typeof data !== "object") {
    return undefined;
  }
  const { supported, requested } = data as { supported?: unknown; requested?: unknown };
  if (!Array.isArray(supported) || !supported.every((v) => typeof v === "string")) return undefined;
  return { supported, ...(typeof requested === "string" ? { requested } : {}) };
}

function mismatch(
  server: string,
  mode: ProtocolMode,
  kind: "era" | "version",
  detail: { supported: string[]; offered: string[] },
  cause: unknown,
): ProtocolMismatchError {
  const supports = detail.supported.join(", ") || "none it named";
  const message = kind === "era"
    ? `server "${server}" speaks only protocol ${supports} (2026-07-28 era: it refused ` +
      `initialize with UnsupportedProtocolVersion), and its protocol mode "${mode}" never tries ` +
      `that era; set "mcpx": { "protocol": "auto" } in mcpServers.${server}`
    : `server "${server}" supports protocol ${supports}; mcpx offered ${
      detail.offered.join(", ")
    }: no revision in common (a version mismatch within the era, not an era one); use a ` +
      `version of the server that supports ${detail.offered.join(" or ")}, or an mcpx that ` +
      `supports ${supports}`;
  return new ProtocolMismatchError(kind, message, detail, { cause });
}
