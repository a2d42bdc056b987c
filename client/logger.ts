/**
 * The script's structured logger, `log` (spec 000, "The script contract"):
 * `{placeholder}` templates filled from attributes, levels from
 * `MCPX_LOG_LEVEL`, call sites from `MCPX_LOG_SOURCE`, each call one record
 * (client/client_output.ts).
 *
 * @module
 */

import { LEVEL_RANK, renderTemplate, show } from "../logs/record.ts";
import type { Level } from "../logs/record.ts";
import { rtConfig } from "./client_config.ts";
import { writeRecord } from "./client_output.ts";
import { callSite, errorHeadline } from "./stack_frames.ts";

/** One logging method: `(message, attrs?, ...args)`. */
export type LogMethod = (message: unknown, ...rest: unknown[]) => void;

/** The script's logger (spec 000, "The script contract"). */
export interface Logger extends LogMethod {
  /** A record at level `debug`. */
  debug: LogMethod;
  /** A record at level `info` (what `log(…)` itself writes). */
  info: LogMethod;
  /** A record at level `warn`. */
  warn: LogMethod;
  /** A record at level `error`. */
  error: LogMethod;
  /** A logger whose records also carry `attrs`. */
  with(attrs: Record<string, unknown>): Logger;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

function logRecord(
  level: Level,
  message: unknown,
  rest: unknown[],
  bound: Record<string, unknown>,
): void {
  let args = rest;
  let attrs: Record<string, unknown> = bound;
  if (isPlainObject(rest[0])) {
    attrs = { ...bound, ...rest[0] };
    args = rest.slice(1);
  } else {
    attrs = { ...bound };
  }
  let template: string;
  if (typeof message === "string") template = message;
  else if (message instanceof Error) {
    template = errorHeadline(message);
    attrs.error = message;
  } else template = show(message);
  const msg = renderTemplate(template, attrs);
  if (args.length > 0) attrs.args = args;
  if (LEVEL_RANK[level] >= rtConfig.sourceMinRank) {
    const site = callSite();
    if (site) attrs.source = site;
  }
  writeRecord(level, "log", msg, template, attrs);
}

function makeLogger(bound: Record<string, unknown>): Logger {
  const method = (level: Level): LogMethod => {
    const rank = LEVEL_RANK[level];
    // `arguments` rather than a rest parameter: a filtered call allocates nothing.
    return function (message: unknown) {
      if (rank < rtConfig.logMinRank) return;
      const rest: unknown[] = [];
      for (let i = 1; i < arguments.length; i++) rest.push(arguments[i]);
      logRecord(level, message, rest, bound);
    } as LogMethod;
  };
  const info = method("info");
  const logger = function log(message: unknown) {
    if (LEVEL_RANK.info < rtConfig.logMinRank) return;
    const rest: unknown[] = [];
    for (let i = 1; i < arguments.length; i++) rest.push(arguments[i]);
    logRecord("info", message, rest, bound);
  } as Logger;
  logger.debug = method("debug");
  logger.info = info;
  logger.warn = method("warn");
  logger.error = method("error");
  logger.with = (attrs) => makeLogger({ ...bound, ...attrs });
  return logger;
}

/**
 * Structured logging: `log(msg)` is `log.info(msg)`. A message may hold
 * `{placeholders}` filled from the attributes (`{{x}}` is a literal `{x}`);
 * the first argument after it is attributes when it is a plain object, and
 * everything else goes to `attrs.args` (Errors as name, message, stack and
 * frames). Calls below MCPX_LOG_LEVEL cost one comparison; calls at or above
 * MCPX_LOG_SOURCE (default warn) record their call site in `attrs.source`.
 *
 * @example
 * ```ts ignore
 * log.info("fetched {count} pages", { count: 3, url });
 * const scoped = log.with({ phase: "scan" });
 * ```
 */
export const log: Logger = makeLogger({});
