/**
 * `mcpx doctor --online`'s look at one URL server: does it answer like an MCP
 * endpoint? Any HTTP answer is not enough (a 404 page or a teapot answers
 * too, and `mcpx ls` then fails), so the probe sends what a client sends
 * first and judges the reply:
 *
 * - Streamable HTTP (MCP 2025-03-26 and later, "Transports"): a POST of an
 *   `initialize` request accepting JSON and an event stream; a JSON-RPC
 *   message in the body (a result or an error, in JSON or in an SSE `data:`
 *   line) is an MCP endpoint, whatever the status;
 * - a 401 carrying a `WWW-Authenticate` challenge is an endpoint that wants
 *   OAuth (MCP 2025-06-18, "Authorization"; RFC 9728): reachable, and
 *   `mcpx auth <name>` signs in;
 * - the legacy SSE transport (2024-11-05): a GET that opens
 *   `text/event-stream`;
 * - anything else (a 404, a 418, an HTML page, no answer) fails, with a fix.
 *
 * A session the server opened for the probe is ended with a DELETE.
 *
 * @module
 */

import { authHeaders, authUrl } from "../../config/auth.ts";
import type { ServerSpec } from "../../config/types.ts";
import { VERSION } from "../../core/version.ts";
import type { Finding } from "./doctor_check.ts";

/** How long the probe waits for each URL server, ms. */
export const PROBE_TIMEOUT_MS = 5_000;

/** The most of a body read looking for a JSON-RPC message, bytes. */
const MAX_BODY_BYTES = 64 * 1024;

/** The protocol revision the probe's `initialize` names (any era's server answers it somehow). */
const PROBE_PROTOCOL_VERSION = "2025-06-18";

/**
 * Probes one URL server and says whether it answers like an MCP endpoint.
 *
 * @param spec A server with `url` set (`transport` `http` or `sse`); its headers and
 *   static `auth` are sent, as a listing would send them.
 * @param shown The URL as a message may show it (no credentials, no query).
 * @param timeoutMs How long to wait for the answer, ms.
 * @returns One finding: `ok` for an MCP answer, `info` for an OAuth challenge,
 *   `fail` (with a fix) otherwise. Never throws.
 */
export async function probeUrlServer(
  spec: ServerSpec,
  shown: string,
  timeoutMs = PROBE_TIMEOUT_MS,
): Promise<Finding> {
  const fail = (message: string): Finding => ({
    status: "fail",
    subject: spec.name,
    message,
    fix: `check mcpServers.${spec.name}.url (an MCP endpoint's path, often /mcp) and the ` +
      "network; mcpx ls shows the error a listing meets",
  });
  const url = authUrl(spec.url!, spec.auth);
  const headers = { ...spec.headers, ...authHeaders(spec.auth) };
  const signal = AbortSignal.timeout(timeoutMs);
  let response: Response;
  try {
    response = spec.transport === "sse"
      ? await fetch(url, {
        headers: { ...headers, accept: "text/event-stream" },
        redirect: "manual",
        signal,
      })
      : await fetch(url, {
        method: "POST",
        headers: {
          ...headers,
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
        },
        body: JSON.stringify({
          jsonrpc: "2.0",
          id: 1,
          method: "initialize",
          params: {
            protocolVersion: PROBE_PROTOCOL_VERSION,
            capabilities: {},
            clientInfo: { name: "mcpx-doctor", version: VERSION },
          },
        }),
        redirect: "manual",
        signal,
      });
  } catch (error) {
    // Without any credentials a URL in the runtime's message might carry.
    return fail(
      `${shown} did not answer: ${(error as Error).message.replace(/\/\/[^/\s@]*@/g, "//")}`,
    );
  }
  const status = response.status;
  const type = (response.headers.get("content-type") ?? "").split(";")[0].trim().toLowerCase();
  if (status === 401 && response.headers.has("www-authenticate")) {
    await response.body?.cancel();
    return {
      status: "info",
      subject: spec.name,
      message: `${shown} is an MCP endpoint that asks for sign-in (HTTP 401 with a ` +
        `WWW-Authenticate challenge); \`mcpx auth ${spec.name}\` signs in if that is not done`,
    };
  }
  if (spec.transport === "sse") {
    await response.body?.cancel();
    if (status === 200 && type === "text/event-stream") {
      return { status: "ok", subject: spec.name, message: `${shown} opened an SSE stream` };
    }
    return fail(`${shown} answered HTTP ${status}${type ? ` (${type})` : ""}, not an SSE stream`);
  }
  const body = await firstBytes(response, signal);
  const session = response.headers.get("mcp-session-id");
  if (session !== null) await endSession(url, headers, session);
  if (isJsonRpcAnswer(body, type)) {
    return {
      status: "ok",
      subject: spec.name,
      message: `${shown} answered initialize as an MCP endpoint (HTTP ${status})`,
    };
  }
  return fail(
    `${shown} answered HTTP ${status}${type ? ` (${type})` : ""}, not as an MCP endpoint ` +
      "(no JSON-RPC answer to initialize)",
  );
}

/**
 * True when `body` holds a JSON-RPC 2.0 response (a `result` or an `error`):
 * the whole body for `application/json`, a `data:` line for `text/event-stream`.
 */
export function isJsonRpcAnswer(body: string, contentType: string): boolean {
  const candidates = contentType === "text/event-stream"
    ? body.split(/\r?\n/).filter((l) => l.startsWith("data:")).map((l) => l.slice(5))
    : [body];
  return candidates.some((text) => {
    try {
      const message = JSON.parse(text);
      return message?.jsonrpc === "2.0" && ("result" in message || "error" in message);
    } catch {
      return false;
    }
  });
}

/** Up to {@link MAX_BODY_BYTES} of the body, or until an SSE event ends; then the rest is dropped. */
async function firstBytes(response: Response, signal: AbortSignal): Promise<string> {
  if (!response.body) return "";
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let text = "";
  try {
    while (text.length < MAX_BODY_BYTES && !signal.aborted) {
      const { done, value } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
      // An event stream may stay open: its first whole event is enough.
      if (/\n\r?\n/.test(text) && text.includes("data:")) break;
    }
  } catch {
    // A body cut off by the timeout: judge what arrived.
  } finally {
    await reader.cancel().catch(() => {});
  }
  return text;
}

/** Ends the session the probe's `initialize` opened (MCP "Session Management"); errors ignored. */
async function endSession(url: string, headers: Record<string, string>, session: string) {
  try {
    const response = await fetch(url, {
      method: "DELETE",
      headers: { ...headers, "mcp-session-id": session },
      signal: AbortSignal.timeout(PROBE_TIMEOUT_MS),
    });
    await response.body?.cancel();
  } catch {
    // The server keeps a session it did not let go of; nothing to say to the user.
  }
}
