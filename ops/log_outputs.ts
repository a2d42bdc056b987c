/**
 * What the log ops answer (ops/log_ops.ts): the documents `mcpx --json log`
 * and `mcpx --json stats` print, field for field (logs/query.ts,
 * logs/stats.ts, logs/sql_query.ts). tests/json_output_test.ts checks each
 * against what the command prints.
 *
 * @module
 */

import * as z from "zod";
import { Level, LogRecord } from "./output_shapes.ts";

/** `mcpx --json log [filters]`: the records, newest last. */
export const LogRecordsOutput = z.strictObject({ records: z.array(LogRecord) });

/** `mcpx --json log --chain` (no id): recent calls, newest first. */
export const LogCallsOutput = z.strictObject({
  calls: z.array(z.strictObject({
    call: z.string().describe("the call's span id, for --chain"),
    time: z.string(),
    server: z.string(),
    tool: z.string(),
    ms: z.number(),
    ok: z.boolean(),
  })),
});

/** `mcpx --json log --chain <id>`: the call and what led to it, outermost first. */
export const LogChainOutput = z.strictObject({
  chain: z.array(z.strictObject({
    depth: z.number().int().describe("0: the outermost span"),
    record: LogRecord,
  })),
});

/** `mcpx --json log sql --path`. */
export const LogPathOutput = z.strictObject({ path: z.string().describe("the index file") });

/** `mcpx --json log sql --schema`: the index's tables and views. */
export const LogSchemaOutput = z.strictObject({
  schema: z.array(z.strictObject({ type: z.string(), name: z.string(), sql: z.string() })),
});

/** `mcpx --json log sql '<select …>'` (logs/sql_query.ts `SqlAnswer`). */
export const LogSqlOutput = z.strictObject({
  columns: z.array(z.string()),
  rows: z.array(z.array(z.unknown())).describe("values as JSON has them; blobs as <n bytes>"),
  stopped: z.strictObject({
    limit: z.enum(["rows", "bytes", "printed"]),
    rows: z.number().int(),
    setting: z.enum(["log.sqlMaxRows", "log.sqlMaxBytes"]),
    max: z.number(),
  }).optional().describe("the answer was cut short by this bound"),
});

/**
 * `mcpx --json log`: one document by form; with `-f` (a stream) one
 * {@link LogRecord} per line as records arrive, the first ones without the
 * `records` wrapper.
 */
export const LogOutput = z.union([
  LogRecordsOutput,
  LogCallsOutput,
  LogChainOutput,
  LogPathOutput,
  LogSchemaOutput,
  LogSqlOutput,
  LogRecord,
]).describe(
  "one document by form (records, calls, chain, path, schema, or a query's columns and rows); " +
    "with -f a stream: one log record per line, as records arrive",
);

/** What every stats document starts with: the view and, with `--since`, from when (ISO). */
const head = <V extends string>(view: V) => ({
  view: z.literal(view),
  since: z.string().optional().describe("--since, as an ISO time"),
});

/** `mcpx --json stats [view]`: by view (logs/stats.ts), each `{ view, since?, rows }` but volume. */
export const StatsOutput = z.discriminatedUnion("view", [
  z.strictObject({
    ...head("calls"),
    rows: z.array(z.strictObject({
      server: z.string(),
      namespace: z.string(),
      tool: z.string(),
      calls: z.number().int(),
      errors: z.number().int(),
      p50: z.number().describe("ms"),
      p95: z.number().describe("ms"),
      p99: z.number().describe("ms"),
      max: z.number().describe("ms"),
    })),
  }),
  z.strictObject({
    ...head("slowest"),
    rows: z.array(z.strictObject({
      call: z.string(),
      time: z.string(),
      server: z.string(),
      namespace: z.string(),
      tool: z.string(),
      ms: z.number(),
      ok: z.boolean(),
      session: z.string().optional(),
      instance: z.string().optional(),
      error: z.string().optional(),
    })),
  }),
  z.strictObject({
    ...head("servers"),
    rows: z.array(z.strictObject({
      server: z.string(),
      starts: z.number().int(),
      running: z.number().int(),
      failedStarts: z.number().int(),
      exits: z.record(z.string(), z.number().int()).describe("by reason: idle, crash, stop…"),
      calls: z.number().int(),
      errors: z.number().int(),
      lastStart: z.string().optional(),
    })),
  }),
  z.strictObject({
    ...head("instances"),
    rows: z.array(z.strictObject({
      instance: z.string(),
      server: z.string(),
      pid: z.number().int().optional(),
      key: z.string().optional(),
      started: z.string(),
      ended: z.string().optional(),
      uptimeMs: z.number().optional(),
      why: z.string().optional(),
      code: z.number().int().optional(),
      signal: z.string().optional(),
      calls: z.number().int(),
      daemon: z.string().optional(),
    })),
  }),
  z.strictObject({
    ...head("errors"),
    rows: z.array(z.strictObject({
      template: z.string(),
      count: z.number().int(),
      level: Level.extract(["warn", "error"]),
      first: z.string(),
      last: z.string(),
      where: z.array(z.string()).describe("server.tool, the server, or the event"),
      example: z.strictObject({ msg: z.string(), span: z.string() }),
    })),
  }),
  z.strictObject({
    ...head("sessions"),
    rows: z.array(z.strictObject({
      session: z.string().optional().describe("the session key or run id"),
      kind: z.enum(["session", "run", "none"]),
      calls: z.number().int(),
      errors: z.number().int(),
      ms: z.number().describe("time in calls"),
      first: z.string(),
      last: z.string(),
      tools: z.array(z.string()),
    })),
  }),
  z.strictObject({
    ...head("volume"),
    hours: z.array(z.strictObject({
      hour: z.string().describe("UTC, 2026-10-01T12:00Z"),
      debug: z.number().int(),
      info: z.number().int(),
      warn: z.number().int(),
      error: z.number().int(),
      total: z.number().int(),
    })),
    disk: z.strictObject({
      files: z.number().int(),
      fileBytes: z.number().int(),
      indexBytes: z.number().int(),
    }),
  }),
]);
