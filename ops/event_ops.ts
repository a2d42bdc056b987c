/**
 * The daemon's event bus as an operation (issue 28; spec 000 "Hearing what
 * the daemon is doing"; decision 0080): one declaration that is both
 * `GET /v1/events` (server-sent events, `stream: "sse"`) and `mcpx events`.
 * Its output is one event: each SSE message's `data:` and each `--json` line.
 *
 * @module
 */

import * as z from "zod";
import { defineOp } from "./op.ts";
import { withCaller } from "./caller_schema.ts";
import { EVENT_KINDS } from "../engine/event_bus.ts";

/** The families a kind filter may name without a dot (`server` is every `server.*`). */
export const EVENT_FAMILIES: readonly string[] = [
  ...new Set(EVENT_KINDS.filter((k) => k !== "gap").map((kind) => kind.split(".")[0])),
];
const FAMILIES = EVENT_FAMILIES;

/** A list field a query string fills: repeated (`?kind=a&kind=b`), comma-joined, or one word. */
const list = (what: string) =>
  z.preprocess(
    (value) =>
      typeof value === "string"
        ? value.split(",").map((word) => word.trim()).filter(Boolean)
        : Array.isArray(value)
        ? value.flatMap((v) =>
          typeof v === "string" ? v.split(",").map((w) => w.trim()).filter(Boolean) : [v]
        )
        : value,
    z.array(z.string().min(1)),
  ).optional().describe(what);

/** One event as the bus publishes it (engine/event_bus.ts `BusEvent`). */
export const BusEventOutput = z.object({
  id: z.string().describe("`<epoch>-<seq>`: the SSE id, what Last-Event-ID sends back"),
  seq: z.number().int().describe("1, 2, 3, … within one daemon's life"),
  kind: z.enum(EVENT_KINDS).describe("what happened (`gap`: events were lost to this reader)"),
  at: z.number().describe("when it was published, ms since the Unix epoch"),
  server: z.string().optional().describe("the namespace it is about"),
  session: z.string().optional().describe("the session it belongs to"),
  uri: z.string().optional().describe("the resource it is about (resource.updated)"),
  traceIds: z.array(z.string()).optional().describe(
    "the log spans of the call or instance (mcpx log --chain <id>)",
  ),
  data: z.record(z.string(), z.unknown()).describe("the kind's own facts"),
});

/** `GET /v1/events`, `mcpx events`. */
export const events = defineOp({
  name: "events",
  description: "The daemon's events as they happen: calls, servers starting, stopping and " +
    "crashing, questions, list changes, resource updates, sessions, dropped log records, " +
    "configuration changes; replayed from a position, filtered by kind, server and session.",
  where: "daemon",
  stream: "sse",
  hints: { readOnly: true, destructive: false, idempotent: true },
  input: withCaller({
    since: z.string().optional().describe(
      "replay what is retained after this position: a sequence number (0: all retained) or an " +
        "event id <epoch>-<seq> (as Last-Event-ID sends it); absent: only what is published from " +
        "now on (the command line without -f: 0)",
    ),
    kind: list(
      "only these kinds (call.finished; a family without a dot, such as server, is every " +
        "server.* kind)",
    ),
    server: list("only events about these namespaces"),
    session: list("only events of these sessions"),
    follow: z.boolean().optional().describe(
      "keep the stream open for new events (the route's default; on the command line, -f); " +
        "false: end once what is retained after the position is sent",
    ),
  }),
  output: BusEventOutput,
  cli: {
    command: "events",
    module: "./logs/events.ts",
    usage: "mcpx events [-f] [--since N] [--kind K…] [--server S…] [--session S]",
    summary: "the daemon's events: calls, servers' lives, questions, changes; -f follows",
    flags: {
      follow: { field: "follow", type: "boolean", short: "f" },
      since: { field: "since", type: "string" },
      kind: {
        field: "kind",
        type: "string",
        multiple: true,
        complete: [...FAMILIES, ...EVENT_KINDS.filter((k) => k !== "gap")],
      },
      server: { field: "server", type: "string", multiple: true, complete: "namespace" },
    },
  },
});
