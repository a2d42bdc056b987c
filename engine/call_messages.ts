/**
 * Who hears a server's log messages besides mcpx's log: a call that asked
 * to (engine/call.ts `CallOptions.onmessage`) listens under its log span
 * while it runs, and engine/server_records.ts tells the span a message is
 * attributed to, which is a call's only when that call is the one piece of
 * work in flight on its instance (MCP's `notifications/message` names no
 * request; decision 0034). Decision 0048: the passthrough passes these on.
 *
 * @module
 */

import type { ServerMessage } from "./server_notifications.ts";

const listeners = new Map<string, (message: ServerMessage) => void>();

/**
 * Hands each log message attributed to `span` to `hear` until the returned
 * function is called (calling it again does nothing).
 */
export function hearMessages(span: string, hear: (message: ServerMessage) => void): () => void {
  listeners.set(span, hear);
  return () => {
    if (listeners.get(span) === hear) listeners.delete(span);
  };
}

/** Tells `span`'s listener, if any, of `message`; whether one heard it. */
export function tellMessage(span: string, message: ServerMessage): boolean {
  const hear = listeners.get(span);
  if (!hear) return false;
  try {
    hear(message);
  } catch { /* a listener's failure is not the server's */ }
  return true;
}
