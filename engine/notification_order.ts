/**
 * Keeps a server's notifications ahead of the response they precede, in the
 * order the server sent them.
 *
 * The SDK's `Protocol` (2.4.0) hands an inbound notification to its handler
 * on a later microtask but a response to its caller at once, and forgets a
 * request's progress handler when its response arrives. A server that sends
 * its last notifications and its result together (reports 100%, logs "done"
 * and answers: all lines in one read of a stdio pipe, or one SSE chunk) has
 * its last progress update dropped as "a progress notification for an
 * unknown token" before its handler runs (conformance scenario
 * tools-call-with-progress, decision 0048), and its log messages heard after
 * the call's response, when nothing of the call listens any more.
 *
 * {@link notificationsBeforeResponse} hands each response to the SDK one
 * microtask after it is read: the notifications read before it, whose
 * handlers the SDK runs one microtask after each is read, run first and in
 * the order they came, and the response then finds the request's progress
 * handler still there. Nothing of the SDK's internals is used.
 *
 * @module
 */

import type { JSONRPCMessage, Transport } from "@modelcontextprotocol/client";

/**
 * Wraps `transport.onmessage` (as the SDK's client set it when it
 * connected) so that a response (a message with an `id` and no `method`)
 * reaches the SDK after the notifications read before it have reached their
 * handlers. Every other message is handed on at once. Does nothing when the
 * transport has no handler yet.
 */
export function notificationsBeforeResponse(transport: Transport): void {
  const sdkOnMessage = transport.onmessage as
    | ((message: JSONRPCMessage, extra?: unknown) => void)
    | undefined;
  if (!sdkOnMessage) return;
  transport.onmessage = (message: JSONRPCMessage, extra?: unknown) => {
    const m = message as { method?: unknown; id?: unknown };
    if (m.method === undefined && m.id !== undefined) {
      queueMicrotask(() => sdkOnMessage(message, extra));
      return;
    }
    sdkOnMessage(message, extra);
  };
}
