/**
 * The SDK `Client` an instance speaks through (engine/instance.ts): one made
 * per connection attempt, for a start and for an adoption alike.
 *
 * @module
 */

import { Client, type VersionNegotiationOptions } from "@modelcontextprotocol/client";
import type { ServerSpec } from "../config/types.ts";
import { VERSION } from "../core/version.ts";
import { clientCapabilities, installClientHandlers, type ServerAsked } from "./client_handlers.ts";
import { questionDesk } from "./questions.ts";
import { type NotificationHooks, serverNotifications } from "./server_notifications.ts";

/** What {@link clientMaker} tells an instance's owner (engine/instance.ts `StartOptions`). */
export interface ClientHooks<I> {
  /** Told of each question the server asks mcpx (`roots/list`, …; engine/client_handlers.ts). */
  onAsked?: (instance: I, question: ServerAsked) => void;
  /** Where the server's log messages, list changes and cancellations go (engine/server_records.ts). */
  notifications?: NotificationHooks<I>;
}

/**
 * Makes the SDK `Client` for an instance of `spec`, with mcpx's capabilities
 * and the handlers that serve them, both before connect (spec 000). Generic
 * over the instance so this module does not import engine/instance.ts, which
 * imports it.
 */
export function clientMaker<I extends { id: string }>(
  spec: ServerSpec,
  options: ClientHooks<I>,
  self: () => I,
): (negotiation?: VersionNegotiationOptions) => Client {
  const heard = serverNotifications(options.notifications, self);
  return (negotiation) =>
    heard.install(
      installClientHandlers(
        new Client({ name: "mcpx", version: VERSION }, {
          capabilities: clientCapabilities(spec.roots),
          inputRequired: { maxRounds: questionDesk.inputRounds },
          ...heard.options,
          ...(negotiation ? { versionNegotiation: negotiation } : {}),
        }),
        spec.roots,
        (question) => options.onAsked?.(self(), question),
        () => ({ instanceId: self().id, server: spec.name, namespace: spec.namespace }),
      ),
    );
}
