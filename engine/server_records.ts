/**
 * What the daemon records of a server's notifications
 * (engine/server_notifications.ts): each log message a server sends is a
 * `server.message` record, an inbound cancellation a `server.cancelled`
 * one, and a list change is handed to the schema cache to list the server
 * again (engine/listings.ts `relist`, which writes `catalog.changed`) and
 * published on the daemon's event bus as `list.changed`; a resource update is
 * published as `resource.updated`. The subscribers watching the lists, and a
 * resource's subscribers (engine/resource_subscriptions.ts), hear both from
 * the bus, as `GET /v1/events` does, so the MCP view and the SSE view read one
 * stream (decision 0080).
 *
 * A log message is recorded in the span of the call it arrived during when
 * exactly one tool call or request is in flight on its instance, else in the
 * instance's span: MCP's `notifications/message` names no request, so with
 * two calls in flight nothing says which one it is about (decision 0034).
 * The record says which (`during`: `call` or `instance`, with `inFlight`).
 *
 * What a server sends of its own accord counts against its allowance
 * (engine/log.ts `setServerRecordLimits`, decision 0063): past it, records are
 * counted in one `server.dropped` a second rather than written.
 *
 * @module
 */

import type { Instance } from "./instance.ts";
import type { ChangedList, NotificationHooks, ServerMessage } from "./server_notifications.ts";
import type { Level } from "./log.ts";
import { log } from "./log.ts";
import { workInFlight } from "./work_in_flight.ts";
import { messageOf } from "./error_text.ts";
import { tellMessage } from "./call_messages.ts";
import type { EventBus } from "./event_bus.ts";
import { sessionOf } from "./scope_key_format.ts";

/** The longest text of one server log message kept in its record, in characters. */
export const SERVER_MESSAGE_MAX = 4096;

/** How each MCP log level (RFC 5424 severities) is recorded. */
export const RECORD_LEVEL: Readonly<Record<string, Level>> = {
  debug: "debug",
  info: "info",
  notice: "info",
  warning: "warn",
  error: "error",
  critical: "error",
  alert: "error",
  emergency: "error",
};

/** What {@link serverRecords} needs of the daemon. */
export interface ServerRecordsOptions {
  /** The log span of an instance's life (engine/instance_events.ts). */
  span(instance: Instance): string;
  /** A server said one of its lists changed: list it again (engine/listings.ts). */
  relist(instance: Instance, list: ChangedList): void;
  /** The daemon's event bus: list changes and resource updates are published on it. */
  bus: EventBus;
}

/**
 * The notification hooks of every instance the daemon starts.
 *
 * @returns Hooks for engine/instance.ts `StartOptions.notifications`.
 */
export function serverRecords(options: ServerRecordsOptions): NotificationHooks<Instance> {
  return {
    message: (instance, message) => recordMessage(instance, message, options.span(instance)),
    listChanged(instance, list) {
      options.relist(instance, list);
      // Whoever watches the lists hears it from the bus (`mcpx serve`'s merged lists, decision 0073).
      options.bus.publish("list.changed", {
        ...published(instance),
        data: { list, ...ids(instance) },
      });
    },
    // Its subscribers hear it from the bus (decisions 0048, 0080); the log does not: an update
    // carries only a URI.
    resourceUpdated: (instance, uri) =>
      options.bus.publish("resource.updated", { ...published(instance), uri, data: ids(instance) }),
    cancelled(instance, cancelled) {
      log(
        "info",
        "server.cancelled",
        "server {server} cancelled its request {requestId}: {reason}",
        {
          ...about(instance),
          requestId: String(cancelled.requestId ?? "(none)"),
          reason: (cancelled.reason ?? "no reason given").slice(0, 500),
        },
        { span: options.span(instance), server: instance.spec.name },
      );
    },
    levelRefused(instance, level, error) {
      log(
        "warn",
        "server.log-level",
        "server {server} refused logging/setLevel {level}: {error}; its log messages are not recorded",
        { ...about(instance), level, error: messageOf(error).split("\n")[0].slice(0, 500) },
        { span: options.span(instance) },
      );
    },
  };
}

/**
 * The text of a log message's `data` (a string as it is, anything else as
 * JSON), at most {@link SERVER_MESSAGE_MAX} characters, and the structured
 * `data` itself when it is not a string and its JSON fits that bound.
 */
export function messageText(data: unknown): { text: string; data?: unknown; cutFrom?: number } {
  let text: string;
  try {
    text = typeof data === "string" ? data : JSON.stringify(data) ?? String(data);
  } catch {
    text = String(data);
  }
  if (text.length > SERVER_MESSAGE_MAX) {
    return { text: text.slice(0, SERVER_MESSAGE_MAX), cutFrom: text.length };
  }
  return typeof data === "string" || data === undefined ? { text } : { text, data };
}

function recordMessage(instance: Instance, message: ServerMessage, instanceSpan: string): void {
  const { count, sole } = workInFlight(instance);
  const { text, data, cutFrom } = messageText(message.data);
  const logger = typeof message.logger === "string" ? message.logger.slice(0, 200) : undefined;
  log(
    RECORD_LEVEL[message.level] ?? "info",
    "server.message",
    logger ? "{server} ({logger}): {text}" : "{server}: {text}",
    {
      ...about(instance),
      serverLevel: message.level,
      ...(logger ? { logger } : {}),
      text,
      ...(data !== undefined ? { data } : {}),
      ...(cutFrom !== undefined ? { length: cutFrom, truncated: true } : {}),
      during: sole ? "call" : "instance",
      inFlight: count,
    },
    { span: sole ?? instanceSpan, server: instance.spec.name },
  );
  // The call it is attributed to hears it too when it asked to (engine/call_messages.ts).
  if (sole) tellMessage(sole, message);
}

/** The namespace and session an event about `instance` names. */
function published(instance: Instance): { server: string; session?: string } {
  const session = sessionOf(instance.scopeKey);
  return { server: instance.spec.namespace, ...(session ? { session } : {}) };
}

/** Which instance an event came from (engine/resource_subscriptions.ts matches on `localId`). */
function ids(instance: Instance): Record<string, unknown> {
  return { name: instance.spec.name, localId: instance.id, key: instance.key };
}

function about(instance: Instance): Record<string, unknown> {
  return {
    server: instance.spec.name,
    namespace: instance.spec.namespace,
    localId: instance.id,
    key: instance.key,
    ...(instance.pid ? { pid: instance.pid } : {}),
  };
}

export type { ChangedList };
