/**
 * The SDK `Client` an instance speaks through (engine/instance.ts): one made
 * per connection attempt, for a start and for an adoption alike.
 *
 * @module
 */

import { Client, type VersionNegotiationOptions } from "@modelcontextprotocol/client";
import type { ServerSpec } from "../config/types.ts";
import { VERSION } from "../core/version.ts";
import { clientCapabilities, installClientHandlers } from "./client_handlers.ts";
import { questionDesk } from "./questions.ts";
import { serverNotifications } from "./server_notifications.ts";
import type { Instance, StartOptions } from "./instance.ts";

/**
 * Makes the SDK `Client` for an instance of `spec`, with mcpx's capabilities
 * and the handlers that serve them, both before connect (spec 000).
 */
export function clientMaker(
  spec: ServerSpec,
  options: StartOptions,
  self: () => Instance,
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
