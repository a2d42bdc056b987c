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
  input: z.object({
    args: z.array(z.string()).default([]).describe("`sql '<select …>'`, or the id for --chain"),
    since: z.string().optional(),
    level: z.string().optional(),
    event: z.string().optional(),
    server: z.string().optional(),
    grep: z.string().optional(),
    limit: z.string().optional(),
    follow: z.boolean().optional(),
    chain: z.boolean().optional(),
    schema: z.boolean().optional(),
    path: z.boolean().optional(),
  }),
  output: LogOutput,
  cli: {
    command: "log",
    usage:
      "mcpx log [--since 1h] [--level warn] [--event 'server.*'] [--server S] [--session K] [--grep RE] [-n N] [-f] | --chain [id] | sql '<select …>' [--schema] [--path]",
    summary: "the durable log: records newest last, a call's chain, or a read-only SQL query",
    args: [{ field: "args", name: "sql|id", variadic: true, optional: true, complete: ["sql"] }],
    flags: {
      since: {
        field: "since",
        type: "string",
        help: "records since a duration ago (1h, 2d) or a time (2026-10-01T12:00)",
      },
      level: {
        field: "level",
        type: "string",
        help: "least severe level shown: debug, info, warn, error",
        complete: ["debug", "info", "warn", "error"],
      },
      event: {
        field: "event",
        type: "string",
        help: "event names or globs, comma-separated ('server.*,call.end')",
      },
      server: {
        field: "server",
        type: "string",
        help: "records of one server",
        complete: "namespace",
      },
      grep: {
        field: "grep",
        type: "string",
        help: "regular expression over the message and the attributes",
      },
      limit: {
        field: "limit",
        type: "string",
        short: "n",
        help: "most records (the newest; default 100)",
      },
      follow: {
        field: "follow",
        type: "boolean",
        short: "f",
        help: "keep printing records as they arrive",
      },
      chain: {
        field: "chain",
        type: "boolean",
        help: "the call (or span, or record) <id> and what led to it; no id: recent calls",
      },
      schema: {
        field: "schema",
        type: "boolean",
        help: "with sql: print the index's tables and views",
      },
      path: { field: "path", type: "boolean", help: "with sql: print the index file's path" },
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
    since: z.string().optional(),
    limit: z.string().optional(),
  }),
  output: StatsOutput,
  cli: {
    command: "stats",
    usage: "mcpx stats [calls|slowest|servers|instances|errors|sessions|volume] [--since T] [-n N]",
    summary: "aggregates of the log: latency percentiles, slowest calls, processes, errors, volume",
    args: [{ field: "view", name: "view", optional: true, complete: STATS_VIEWS }],
    flags: {
      since: {
        field: "since",
        type: "string",
        help: "only what happened since a duration ago (1h) or a time",
      },
      limit: {
        field: "limit",
        type: "string",
        short: "n",
        help: "most rows (slowest, instances, errors, sessions)",
      },
    },
  },
});
