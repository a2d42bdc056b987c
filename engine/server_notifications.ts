/**
 * What a server tells mcpx on its own, wired into the SDK's `Client` (spec
 * 000, "The rest of the protocol"; issue 12, "Capabilities a server can
 * use"):
 *
 * - `notifications/message`: a server's log message, handed to
 *   {@link NotificationHooks.message}. A server sends none until asked, so once
 *   connected mcpx asks for the entry's `logLevel` when the server declares
 *   `logging`: `logging/setLevel` in the 2025 era; in the 2026-07-28 era,
 *   which has no such request, the level rides in each request's `_meta`
 *   ({@link logLevelMeta}).
 * - `notifications/{tools,prompts,resources}/list_changed`: through the SDK's
 *   `listChanged` client option (debounced by the SDK, and in the 2026-07-28
 *   era carried by the `subscriptions/listen` stream it opens), handed to
 *   {@link NotificationHooks.listChanged}. It is a server capability: mcpx
 *   declares nothing for it.
 * - `notifications/resources/updated`: a resource someone subscribed to
 *   changed, handed to {@link NotificationHooks.resourceUpdated}
 *   (engine/resource_subscriptions.ts, decision 0048).
 * - `notifications/cancelled` for a request the server had sent mcpx: handed
 *   to {@link NotificationHooks.cancelled}, then to the SDK's own handling
 *   (which aborts that request's handler).
 *
 * Progress is per request (the `onprogress` option of a call: engine/call.ts).
 *
 * @module
 */

import {
  type Client,
  type ClientOptions,
  LOG_LEVEL_META_KEY,
  type LoggingMessageNotification,
} from "@modelcontextprotocol/client";
import type { ServerLogLevel } from "../config/types.ts";

/** The lists a server may say changed. */
export type ChangedList = "tools" | "prompts" | "resources";

/** A server's log message (`notifications/message` params). */
export type ServerMessage = LoggingMessageNotification["params"];

/** Where a server's notifications go; `instance` is the one that sent it. */
export interface NotificationHooks<I = unknown> {
  message(instance: I, message: ServerMessage): void;
  listChanged(instance: I, list: ChangedList): void;
  cancelled(instance: I, cancelled: { requestId?: unknown; reason?: string }): void;
  /** A resource subscribed to changed (`notifications/resources/updated`). */
  resourceUpdated?(instance: I, uri: string): void;
  /** Asking for log messages failed (the server refused `logging/setLevel`). */
  levelRefused(instance: I, level: ServerLogLevel, error: unknown): void;
}

/** How long the SDK waits for more `list_changed` of one list before reporting it, in ms. */
export const LIST_CHANGED_DEBOUNCE_MS = 300;

/**
 * The client options that hear list changes, and the handlers to install on
 * each client made for an instance.
 *
 * @param hooks Where notifications go; undefined: nothing is heard.
 * @param instance The instance the client serves (read when a notification arrives).
 */
export function serverNotifications<I>(
  hooks: NotificationHooks<I> | undefined,
  instance: () => I,
): { options: Pick<ClientOptions, "listChanged">; install(client: Client): Client } {
  if (!hooks) return { options: {}, install: (client) => client };
  const changed = (list: ChangedList) => ({
    autoRefresh: false,
    debounceMs: LIST_CHANGED_DEBOUNCE_MS,
    onChanged: () => hooks.listChanged(instance(), list),
  });
  return {
    options: {
      listChanged: {
        tools: changed("tools"),
        prompts: changed("prompts"),
        resources: changed("resources"),
      },
    },
    install(client) {
      client.setNotificationHandler("notifications/message", (n) => {
        hooks.message(instance(), n.params);
      });
      client.setNotificationHandler("notifications/resources/updated", (n) => {
        hooks.resourceUpdated?.(instance(), n.params.uri);
      });
      // The SDK's own handler aborts the cancelled request's handler: keep it, after the record.
      const sdkCancel = (client as unknown as { _oncancel?: (n: unknown) => Promise<void> })
        ._oncancel?.bind(client);
      client.setNotificationHandler("notifications/cancelled", async (n) => {
        const params = n.params as { requestId?: unknown; reason?: string };
        hooks.cancelled(instance(), { requestId: params.requestId, reason: params.reason });
        await sdkCancel?.(n);
      });
      return client;
    },
  };
}

/**
 * Asks a connected 2025-era server for its log messages at `level` with
 * `logging/setLevel`, when `level` is set and the server declares `logging`.
 * Does not wait for the answer (requests on one connection are sent in
 * order, so the calls after it are asked after it); a refusal goes to
 * `hooks.levelRefused`.
 */
export function askForLogMessages<I>(
  client: Client,
  level: ServerLogLevel | undefined,
  hooks: NotificationHooks<I> | undefined,
  instance: I,
): void {
  if (!level || !client.getServerCapabilities()?.logging) return;
  if (client.getProtocolEra() === "modern") return; // the level rides in each request's _meta
  client.setLoggingLevel(level).catch((error) => hooks?.levelRefused(instance, level, error));
}

/**
 * The `_meta` that asks a 2026-07-28 server for log messages at `level`
 * while it serves one request (that era has no `logging/setLevel`); empty in
 * the 2025 era, when no level is set, or when the server does not declare `logging`.
 */
export function logLevelMeta(
  client: Client,
  level: ServerLogLevel | undefined,
): Record<string, unknown> {
  if (!level || client.getProtocolEra() !== "modern") return {};
  if (!client.getServerCapabilities()?.logging) return {};
  return { [LOG_LEVEL_META_KEY]: level };
}
