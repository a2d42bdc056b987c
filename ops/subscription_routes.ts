/**
 * The daemon's routes for resource subscriptions held on a caller's behalf
 * (engine/resource_subscriptions.ts, decision 0048): subscribe and
 * unsubscribe a subscriber (an id the caller chose, one per client
 * connection of `mcpx serve --passthrough`), and long-poll its updates.
 * ops/routes.ts spreads them into its table; the handlers are in
 * ops/daemon_subscriptions.ts.
 *
 * @module
 */

import * as z from "zod";
import { defineOp } from "./op.ts";
import { CALLER_SHAPE } from "./caller_schema.ts";

const subscriber = z.string().min(1).max(200).describe(
  "the subscriber's id (one per client connection)",
);

/** `POST /v1/resourceSubscribe`. */
export const resourceSubscribe = defineOp({
  name: "resourceSubscribe",
  description: "Subscribe to a resource of a namespace for a subscriber: the upstream is asked " +
    "(resources/subscribe) once per URI and instance; its updates wait in the subscriber's queue.",
  where: "daemon",
  hints: { readOnly: false, destructive: false, idempotent: true },
  input: z.object({
    namespace: z.string().min(1).describe("namespace or server name"),
    uri: z.string().min(1).describe("the resource's URI"),
    subscriber,
    timeoutMs: z.number().int().positive().optional().describe("limit on the request, ms"),
    ...CALLER_SHAPE,
  }),
  output: z.object({ subscribed: z.literal(true) }),
});

/** `POST /v1/resourceUnsubscribe`. */
export const resourceUnsubscribe = defineOp({
  name: "resourceUnsubscribe",
  description: "End a subscriber's subscription to a resource, or every one of its " +
    "subscriptions when no uri is given; the upstream hears resources/unsubscribe for a URI " +
    "no one else holds.",
  where: "daemon",
  hints: { readOnly: false, destructive: false, idempotent: true },
  input: z.object({
    namespace: z.string().min(1).optional().describe("namespace of the uri"),
    uri: z.string().min(1).optional().describe("the resource's URI; none: every subscription"),
    subscriber,
    ...CALLER_SHAPE,
  }),
  output: z.object({ ended: z.number().int().describe("how many subscriptions ended") }),
});

/** `POST /v1/resourceUpdates`. */
export const resourceUpdates = defineOp({
  name: "resourceUpdates",
  description: "Long-poll: the resources a subscriber's subscriptions say changed (and, once " +
    "it asked with lists, the namespaces' lists that changed), answered as soon as there are " +
    "newer ones, else none after holdMs; held is how many subscriptions it still holds, the " +
    "watch of the lists counting as one (0: poll no more).",
  where: "daemon",
  hints: { readOnly: true, destructive: false, idempotent: true },
  input: z.object({
    subscriber,
    after: z.number().int().default(0).describe("only updates with a higher seq (the last seen)"),
    holdMs: z.number().int().min(0).default(20_000).describe(
      "how long to hold the request, ms (at most 60 s)",
    ),
    lists: z.boolean().default(false).describe(
      "also watch every namespace's list changes (tools, prompts, resources) from now on",
    ),
    ...CALLER_SHAPE,
  }),
  output: z.object({
    updates: z.array(z.union([
      z.object({ seq: z.number().int(), namespace: z.string(), uri: z.string() }),
      z.object({
        seq: z.number().int(),
        namespace: z.string(),
        list: z.enum(["tools", "prompts", "resources"]),
      }),
    ])),
    held: z.number().int(),
  }),
});

/** The subscription routes by name. */
export const SUBSCRIPTION_ROUTES = {
  resourceSubscribe,
  resourceUnsubscribe,
  resourceUpdates,
} as const;
