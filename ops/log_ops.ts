/**
 * The durable log and its aggregates (spec 000, "The log is the record").
 * They read the log's index in the CLI's process; a query runs in a child
 * that can be stopped (decision 0015).
 *
 * @module
 */

import * as z from "zod";
import { STATS_VIEWS } from "../logs/stats.ts";
import { defineOp } from "./op.ts";
import { LogOutput, StatsOutput } from "./log_outputs.ts";

const READ = { readOnly: true, destructive: false, idempotent: true } as const;

/** `mcpx log`. */
export const log = defineOp({
  name: "log",
  description:
    "The durable log: records newest last, a call's chain (`chain`), or a read-only SQL query over its index (`sql`).",
  where: "cli",
  hints: READ,
  serve: {
    core: false,
    refuse: (input: { follow?: boolean }) =>
      input.follow
        ? "follow streams until interrupted, which a tool call cannot; call again with since or " +
          "limit for what is new"
        : undefined,
  },
  input: z.object({
    args: z.array(z.string()).default([]).describe(
      "`sql` and a read-only SELECT query, or the id for --chain",
    ),
    since: z.string().optional().describe("records since a duration ago or a point in time"),
    level: z.string().optional().describe("least severe level shown: debug, info, warn, error"),
    event: z.string().optional().describe(
      "event names or globs, comma-separated, such as server.*,call.end",
    ),
    server: z.string().optional().describe("records of one server"),
    grep: z.string().optional().describe(
      "regular expression over the message and the attributes",
    ),
    limit: z.string().optional().describe("most records (the newest; default 100)"),
    follow: z.boolean().optional().describe("keep printing records as they arrive"),
    chain: z.boolean().optional().describe(
      "the call (or span, or record) <id> and what led to it; no id: recent calls",
    ),
    schema: z.boolean().optional().describe("with sql: print the index's tables and views"),
    path: z.boolean().optional().describe("with sql: print the index file's path"),
  }),
  output: LogOutput,
  cli: {
    command: "log",
    module: "./logs/log.ts",
    usage:
      "mcpx log [--since 1h] [--level warn] [--event 'server.*'] [--server S] [--session K] [--grep RE] [-n N] [-f] | --chain [id] | sql '<select …>' [--schema] [--path]",
    summary: "the durable log: records newest last, a call's chain, or a read-only SQL query",
    args: [{ field: "args", name: "sql|id", variadic: true, optional: true, complete: ["sql"] }],
    flags: {
      since: {
        field: "since",
        type: "string",
        syntax: "duration-or-time",
      },
      level: {
        field: "level",
        type: "string",
        complete: ["debug", "info", "warn", "error"],
      },
      event: {
        field: "event",
        type: "string",
      },
      server: {
        field: "server",
        type: "string",
        complete: "namespace",
      },
      grep: {
        field: "grep",
        type: "string",
      },
      limit: {
        field: "limit",
        type: "string",
        short: "n",
      },
      follow: {
        field: "follow",
        type: "boolean",
        short: "f",
      },
      chain: {
        field: "chain",
        type: "boolean",
      },
      schema: {
        field: "schema",
        type: "boolean",
      },
      path: { field: "path", type: "boolean" },
    },
  },
});

/** `mcpx stats`. */
export const stats = defineOp({
  name: "stats",
  description:
    "Aggregates of the log: latency percentiles per tool, slowest calls, processes, errors, sessions, volume.",
  where: "cli",
  hints: READ,
  input: z.object({
    view: z.string().optional().describe(`one of ${STATS_VIEWS.join(", ")} (default calls)`),
    since: z.string().optional().describe(
      "only what happened since a duration ago or a point in time",
    ),
    limit: z.string().optional().describe("most rows (slowest, instances, errors, sessions)"),
  }),
  output: StatsOutput,
  cli: {
    command: "stats",
    module: "./logs/stats.ts",
    usage: "mcpx stats [calls|slowest|servers|instances|errors|sessions|volume] [--since T] [-n N]",
    summary: "aggregates of the log: latency percentiles, slowest calls, processes, errors, volume",
    args: [{ field: "view", name: "view", optional: true, complete: STATS_VIEWS }],
    flags: {
      since: {
        field: "since",
        type: "string",
        syntax: "duration-or-time",
      },
      limit: {
        field: "limit",
        type: "string",
        short: "n",
      },
    },
  },
});
