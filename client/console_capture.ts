/**
 * Console capture (spec 000, "What the console does and does not capture"):
 * the console's members turned into records whose message is exactly what
 * the real console would have printed, formatted by a console of the
 * runtime's own making; members that print to stdout keep printing there and
 * are also recorded file-only.
 *
 * @module
 */

import { LEVEL_RANK, show } from "../logs/record.ts";
import type { Level } from "../logs/record.ts";
import { rtConfig } from "./client_config.ts";
import { writeRecord } from "./client_output.ts";
import { rtDeno, rtProcess } from "./host_runtime.ts";
import { callerFrames, callSite, renderFrame } from "./stack_frames.ts";

type ConsoleFn = (...args: unknown[]) => unknown;

let rtShadowText: string[] | null = null;

/**
 * A console of the runtime's own making whose output is collected rather
 * than printed, so a record's message is exactly what the real console would
 * have printed (format specifiers, inspect, group indentation, counters).
 */
function makeShadowConsole(): Record<string, ConsoleFn> | null {
  const collect = (text: unknown) => {
    rtShadowText?.push(String(text));
    return true;
  };
  try {
    const internal = rtDeno && rtDeno.internal !== undefined ? rtDeno[rtDeno.internal] : undefined;
    if (typeof internal?.Console === "function") return new internal.Console(collect);
  } catch { /* fall through to node:console */ }
  try {
    const nodeConsole = rtProcess?.getBuiltinModule?.("node:console");
    const nodeStream = rtProcess?.getBuiltinModule?.("node:stream");
    if (typeof nodeConsole?.Console === "function" && nodeStream?.Writable) {
      // A real Writable: node's Console drops writes to anything less, silently.
      // Its write callback runs synchronously, so text arrives before the call returns.
      const sink = new nodeStream.Writable({
        decodeStrings: false,
        write(chunk: unknown, _encoding: string, done: () => void) {
          collect(chunk);
          done();
        },
      });
      return new nodeConsole.Console({ stdout: sink, stderr: sink, colorMode: false });
    }
  } catch { /* no shadow: plain formatting */ }
  return null;
}

/** How each console member is treated. */
const CONSOLE_LEVELS: Record<string, Level> = {
  debug: "debug",
  info: "info",
  warn: "warn",
  error: "error",
};
/** Members that print to stdout: left as they are, and also recorded file-only. */
const CONSOLE_STDOUT = [
  "log",
  "dir",
  "dirxml",
  "table",
  "count",
  "countReset",
  "time",
  "timeLog",
  "timeEnd",
  "group",
  "groupCollapsed",
  "groupEnd",
];
/** Devtools markers: no output anywhere, so a file-only record keeps them. */
const CONSOLE_MARKERS = ["profile", "profileEnd", "timeStamp", "clear"];

let rtConsoleCaptured = false;

// ANSI SGR sequences, which Deno's console adds when its stream is a terminal.
// deno-lint-ignore no-control-regex
const SGR = /\u001b\[[0-9;]*m/g;

function nameFunction<T extends ConsoleFn>(fn: T, name: string): T {
  Object.defineProperty(fn, "name", { value: name, configurable: true });
  return fn;
}

/**
 * Wraps the console's members (once; later calls do nothing): levelled
 * members become records, stdout members are also recorded file-only,
 * devtools markers become file-only records. Levels and call sites follow
 * `MCPX_LOG_LEVEL` and `MCPX_LOG_SOURCE` at the time of each call.
 */
export function captureConsoleMembers(): void {
  if (rtConsoleCaptured) return;
  rtConsoleCaptured = true;
  const target = globalThis.console as unknown as Record<string, ConsoleFn>;
  const original: Record<string, ConsoleFn> = {};
  // Only the members wrapped here are read: bun's console has lazy members
  // (`Console`) whose first read loads node:console.
  const wrapped = [
    ...Object.keys(CONSOLE_LEVELS),
    "assert",
    "trace",
    ...CONSOLE_STDOUT,
    ...CONSOLE_MARKERS,
  ];
  for (const key of wrapped) {
    if (typeof target[key] === "function") original[key] = target[key].bind(target);
  }
  // Made on first use: loading node:console and node:stream costs bun ~12 ms
  // (measured), which a script that never touches the console should not pay.
  let shadow: Record<string, ConsoleFn> | null | undefined;
  const format = (method: string, args: unknown[]): string => {
    if (shadow === undefined) shadow = makeShadowConsole();
    if (!shadow || typeof shadow[method] !== "function") {
      return args.map((a) => (typeof a === "string" ? a : show(a))).join(" ");
    }
    rtShadowText = [];
    try {
      shadow[method](...args);
      const text = rtShadowText.join("");
      const plain = text.includes("\u001b[") ? text.replace(SGR, "") : text;
      return plain.endsWith("\n") ? plain.slice(0, -1) : plain;
    } finally {
      rtShadowText = null;
    }
  };
  const record = (level: Level, msg: string, args: unknown[], extra?: Record<string, unknown>) => {
    // A format string is the template; otherwise the message is its own.
    const first = args[0];
    const formatted = typeof first === "string" && (args.length === 1 || first.includes("%"));
    const template = formatted ? first : msg;
    const values = formatted ? args.slice(1) : args;
    const attrs: Record<string, unknown> = { ...extra };
    if (values.length > 1 || (values.length === 1 && typeof values[0] !== "string")) {
      attrs.args = values;
    }
    if (LEVEL_RANK[level] >= rtConfig.sourceMinRank) {
      const site = callSite();
      if (site) attrs.source = site;
    }
    // `console`, not `log`: the runner batches console lines (runner/console_batch.ts).
    writeRecord(level, "console", msg, template, attrs);
  };
  // Native members call each other (group calls log, table calls log): only
  // the outermost call is recorded, nested ones go straight to the original.
  let depth = 0;
  const wrap = (method: string, body: (args: unknown[]) => void) => {
    const native = original[method];
    if (!native) return;
    target[method] = nameFunction((...args: unknown[]) => {
      if (depth > 0) return native(...args);
      depth++;
      try {
        body(args);
      } finally {
        depth--;
      }
    }, method);
  };

  for (const [method, level] of Object.entries(CONSOLE_LEVELS)) {
    const rank = LEVEL_RANK[level];
    wrap(method, (args) => {
      if (rank < rtConfig.logMinRank) return;
      record(level, format(method, args), args);
    });
  }
  wrap("assert", (args) => {
    if (args[0] || LEVEL_RANK.error < rtConfig.logMinRank) return;
    record("error", format("assert", args), args.slice(1));
  });
  wrap("trace", (args) => {
    if (LEVEL_RANK.info < rtConfig.logMinRank) return;
    const frames = callerFrames();
    const text = ["Trace: " + format("log", args), ...frames.map(renderFrame)].join("\n");
    record("info", text, args, { frames });
  });
  for (const method of CONSOLE_STDOUT) {
    const native = original[method];
    wrap(method, (args) => {
      native(...args);
      // Only counters, timers and groups keep state the shadow must follow.
      const stateless = method === "log" || method === "dir" || method === "dirxml" ||
        method === "table";
      if (stateless && LEVEL_RANK.info < rtConfig.logMinRank) return;
      const text = format(method, args);
      if (text !== "" && LEVEL_RANK.info >= rtConfig.logMinRank) {
        record("info", text, args, { fileOnly: true });
      }
    });
  }
  for (const method of CONSOLE_MARKERS) {
    const native = original[method];
    wrap(method, (args) => {
      native(...args);
      if (method === "clear") format("clear", []); // resets the shadow's group indentation
      if (LEVEL_RANK.info < rtConfig.logMinRank) return;
      const label = args.length ? ` ${args.map((a) => String(a)).join(" ")}` : "";
      record("info", `console.${method}${label}`, [], { fileOnly: true });
    });
  }
}
