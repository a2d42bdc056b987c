/**
 * Test helpers: records as the daemon writes them, without a daemon.
 *
 * @module
 */

import { encodeRecord, type Level, type LogRecord, recordIds, renderTemplate } from "./record.ts";

/** Builds records with increasing times from `start`, ids from one writer. */
export function recordMaker(start = Date.parse("2026-10-01T12:00:00.000Z")) {
  const next = recordIds();
  let t = start;
  return (
    level: Level,
    event: string,
    template: string,
    attrs: Record<string, unknown>,
    span: string,
    parent?: string,
    stepMs = 10,
  ): LogRecord => {
    t += stepMs;
    return {
      time: new Date(t).toISOString(),
      level,
      event,
      msg: renderTemplate(template, attrs),
      template,
      id: next(),
      span,
      ...(parent ? { parent } : {}),
      attrs,
    };
  };
}

/** The lines of `records`, as a file holds them. */
export function lines(records: LogRecord[]): string {
  return records.map(encodeRecord).join("");
}

/** A temporary logs directory, removed on dispose. */
export async function tmpLogs(): Promise<{ dir: string } & AsyncDisposable> {
  const dir = await Deno.makeTempDir({ prefix: "mcpx-logs-" });
  return { dir, [Symbol.asyncDispose]: () => Deno.remove(dir, { recursive: true }) };
}
