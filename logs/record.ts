/**
 * The shape of one log record, as written (one JSON line) and as read back.
 *
 * A record names the thing it happened inside (`span`: a daemon, a server
 * instance, a call, a script run); only the record that creates a span
 * carries `parent`, the span it was created inside. Walking `parent` from a
 * call reaches the instance that served it, then the daemon that started that
 * (spec 000, "Reading the log").
 *
 * ```json
 * {"time":"2026-10-01T12:00:00.123Z","level":"info","event":"call.end",
 *  "msg":"everything.echo answered in 3.2 ms","template":"{namespace}.{tool} answered in {ms} ms",
 *  "id":"5f0c1e9a2b3d00000007","span":"cal-9f3c0a1b2c3d","attrs":{"namespace":"everything",…}}
 * ```
 *
 * Keys are written in this order and `attrs` is always last, so a reader can
 * take the attributes' JSON text without re-encoding it.
 *
 * @module
 */

/** Record levels, least severe first. */
export type Level = "debug" | "info" | "warn" | "error";

/** Rank of each level: `--level warn` keeps ranks ≥ 2. */
export const LEVEL_RANK: Readonly<Record<Level, number>> = { debug: 0, info: 1, warn: 2, error: 3 };

/** One record. */
export interface LogRecord {
  /** ISO 8601 in UTC with milliseconds (`Date.prototype.toISOString`), so text order is time order. */
  time: string;
  level: Level;
  /** What happened, dotted: `daemon.start`, `server.exit`, `call.end`; `log` for a plain message. */
  event: string;
  /** The message with placeholders filled. */
  msg: string;
  /** The message as written, with `{placeholders}`: records differing only in values share it. */
  template: string;
  /** This record's own id: unique, and increasing within one writer. */
  id: string;
  /** The id of what this record happened inside (`dmn-…`, `ins-…`, `cal-…`, `run-…`). */
  span: string;
  /** Only on the record that creates `span`: the span it was created inside. */
  parent?: string;
  /** Everything else, redacted (core/redact.ts). */
  attrs: Record<string, unknown>;
}

/** Kinds of span and the prefix of their ids. */
export const SPAN_PREFIX = { daemon: "dmn", instance: "ins", call: "cal", run: "run" } as const;

/** A kind of span. */
export type SpanKind = keyof typeof SPAN_PREFIX;

function randomHex(bytes: number): string {
  const buffer = crypto.getRandomValues(new Uint8Array(bytes));
  let out = "";
  for (const b of buffer) out += b.toString(16).padStart(2, "0");
  return out;
}

/**
 * A new span id: the kind's prefix and 12 random hex digits.
 *
 * @param kind What the span is.
 * @returns e.g. `cal-9f3c0a1b2c3d`.
 * @example
 * ```ts
 * import { newSpanId } from "./record.ts";
 * if (!/^ins-[0-9a-f]{12}$/.test(newSpanId("instance"))) throw new Error();
 * ```
 */
export function newSpanId(kind: SpanKind): string {
  return `${SPAN_PREFIX[kind]}-${randomHex(6)}`;
}

/**
 * Record ids for one writer: 12 random hex digits fixed for the writer, then a
 * counter in 8 hex digits. Unique across writers, and sorting by id keeps one
 * writer's records in the order written (two records of the same millisecond
 * stay in order).
 *
 * @returns A function that returns the next id, e.g. `5f0c1e9a2b3d00000007`.
 * @example
 * ```ts
 * import { recordIds } from "./record.ts";
 * const next = recordIds();
 * const a = next(), b = next();
 * if (!(a < b) || a.length !== 20) throw new Error();
 * ```
 */
export function recordIds(): () => string {
  const prefix = randomHex(6);
  let n = 0;
  return () => prefix + (n++).toString(16).padStart(8, "0");
}

/**
 * Fills `{name}` (or `{a.b}`) placeholders from `attrs`; `{{` and `}}` write
 * literal braces. A placeholder with no value is left as written, so the hole
 * is visible (spec 000, "The script contract").
 *
 * @param template e.g. `"fetched {count} pages"`.
 * @param attrs Values by name.
 * @returns The message, e.g. `"fetched 3 pages"`.
 * @example
 * ```ts
 * import { renderTemplate } from "./record.ts";
 * if (renderTemplate("{n} of {m} {{x}}", { n: 1 }) !== "1 of {m} {x}") throw new Error();
 * ```
 */
export function renderTemplate(template: string, attrs: Record<string, unknown>): string {
  if (!template.includes("{") && !template.includes("}")) return template;
  return template.replace(/\{\{|\}\}|\{([^{}]*)\}/g, (whole, name: string | undefined) => {
    if (whole === "{{") return "{";
    if (whole === "}}") return "}";
    const value = lookup(attrs, name!.trim());
    return value === undefined ? whole : show(value);
  });
}

/**
 * The attribute names a template's placeholders consume (the first segment
 * of a dotted name), so a reader does not print them twice.
 *
 * @param template e.g. `"{a.b} and {c}"`.
 * @returns e.g. `Set {"a", "c"}`.
 */
export function placeholderNames(template: string): Set<string> {
  const names = new Set<string>();
  for (const m of template.replaceAll("{{", "").matchAll(/\{([^{}]+)\}/g)) {
    names.add(m[1].trim().split(".")[0]);
  }
  return names;
}

function lookup(attrs: Record<string, unknown>, path: string): unknown {
  if (Object.hasOwn(attrs, path)) return attrs[path];
  let value: unknown = attrs;
  for (const part of path.split(".")) {
    if (value === null || typeof value !== "object" || !Object.hasOwn(value, part)) {
      return undefined;
    }
    value = (value as Record<string, unknown>)[part];
  }
  return value;
}

/** A value as it reads inside a sentence: strings as they are, errors by message, the rest as JSON. */
export function show(value: unknown): string {
  if (typeof value === "string") return value;
  if (value instanceof Error) return value.message;
  if (value === undefined) return "undefined";
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

/**
 * Encodes a record as its JSON line (with the trailing newline), keys in the
 * documented order, `parent` only when present.
 *
 * @param record The record.
 * @returns One line of JSON ending in `\n`.
 */
export function encodeRecord(record: LogRecord): string {
  const ordered: Record<string, unknown> = {
    time: record.time,
    level: record.level,
    event: record.event,
    msg: record.msg,
    template: record.template,
    id: record.id,
    span: record.span,
  };
  if (record.parent) ordered.parent = record.parent;
  ordered.attrs = record.attrs;
  return JSON.stringify(ordered) + "\n";
}
