/**
 * Keeps a server's progress notifications ahead of the response they precede.
 *
 * The SDK's `Protocol` (2.4.0) hands an inbound notification to its handler
 * on a later microtask but a response to its caller at once, and forgets a
 * request's progress handler when its response arrives. A server that sends
 * its last progress and its result together (reports 100% and answers: both
 * lines in one read of a stdio pipe) has that last update dropped as "a
 * progress notification for an unknown token" before its handler runs, so a
 * call's caller, and the client of a passthrough, hears one update fewer
 * (conformance scenario tools-call-with-progress, decision 0048).
 *
 * {@link progressBeforeResponse} hands `notifications/progress` to the SDK's
 * own progress dispatch (`_onprogress`: the handler lookup, the timeout reset
 * on progress) as it arrives, before anything read after it.
 *
 * @module
 */

import type { Client, JSONRPCMessage, Transport } from "@modelcontextprotocol/client";

/**
 * Wraps `transport.onmessage` (as `client` set it when it connected) so that
 * each progress notification reaches `client`'s progress dispatch at once.
 * Does nothing when the transport has no handler yet or the SDK lacks the
 * dispatch (a newer SDK: the notification then takes the SDK's own path).
 */
export function progressBeforeResponse(client: Client, transport: Transport): void {
  const sdkOnMessage = transport.onmessage;
  const onprogress = (client as unknown as { _onprogress?: (n: unknown) => void })._onprogress;
  if (!sdkOnMessage || typeof onprogress !== "function") return;
  transport.onmessage = (message: JSONRPCMessage, extra?: unknown) => {
    const m = message as { method?: unknown; id?: unknown; params?: { progressToken?: unknown } };
    if (
      m.method === "notifications/progress" && m.id === undefined &&
      m.params?.progressToken !== undefined
    ) {
      try {
        onprogress.call(client, message);
      } catch { /* a listener's failure is not the server's */ }
      return;
    }
    (sdkOnMessage as (message: JSONRPCMessage, extra?: unknown) => void)(message, extra);
  };
}
