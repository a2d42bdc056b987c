/**
 * Where a script's records and stderr go: rendered on the terminal
 * (`logging.format`), appended to the durable log with the run's id (spec
 * 000, "Reading the log": scripts' records land in the same files as the
 * daemon's), and, under `--json`, collected into the one document that
 * describes the run (spec 000, "The script contract"), which the command
 * renders (cli/run/script_outcome.ts).
 *
 * @module
 */

import type { Io } from "../core/io.ts";
import { droppedSentence, logsDir, LogWriter } from "../logs/writer.ts";
import { encodeRecord, type Level, LEVEL_RANK, type LogRecord, recordIds } from "../logs/record.ts";
import { localTime, renderRecord } from "../logs/render.ts";
import { withIds } from "../logs/trace_ids.ts";
import { Redactor } from "../core/redact.ts";
import { CONSOLE_EVENT, ConsoleBatch } from "./console_batch.ts";

/** Options of a {@link RecordOutput}. */
export interface RecordOutputOptions {
  io: Io;
  /** `--json`: collect everything into one document instead of printing. */
  json: boolean;
  /** `pretty`, `logfmt` or `json` (how a record is shown on stderr). */
  format: string;
  /** Least severe level shown. */
  level: string;
  stateDir: string;
  /** The durable log's directory (setting `logging.dir`); default `<stateDir>/logs`. */
  logsDir?: string;
  /** Log file rotation size, in bytes. */
  maxFileSize: number;
  /** Log retention, in ms. */
  retentionMs: number;
  /** The log directory's budget, in bytes (setting `logging.maxDirSize`; decision 0063). */
  maxDirSize?: number;
  /** This run's span id (`run-…`). */
  runId: string;
  /**
   * `id.<key>` attributes every durable record of the run carries: the
   * caller's `MCPX_TRACE_IDS` and the ids mcpx establishes (logs/trace_ids.ts).
   */
  ids?: Record<string, unknown>;
  /** A generated script file and what to call it in messages (`mcpx exec`'s code). */
  alias?: { path: string; as: string };
  /**
   * Applied to every record before it is written, shown or collected: the
   * configuration's secrets become their references (config/secrets.ts
   * `configRedactor()`, decision 0017). The script's own stdout, stderr and
   * values are its output and pass unchanged.
   */
  redactor?: Redactor;
}

/** Attributes a terminal line leaves out (they stay in the durable record). */
const HIDDEN: ReadonlySet<string> = new Set(["source", "fileOnly"]);

/** Events the runner itself interprets rather than shows as log lines. */
const VALUE_EVENTS = new Set(["run.emit", "run.result"]);

/** Renders, records and collects one run's output. */
export class RecordOutput {
  #o: RecordOutputOptions;
  #writer?: LogWriter;
  #nextId = recordIds();
  #logs: Record<string, unknown>[] = [];
  #emitted: unknown[] = [];
  #result: { value: unknown } | undefined;
  #stderr: Uint8Array[] = [];
  #runtime = "";
  #startedAt = new Date().toISOString();
  #decoder = new TextDecoder();
  #redactor: Redactor;
  #error: string | undefined;
  /** Console lines, one durable record per batch (runner/console_batch.ts). */
  #console = new ConsoleBatch((record) => this.#durable(record));

  constructor(options: RecordOutputOptions) {
    this.#o = options;
    this.#redactor = options.redactor ?? new Redactor();
    try {
      // The writer makes the folder (0700) when it opens its file.
      this.#writer = new LogWriter({
        dir: options.logsDir ?? logsDir(options.stateDir),
        source: `run-${Deno.pid}`,
        maxFileSize: options.maxFileSize,
        retentionMs: options.retentionMs,
        ...(options.maxDirSize ? { maxDirSize: options.maxDirSize } : {}),
        shortLived: true,
      });
    } catch { /* no durable log: the run still happens */ }
  }

  /** The `run.start` record: creates the run's span. */
  start(attrs: Record<string, unknown>): void {
    this.#runtime = String(attrs.runtime ?? "");
    this.#durable({
      time: this.#startedAt,
      level: "info",
      event: "run.start",
      msg: `run ${attrs.name} started on ${attrs.runtime}`,
      template: "run {name} started on {runtime}",
      id: this.#nextId(),
      span: this.#o.runId,
      attrs,
    });
  }

  /** One record from the script's stderr. */
  record(raw: Record<string, unknown>): void {
    // A console line is a `log` record as shown; only the durable log batches them.
    const fromConsole = raw.event === CONSOLE_EVENT;
    const event = typeof raw.event === "string" && !fromConsole ? raw.event : "log";
    const attrs = (raw.attrs && typeof raw.attrs === "object" ? raw.attrs : {}) as Record<
      string,
      unknown
    >;
    if (event === "run.emit") {
      this.#emitted.push(attrs.value);
      return;
    }
    if (event === "run.result") {
      this.#result = { value: attrs.value };
      return;
    }
    const level =
      (typeof raw.level === "string" && raw.level in LEVEL_RANK ? raw.level : "info") as Level;
    const record: LogRecord = {
      time: typeof raw.time === "string" ? raw.time : new Date().toISOString(),
      level,
      event,
      msg: this.#redactor.text(typeof raw.msg === "string" ? raw.msg : ""),
      template: this.#redactor.text(
        typeof raw.template === "string" ? raw.template : String(raw.msg ?? ""),
      ),
      id: typeof raw.id === "string" ? raw.id : this.#nextId(),
      span: this.#o.runId,
      attrs: this.#redactor.attrs(attrs),
    };
    if (event === "run.error") this.#error ??= record.msg;
    if (!VALUE_EVENTS.has(event)) this.#console.add(record, fromConsole);
    if (attrs.fileOnly === true) return;
    if (LEVEL_RANK[level] < (LEVEL_RANK[this.#o.level as Level] ?? 1)) return;
    if (this.#o.json) {
      this.#logs.push(JSON.parse(encodeRecord(record)));
      return;
    }
    this.#o.io.err(this.#render(record) + "\n");
  }

  /** Bytes of the script's own stderr: the script's output, passed on as they are. */
  stderr(bytes: Uint8Array): void {
    if (this.#o.json) this.#stderr.push(bytes.slice());
    else {
      const text = this.#decoder.decode(bytes, { stream: true });
      if (this.#o.io.errRaw) this.#o.io.errRaw(text);
      else this.#o.io.err(text);
    }
  }

  /** The headline of the script's uncaught error (`TypeError: …`), once it reported one. */
  get error(): string | undefined {
    return this.#error;
  }

  /** A line from mcpx itself about the run (not the script's). */
  note(message: string): void {
    if (this.#o.json) this.#logs.push({ level: "warn", event: "run.note", msg: message });
    else this.#o.io.err(`mcpx: ${message}\n`);
  }

  /**
   * Writes the `run.end` record. Under `--json`, answers the run's document
   * (ops/script_outputs.ts `RunOutput`), printed by no one here; else undefined.
   */
  end(
    outcome: { exitCode: number; durationMs: number; stdout: string },
  ): Record<string, unknown> | undefined {
    this.#console.flush();
    this.#durable({
      time: new Date().toISOString(),
      level: outcome.exitCode === 0 ? "info" : "warn",
      event: "run.end",
      msg: `run ended with exit code ${outcome.exitCode} after ${outcome.durationMs} ms`,
      template: "run ended with exit code {exitCode} after {ms} ms",
      id: this.#nextId(),
      span: this.#o.runId,
      attrs: { exitCode: outcome.exitCode, ms: outcome.durationMs },
    });
    this.#writer?.close();
    const dropped = this.#writer?.dropped;
    if (dropped) this.note(droppedSentence({ ...dropped, dir: this.#writer!.dir }));
    if (!this.#o.json) return undefined;
    const stderr = this.#decoder.decode(concat(this.#stderr));
    const document: Record<string, unknown> = {
      ok: outcome.exitCode === 0,
      exitCode: outcome.exitCode,
      durationMs: outcome.durationMs,
      runtime: this.#runtime,
      run: this.#o.runId,
      result: this.#result ? this.#result.value : parsedOrText(outcome.stdout),
      results: this.#emitted,
      logs: this.#logs,
      stdout: outcome.stdout,
      stderr,
    };
    return document;
  }

  #durable(record: LogRecord): void {
    // A full disk must not fail the run: what the writer cannot write it counts, and end() says so.
    const attrs = this.#redactor.attrs(withIds(record.attrs, this.#o.ids));
    this.#writer?.append(encodeRecord({ ...record, msg: this.#redactor.text(record.msg), attrs }));
  }

  #render(record: LogRecord): string {
    if (record.event === "run.error") return renderError(record, this.#o.alias);
    switch (this.#o.format) {
      case "json":
        return encodeRecord(record).trimEnd();
      case "logfmt":
        return logfmt(record);
      default:
        return renderRecord(record, {
          date: false,
          hide: HIDDEN,
          event: record.event !== "log" && record.event !== "console",
        });
    }
  }
}

/** Frames of the launcher, the client and the runtime itself: not the script's. */
const NOT_THE_SCRIPTS =
  /mcpx-client\.ts$|\/(?:launchers|clients)\/[0-9a-f]+(?:\.boot)?\.m?ts$|^(?:node|ext|internal|bun):/;

/**
 * A script's uncaught error: `error: Name: message` and the script's own
 * frames. A syntax error whose place came as data (bun, node; deno writes it
 * into the message) is shown as deno shows one: the line, a caret under the
 * column, and `at file:line:col`.
 */
function renderError(record: LogRecord, alias?: { path: string; as: string }): string {
  const error = (record.attrs.error ?? {}) as {
    frames?: { function?: string; file?: string; line?: number; column?: number }[];
    location?: Place;
    /** Several syntax errors reported at once (bun), each with its place; the first is `location`. */
    syntaxErrors?: { message?: string; location?: Place }[];
  };
  const place = (file: string) => {
    const path = file.replace(/^file:\/\//, "");
    return alias && decodeURI(path) === alias.path ? alias.as : path;
  };
  const at = error.location;
  if (at?.file && at.line) {
    const rest = (error.syntaxErrors ?? []).slice(1)
      .filter((e) => e.location?.file && e.location.line)
      .map((e) => placedError(`SyntaxError: ${e.message}`, e.location!, place));
    return [placedError(record.msg, at, place), ...rest].join("\n");
  }
  const frames = (error.frames ?? [])
    .filter((f) => f.file && !NOT_THE_SCRIPTS.test(f.file))
    .slice(0, 8)
    .map((f) =>
      `    at ${f.function ? `${f.function} (` : ""}${place(f.file!)}:${f.line}:${f.column}${
        f.function ? ")" : ""
      }`
    );
  // Deno reports a module that does not parse as a TypeError wrapping the SyntaxError.
  let message = record.msg.replace(/^TypeError: (SyntaxError: )/, "$1");
  if (alias) message = message.replaceAll(`file://${alias.path}`, alias.as);
  return [`error: ${message}`, ...frames].join("\n");
}

/** Where a syntax error is, as the client sent it (client/syntax_location.ts). */
interface Place {
  file?: string;
  line?: number;
  column?: number;
  lineText?: string;
}

/** `error: <headline>`, the line with a caret under the column, and `at file:line:col`. */
function placedError(headline: string, at: Place, place: (file: string) => string): string {
  const gutter = " ".repeat(String(at.line).length);
  const excerpt = at.lineText === undefined ? [] : [
    `${gutter} |`,
    `${at.line} | ${at.lineText}`,
    ...(at.column ? [`${gutter} | ${" ".repeat(Math.max(0, at.column - 1))}^`] : []),
  ];
  return [
    `error: ${headline}`,
    ...excerpt,
    `    at ${place(at.file!)}:${at.line}${at.column ? `:${at.column}` : ""}`,
  ].join("\n");
}

function logfmt(record: LogRecord): string {
  const quote = (v: unknown) => {
    const s = typeof v === "string" ? v : JSON.stringify(v) ?? String(v);
    return /[\s"=]/.test(s) || s === "" ? JSON.stringify(s) : s;
  };
  const parts = [
    `time=${localTime(record.time, false)}`,
    `level=${record.level}`,
    `msg=${quote(record.msg)}`,
  ];
  for (const [k, v] of Object.entries(record.attrs)) {
    if (v !== undefined && k !== "source") parts.push(`${k}=${quote(v)}`);
  }
  return parts.join(" ");
}

function parsedOrText(stdout: string): unknown {
  const text = stdout.trim();
  if (text === "") return null;
  try {
    return JSON.parse(text);
  } catch {
    return stdout;
  }
}

/** The chunks as one array, in order. */
export function concat(chunks: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let offset = 0;
  for (const c of chunks) {
    out.set(c, offset);
    offset += c.length;
  }
  return out;
}
