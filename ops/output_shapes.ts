/**
 * Output shapes several ops' documents share: what a server would run, why a
 * server cannot start, a log record, the records a full disk kept out of the
 * log, and the error document every command prints under `--json` when it
 * fails. Each is declared once here and used by the ops' output schemas
 * (ops/*_outputs.ts).
 *
 * Objects are strict: a field a document gains or loses without its schema
 * fails tests/json_output_test.ts. What a server or a script wrote (a tool's
 * schema, a record's attributes) stays open.
 *
 * @module
 */

import * as z from "zod";
import { SCOPES, SHARINGS } from "../config/types.ts";

/** A JSON object mcpx passes on as it got it (a tool's JSON Schema, a record's attributes). */
export const JsonObject = z.record(z.string(), z.unknown());

/** `shared` or `exclusive` (config/types.ts `Sharing`; spec 000, "Sharing and scope"). */
export const Sharing = z.enum(SHARINGS);

/** What an instance is keyed by (config/types.ts `Scope`; spec 000, "Sharing and scope"). */
export const Scope = z.enum(SCOPES);

/** What one server would run, as data: every field the trust hash covers (config/runs_of.ts). */
export const Runnable = z.strictObject({
  aliasOf: z.string().optional().describe("the server whose process an alias runs"),
  command: z.string().optional().describe("stdio: the program, as written"),
  args: z.array(z.string()).optional().describe("stdio: its arguments, secrets as references"),
  env: z.record(z.string(), z.string()).optional().describe("stdio: variables set for it"),
  cwd: z.string().optional().describe("stdio: the directory it starts in, absolute"),
  url: z.string().optional().describe("remote: the URL, credentials redacted"),
  headers: z.record(z.string(), z.string()).optional().describe("remote: the headers sent"),
  transport: z.string().optional().describe("the transport as written"),
  auth: z.strictObject({ type: z.string(), fields: z.record(z.string(), z.string()) }).optional()
    .describe("the auth block: its kind and each field as written, secrets as references"),
});

/** Why a project's server is not trusted (config/types.ts `UntrustedServer.reason`). */
export const UntrustedReason = z.enum(["new-file", "new-server", "changed"]);

/**
 * Why the configuration keeps a server from starting (config/types.ts
 * `ServerUnavailable`): an unset `${VAR}`, or a project's file not trusted
 * with what the server runs (decision 0018).
 */
export const ServerUnavailable = z.discriminatedUnion("code", [
  z.strictObject({
    code: z.literal("unset-variable"),
    message: z.string(),
    variables: z.array(z.string()).describe("the unset variables, in the order written"),
  }),
  z.strictObject({
    code: z.literal("untrusted"),
    message: z.string(),
    file: z.string().describe("the configuration file as found (absolute)"),
    trustCommand: z.string().describe("the command that trusts it"),
    runs: z.string().describe("what the server would run, one line"),
    runnable: Runnable,
    reason: UntrustedReason,
  }),
]);

/** A log record's level (logs/record.ts `Level`). */
export const Level = z.enum(["debug", "info", "warn", "error"]);

/** One record of the durable log, as logs/record.ts `encodeRecord` writes it. */
export const LogRecord = z.strictObject({
  time: z.string().describe("ISO 8601, UTC, milliseconds"),
  level: Level,
  event: z.string().describe("dotted: daemon.start, server.exit, call.end; log for a message"),
  msg: z.string().describe("the message with placeholders filled"),
  template: z.string().describe("the message as written, with {placeholders}"),
  id: z.string().describe("this record's id"),
  span: z.string().describe("what it happened inside: dmn-, ins-, cal-, run-…"),
  parent: z.string().optional().describe("on the record that creates span: the enclosing span"),
  attrs: JsonObject.describe("everything else, redacted"),
});

/** Records a log writer could not write (a full disk): logs/writer.ts `DroppedRecords`, and where. */
export const DroppedRecords = z.strictObject({
  records: z.number().int().describe("how many records were not written"),
  since: z.string().describe("ISO time of the first"),
  last: z.string().describe("ISO time of the latest"),
  problem: z.enum(["no-space", "quota", "read-only", "permission"]).optional(),
  error: z.string().describe("the file system's message for the latest failure"),
  dir: z.string().describe("the log directory"),
});

/**
 * What every command prints on stdout under `--json` when it fails, whatever
 * its op (cli/main.ts; core/errors.ts `errorToJson`), secrets as their references.
 */
export const ErrorDocument = z.strictObject({
  ok: z.literal(false),
  error: z.strictObject({
    code: z.string().describe("what failed, as data: not-found, usage, timeout, …"),
    message: z.string(),
    suggestions: z.array(z.string()).optional().describe("names near the one not found"),
    namespace: z.string().optional().describe(
      "the namespace named, when the configuration does not show it",
    ),
    stderrTail: z.string().optional().describe("the end of the server's stderr"),
    ms: z.number().optional().describe("the limit that passed, ms"),
    bound: z.enum(["leaseTimeout", "startTimeout", "firstStartTimeout", "callTimeout"])
      .optional(),
    setting: z.string().optional().describe("what set the limit"),
    limit: z.number().optional().describe("an input's limit, bytes"),
  }),
});

/**
 * A server start (and the first listing under it) in progress, as discovery
 * and `status` show it (discovery/types.ts `StartingListing`, decision 0010).
 */
export const Starting = z.strictObject({
  elapsedMs: z.number().describe("time since the start began, ms"),
  allowanceMs: z.number().describe("how long the start may take, ms"),
  bound: z.enum(["startTimeout", "firstStartTimeout"]).describe("the setting that sets it"),
  phase: z.enum(["installing", "starting"]).optional().describe(
    "installing: a package runner (npx) is still downloading the server",
  ),
});

/**
 * How long a discovery request waits for the listings it needs, in ms
 * (engine/tool_listing.ts `ListingWait`, decision 0010); absent: until each ends.
 */
export const ListingWait = z.strictObject({
  startedMs: z.number().min(0).describe("until a listing is this old (from when it began)"),
  joinedMs: z.number().min(0).describe("at least this long for a listing already in progress"),
});
