/**
 * A record as one readable line:
 * `2026-10-01 12:00:00.123 INFO  call.end     fs.read answered in 3.2 ms  session=abc`.
 * Attributes the message already shows are not repeated (spec 000, "The
 * script contract"). Local time; `--json` keeps the record as written.
 *
 * @module
 */

import { type LogRecord, placeholderNames, show } from "./record.ts";

/** Options of {@link renderRecord}. */
export interface RenderOptions {
  /** Print the date too (default true). */
  date?: boolean;
  /** Attributes never listed after the message (default: none). */
  hide?: ReadonlySet<string>;
  /** Longest attribute value shown, in characters (default 120). */
  maxValue?: number;
  /** Show the event column (default true; a script's plain `log` records leave it out). */
  event?: boolean;
}

/**
 * Renders one record.
 *
 * @returns The line, without a newline.
 */
export function renderRecord(record: LogRecord, options: RenderOptions = {}): string {
  const used = placeholderNames(record.template);
  const max = options.maxValue ?? 120;
  const rest = Object.entries(record.attrs)
    .filter(([k, v]) => !used.has(k) && !options.hide?.has(k) && v !== undefined)
    .map(([k, v]) => {
      const text = show(v).replace(/\s+/g, " ");
      return `${k}=${text.length > max ? `${text.slice(0, max - 1)}…` : text}`;
    });
  return [
    localTime(record.time, options.date ?? true),
    record.level.toUpperCase().padEnd(5),
    ...(options.event === false ? [] : [record.event.padEnd(12)]),
    record.msg.includes("\n") ? record.msg.replace(/\n/g, "\n    ") : record.msg,
    ...rest,
  ].join(" ");
}

/** `2026-10-01 12:00:00.123` (or the time alone) in the local zone. */
export function localTime(iso: string, date = true): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  const p = (n: number, w = 2) => String(n).padStart(w, "0");
  const time = `${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}.${
    p(d.getMilliseconds(), 3)
  }`;
  return date ? `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${time}` : time;
}
