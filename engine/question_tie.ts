/**
 * Which tool call a server's question belongs to, when the connection says
 * (decision 0075, amending 0059's "When the wire does not say which call
 * asked").
 *
 * Over Streamable HTTP it does: a server's request tied to a call goes out on
 * that call's own response stream (MCP 2025-06-18 and 2025-11-25,
 * "Transports", "Sending Messages to the Server": the server's requests on a
 * POST's SSE stream "SHOULD relate to the originating client request"; the
 * SDK's servers send there what a tool handler asks through `ctx.mcpReq`,
 * its `relatedRequestId`). The SDK's client hands the request to its handler
 * without saying which stream it came on, but reads each stream in the
 * asynchronous context of the `send` that opened it. So a request is sent in
 * a context naming its call ({@link sendingFor}, engine/call.ts), the
 * transport opens its POST in a context naming that call as the stream's
 * ({@link onOwnStream}, engine/remote_transport.ts), and the handler of a
 * question read from that stream finds the call there ({@link tiedCall},
 * engine/client_handlers.ts). The same holds for a 2026-07-28 server's
 * `input_required` result, fulfilled by the SDK as it reads the call's
 * response.
 *
 * Over stdio and the legacy HTTP+SSE transport nothing says it (the messages
 * share one stream, and the SDK's stdio server drops `relatedRequestId`), nor
 * for a request on the standalone GET stream: {@link tiedCall} is undefined
 * and the question desk ties by instance (engine/questions.ts).
 *
 * @module
 */

import { AsyncLocalStorage } from "node:async_hooks";
import type { PendingCall } from "./pending_call.ts";

/** The call whose work is running: what its requests are sent for. */
const sending = new AsyncLocalStorage<PendingCall>();
/** The call whose request's response stream is being read; undefined elsewhere. */
const stream = new AsyncLocalStorage<PendingCall | undefined>();

/**
 * Runs `work` for `call`: each request it sends on a transport with streams
 * per request is that call's, and so is what arrives on their streams.
 *
 * @example
 * ```ts
 * import { onOwnStream, sendingFor, tiedCall } from "./question_tie.ts";
 * import { PendingCall } from "./pending_call.ts";
 * const call = new PendingCall("ns.tool", "alice");
 * const read = sendingFor(call, () => onOwnStream(true, () => tiedCall()));
 * if (read !== call) throw new Error("the stream's reader names the call");
 * const other = sendingFor(call, () => onOwnStream(false, () => tiedCall()));
 * if (other !== undefined) throw new Error("a notification's stream names none");
 * ```
 */
export function sendingFor<T>(call: PendingCall, work: () => T): T {
  return sending.run(call, work);
}

/**
 * Sends one message, such that whatever is read from a stream the send opens
 * belongs to the call it is sent for: a request's own response stream, when
 * `isRequest`; otherwise nobody's (a notification or a response opens no
 * stream of a call's, though one may start the standalone GET stream).
 *
 * @param isRequest Whether the message is a JSON-RPC request.
 * @param send The transport's own send of the message.
 */
export function onOwnStream<T>(isRequest: boolean, send: () => T): T {
  return stream.run(isRequest ? sending.getStore() : undefined, send);
}

/**
 * The call on whose request's response stream the message being handled
 * arrived, or undefined when the connection does not say.
 */
export function tiedCall(): PendingCall | undefined {
  return stream.getStore();
}
