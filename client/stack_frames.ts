/**
 * Stack frames as data (spec 000, "Structured stack traces"): an error's
 * frames, the caller's, and the call site a record names, read through V8's
 * call sites (`Error.prepareStackTrace`) where the runtime has them and parsed
 * from `.stack` text where it does not.
 *
 * The runtime's own frames are those in the file of the runtime code that
 * asked: the client, once bundled; the asking module when run from source.
 *
 * @module
 */

import type { Loose } from "./host_runtime.ts";

/** One stack frame as data (spec 000, "Structured stack traces"). */
export interface StackFrame {
  /** `fn`, `Type.method`, `new Type`, or null for top-level code. */
  function: string | null;
  /** The script's URL or path; null when V8 has none (eval, native). */
  file: string | null;
  /** 1-based. */
  line: number | null;
  /** 1-based. */
  column: number | null;
  /** The frame is an `await` continuation. */
  async: boolean;
  /** The frame is native (built-in) code. */
  native: boolean;
}

function frameOfSite(site: Loose): StackFrame {
  let fn: string | null = site.getFunctionName?.() ?? null;
  if (site.isConstructor?.()) fn = `new ${fn ?? "<anonymous>"}`;
  else if (site.isToplevel?.() === false) {
    const type = site.getTypeName?.();
    const method = site.getMethodName?.();
    if (fn && type && !fn.startsWith(`${type}.`)) fn = `${type}.${fn}`;
    else if (!fn && method) fn = `${type ?? "<anonymous>"}.${method}`;
  }
  return {
    function: fn,
    file: site.getScriptNameOrSourceURL?.() || site.getFileName?.() || null,
    line: site.getLineNumber?.() ?? null,
    column: site.getColumnNumber?.() ?? null,
    async: site.isAsync?.() ?? false,
    native: site.isNative?.() ?? false,
  };
}

function prepareFrames(_error: unknown, sites: Loose[]): StackFrame[] {
  return sites.map(frameOfSite);
}

function siteFile(site: Loose): string | null {
  return site.getScriptNameOrSourceURL?.() || site.getFileName?.() || null;
}

/**
 * Only the runtime's frame that asked and the first call site outside its
 * file, as frames: the cheap path for `attrs.source`.
 */
function prepareCallSite(_error: unknown, sites: Loose[]): StackFrame[] {
  if (sites.length === 0) return [];
  const own = siteFile(sites[0]);
  for (const site of sites) {
    if (siteFile(site) !== own) return [frameOfSite(sites[0]), frameOfSite(site)];
  }
  return [frameOfSite(sites[0])];
}

/** Runs `read` with `prepare` installed, then restores what was there. */
function withFramePreparer<T>(
  limit: number | undefined,
  read: () => T,
  prepare: (error: unknown, sites: Loose[]) => StackFrame[] = prepareFrames,
): T {
  const E = Error as Loose;
  const hadOwn = Object.hasOwn(Error, "prepareStackTrace");
  const previous = E.prepareStackTrace;
  const previousLimit = E.stackTraceLimit;
  E.prepareStackTrace = prepare;
  if (limit !== undefined) E.stackTraceLimit = limit;
  try {
    return read();
  } finally {
    if (hadOwn) E.prepareStackTrace = previous;
    else delete E.prepareStackTrace;
    if (limit !== undefined) E.stackTraceLimit = previousLimit;
  }
}

function framesAbove(
  above: Loose,
  limit: number,
  prepare?: (error: unknown, sites: Loose[]) => StackFrame[],
): StackFrame[] {
  return withFramePreparer(limit, () => {
    const holder: { stack?: unknown } = {};
    const E = Error as Loose;
    if (typeof E.captureStackTrace === "function") E.captureStackTrace(holder, above);
    else holder.stack = new Error().stack;
    const frames = holder.stack; // V8 formats lazily: read while ours is installed
    return Array.isArray(frames) ? frames : parseStackText(String(frames ?? ""));
  }, prepare);
}

/**
 * The caller's stack as data.
 *
 * @param skip Frames to drop from the top, after the caller's own (0 = the caller).
 * @param limit Most frames returned (default 50).
 * @returns Frames, innermost first.
 * @example
 * ```ts
 * import { captureFrames } from "./stack_frames.ts";
 * function here() { return captureFrames()[0]; }
 * if (here().function !== "here") throw new Error();
 * ```
 */
export function captureFrames(skip = 0, limit = 50): StackFrame[] {
  return framesAbove(captureFrames, skip + limit).slice(skip, skip + limit);
}

const rtFrameCache = new WeakMap<object, StackFrame[]>();

/**
 * An error's stack as data. Its `.stack` string stays (V8 keeps whichever
 * form is read first, so the string is rendered from the frames here).
 *
 * @param err Anything thrown.
 * @returns Frames, innermost first; [] for a non-object. When the string form
 *   was already made (read before, or by a runtime that formats eagerly),
 *   the frames are parsed from it.
 */
export function errorFrames(err: unknown): StackFrame[] {
  if (typeof err !== "object" || err === null) return [];
  const cached = rtFrameCache.get(err);
  if (cached) return cached;
  let frames: StackFrame[] = [];
  try {
    const stack = withFramePreparer(undefined, () => (err as { stack?: unknown }).stack);
    if (Array.isArray(stack)) {
      frames = stack;
      Object.defineProperty(err, "stack", {
        value: renderStack(err, frames),
        writable: true,
        configurable: true,
        enumerable: false,
      });
    } else if (typeof stack === "string") {
      frames = parseStackText(stack);
    }
  } catch { /* a hostile getter: no frames */ }
  rtFrameCache.set(err, frames);
  return frames;
}

/** What `String(err)` gives (`Error: boom`), or `Error` when that throws. */
export function errorHeadline(err: unknown): string {
  try {
    return String(err);
  } catch {
    return "Error";
  }
}

/** One frame as V8 prints it: `    at fn (file:line:column)`. */
export function renderFrame(frame: StackFrame): string {
  const where = frame.native
    ? "native"
    : `${frame.file ?? "<anonymous>"}:${frame.line ?? 0}:${frame.column ?? 0}`;
  return `    at ${frame.async ? "async " : ""}${
    frame.function ? `${frame.function} (${where})` : where
  }`;
}

/** A `.stack` string: the error's headline, then one line per frame. */
export function renderStack(err: unknown, frames: StackFrame[]): string {
  return [errorHeadline(err), ...frames.map(renderFrame)].join("\n");
}

const STACK_LINE = /^\s*at (async )?(?:(.*?) \((.*)\)|(.*))$/;

/** Frames from a V8/JSC `.stack` string (loses nothing V8 prints, but less than the call sites hold). */
function parseStackText(text: string): StackFrame[] {
  const frames: StackFrame[] = [];
  for (const line of text.split("\n")) {
    const m = STACK_LINE.exec(line);
    if (!m) continue;
    const where = m[3] ?? m[4] ?? "";
    const pos = /^(.*):(\d+):(\d+)$/.exec(where);
    frames.push({
      function: m[2] ?? null,
      file: pos ? pos[1] : where === "native" ? null : where || null,
      line: pos ? Number(pos[2]) : null,
      column: pos ? Number(pos[3]) : null,
      async: m[1] !== undefined,
      native: where === "native",
    });
  }
  return frames;
}

/**
 * The stack from the first frame outside the file of the runtime code that
 * called this: where the script called in.
 *
 * @param limit Most frames returned (default 50).
 * @returns Frames, innermost first.
 */
export function callerFrames(limit = 50): StackFrame[] {
  const frames = framesAbove(callerFrames, limit + 10);
  const own = frames[0]?.file; // the runtime code that asked
  const first = frames.findIndex((f) => f.file !== own);
  return first < 0 ? [] : frames.slice(first, first + limit);
}

/**
 * The first frame outside the file of the runtime code that called this
 * (~10 µs: V8 builds the call sites either way).
 *
 * @returns The script's frame that called into the runtime; undefined when
 *   there is none.
 */
export function callSite(): StackFrame | undefined {
  const [asker, frame] = framesAbove(callSite, 12, prepareCallSite);
  return frame && frame.file !== asker?.file ? frame : undefined;
}
