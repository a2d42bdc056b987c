/**
 * Reading one line of a log file as a record's fields, fast: lines as
 * logs/writer.ts writes them are read by position, parsing only `attrs` and
 * the two message strings; any other line is parsed whole. Private to logs/
 * (logs/ingest.ts indexes what it returns).
 *
 * @module
 */

/** The fields of one record line that the index stores. */
export interface Fields {
  time: string;
  level: string;
  event: string;
  msg: string;
  template: string;
  id: string;
  span: string;
  parent: string | null;
  attrs: Record<string, unknown>;
  attrsText: string;
}

let hourKey = "";
let hourMs = 0;

/**
 * Milliseconds since the epoch of an ISO 8601 time. The writer's form
 * (`2026-10-01T12:34:56.789Z`) is read by position, the hour cached (records
 * come in time order); any other form goes to `Date.parse`.
 */
export function epochMs(time: string): number {
  if (time.length !== 24 || time.charCodeAt(23) !== 90 /* Z */ || time.charCodeAt(19) !== 46) {
    return Date.parse(time);
  }
  const hour = time.slice(0, 13);
  if (hour !== hourKey) {
    const base = Date.parse(`${hour}:00:00.000Z`);
    if (Number.isNaN(base)) return base;
    hourKey = hour;
    hourMs = base;
  }
  const d = (i: number) => time.charCodeAt(i) - 48;
  const minutes = d(14) * 10 + d(15);
  const seconds = d(17) * 10 + d(18);
  const ms = d(20) * 100 + d(21) * 10 + d(22);
  if (!(minutes < 60 && seconds < 61 && ms >= 0 && ms < 1000 && minutes >= 0 && seconds >= 0)) {
    return Date.parse(time);
  }
  return hourMs + minutes * 60_000 + seconds * 1000 + ms;
}

/**
 * The fields of a line in the writer's key order, or undefined when the line
 * is not in that shape. A JSON string cannot contain an unescaped `"`, so
 * each key found after a closing quote is a top-level key.
 */
function byPosition(line: string): Fields | undefined {
  if (!line.startsWith('{"time":"') || !line.endsWith("}}")) return undefined;
  let at = 9;
  const time = plain(line, at);
  if (time === undefined) return undefined;
  at += time.length;
  const level = after(line, '","level":"', at);
  if (level === undefined) return undefined;
  at += 11 + level.length;
  const event = after(line, '","event":"', at);
  if (event === undefined) return undefined;
  at += 11 + event.length;
  if (!line.startsWith('","msg":"', at)) return undefined;
  const msgStart = at + 9;
  const msgEnd = closingQuote(line, msgStart);
  if (msgEnd < 0 || !line.startsWith(',"template":"', msgEnd + 1)) return undefined;
  const templateEnd = closingQuote(line, msgEnd + 14);
  if (templateEnd < 0) return undefined;
  const id = after(line, ',"id":"', templateEnd + 1);
  if (id === undefined) return undefined;
  at = templateEnd + 1 + 7 + id.length;
  const span = after(line, '","span":"', at);
  if (span === undefined) return undefined;
  at += 10 + span.length + 1;
  let parent: string | null = null;
  if (line.startsWith(',"parent":"', at)) {
    const value = plain(line, at + 11);
    if (value === undefined) return undefined;
    parent = value;
    at += 11 + value.length + 1;
  }
  if (!line.startsWith(',"attrs":{', at)) return undefined;
  const attrsText = line.slice(at + 9, -1);
  let attrs: unknown;
  let msg: unknown;
  let template: unknown;
  try {
    attrs = JSON.parse(attrsText);
    msg = text(line, msgStart, msgEnd);
    template = text(line, msgEnd + 14, templateEnd);
  } catch {
    return undefined;
  }
  if (attrs === null || typeof attrs !== "object" || Array.isArray(attrs)) return undefined;
  return {
    time,
    level,
    event,
    msg: msg as string,
    template: template as string,
    id,
    span,
    parent,
    attrs: attrs as Record<string, unknown>,
    attrsText,
  };
}

/** The string whose characters run from `start` to the closing quote at `end`, unescaped. */
function text(line: string, start: number, end: number): string {
  const raw = line.slice(start, end);
  return raw.includes("\\") ? JSON.parse(line.slice(start - 1, end + 1)) : raw;
}

/** The index of the `"` closing a string whose characters start at `from`, or -1. */
function closingQuote(line: string, from: number): number {
  let at = from;
  while (true) {
    const quote = line.indexOf('"', at);
    if (quote < 0) return -1;
    let slashes = 0;
    for (let i = quote - 1; i >= from && line.charCodeAt(i) === 92; i--) slashes++;
    if (slashes % 2 === 0) return quote;
    at = quote + 1;
  }
}

/** The string value starting after `key` at `from`. */
function after(line: string, key: string, from: number): string | undefined {
  return line.startsWith(key, from) ? plain(line, from + key.length) : undefined;
}

/** The characters from `from` to the next `"`, or undefined when they hold an escape. */
function plain(line: string, from: number): string | undefined {
  const end = line.indexOf('"', from);
  if (end < 0) return undefined;
  const value = line.slice(from, end);
  return value.includes("\\") ? undefined : value;
}

function byParsing(line: string): Fields | undefined {
  let r: Record<string, unknown>;
  try {
    r = JSON.parse(line);
  } catch {
    return undefined;
  }
  if (
    r === null || typeof r !== "object" || typeof r.time !== "string" ||
    typeof r.id !== "string" || typeof r.span !== "string" || typeof r.msg !== "string"
  ) return undefined;
  const attrs = r.attrs !== null && typeof r.attrs === "object" && !Array.isArray(r.attrs)
    ? r.attrs as Record<string, unknown>
    : {};
  return {
    time: r.time,
    level: typeof r.level === "string" ? r.level : "info",
    event: typeof r.event === "string" ? r.event : "log",
    msg: r.msg,
    template: typeof r.template === "string" ? r.template : r.msg,
    id: r.id,
    span: r.span,
    parent: typeof r.parent === "string" && r.parent ? r.parent : null,
    attrs,
    attrsText: JSON.stringify(attrs),
  };
}

/**
 * The fields of a record line, or undefined when the line is not a record
 * (not JSON, or without `time`, `id`, `span` or `msg`).
 */
export function recordFields(line: string): Fields | undefined {
  return byPosition(line) ?? byParsing(line);
}
