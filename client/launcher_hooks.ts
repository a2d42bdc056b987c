/**
 * What the generated launcher calls around a script (decision 0004, "The
 * pieces"; spec 000, "The script contract"): marking what it awaits,
 * installing the globals, capturing the console, calling the entry, printing
 * its result and reporting what it threw.
 *
 * @module
 */

import { show } from "../logs/record.ts";
import { rtConfig } from "./client_config.ts";
import { emit, errorData, PRINTED_DATA_HINT, printedJson, writeRecord } from "./client_output.ts";
import { captureConsoleMembers } from "./console_capture.ts";
import { envelopeText } from "./content_text.ts";
import { rtDeno, rtProcess, runtimeIo, setExitCode } from "./host_runtime.ts";
import type { Loose } from "./host_runtime.ts";
import { log } from "./logger.ts";
import { NamespaceError } from "./namespace_guard.ts";
import { captureFrames, errorFrames } from "./stack_frames.ts";
import type { StackFrame } from "./stack_frames.ts";
import { describe, search } from "./tool_index.ts";
import { ToolError } from "./tool_result.ts";
import {
  awaitingEntry,
  entryUnsettled,
  UNSETTLED_MESSAGE,
  unsettledErrorAttrs,
} from "./unsettled_await.ts";

/**
 * A SyntaxError from node compiling a module (every frame node's own) that
 * carries no place: node keeps the place hidden and prints it only for an
 * uncaught error.
 */
function nodeUnplacedSyntaxError(error: unknown, data: Record<string, unknown>): boolean {
  if (rtDeno || (globalThis as Loose).Bun || !(error instanceof SyntaxError)) return false;
  if (data.location) return false;
  const frames = (data.frames ?? []) as StackFrame[];
  return frames.every((f) => f.file?.startsWith("node:"));
}

/**
 * Under node and bun: once nothing is left to run while the launcher still
 * awaits the script, report it in mcpx's words and end with 1, before node
 * prints its own warning (client/unsettled_await.ts). Deno has no such hook;
 * mcpx reports it from Deno's own report (runner/runtime_report.ts).
 */
function hookUnsettled(): void {
  if (rtDeno || typeof rtProcess?.on !== "function") return;
  rtProcess.on("beforeExit", () => {
    if (!entryUnsettled()) return;
    writeRecord("error", "run.error", UNSETTLED_MESSAGE, UNSETTLED_MESSAGE, unsettledErrorAttrs());
    rtProcess.exit(1);
  });
}

/**
 * What the generated launcher calls around a script (decision 0004, "The
 * pieces"; spec 000, "The script contract").
 */
export const launcher: {
  awaiting<T>(promise: Promise<T>): Promise<T>;
  installGlobals(tools: Record<string, unknown>): void;
  captureConsole(): void;
  runEntry(
    mod: Record<string, unknown>,
    script: { path: string; name: string; args: string[]; export?: string },
  ): Promise<unknown>;
  printResult(value: unknown): void;
  reportError(error: unknown): void;
} = {
  /**
   * Marks what the launcher awaits (the script's import, its entry), so a
   * top-level await that can never settle is reported as such.
   *
   * @returns `promise`.
   */
  awaiting(promise) {
    return awaitingEntry(promise, hookUnsettled);
  },

  /**
   * Puts `tools`, each namespace (unless a global of that name exists),
   * `log`, `emit`, `search`, `describe`, `ToolError`, `NamespaceError`,
   * `captureFrames` and `errorFrames` on globalThis.
   */
  installGlobals(tools) {
    const g = globalThis as Record<string, unknown>;
    g.tools = tools;
    for (const [namespace, value] of Object.entries(tools)) {
      if (!(namespace in g)) g[namespace] = value;
    }
    Object.assign(g, {
      log,
      emit,
      search,
      describe,
      ToolError,
      NamespaceError,
      captureFrames,
      errorFrames,
    });
  },

  /** Turns console members into records (spec 000, "What the console does and does not capture"). */
  captureConsole() {
    captureConsoleMembers();
  },

  /**
   * Calls the script's entry: the named export with `script.args` spread, or
   * a default-exported function with `script.args` as one array, or nothing
   * (top-level code already ran on import).
   *
   * @throws {Error} listing the exported functions when `script.export` names none.
   */
  async runEntry(mod, script) {
    if (script.export !== undefined) {
      const entry = mod[script.export];
      if (typeof entry !== "function") {
        const names = Object.keys(mod).filter((k) => typeof mod[k] === "function");
        throw new Error(
          `${script.path} has no exported function "${script.export}"; ` +
            (names.length ? `it exports: ${names.join(", ")}` : "it exports no functions"),
        );
      }
      return await entry(...script.args);
    }
    if (typeof mod.default === "function") return await mod.default(script.args);
    return undefined;
  },

  /**
   * Prints the entry's return value: nothing for undefined; text as text
   * (a newline added unless it ends with one); a tool's envelope as `mcpx
   * call` prints it; anything else as indented JSON, binary content blocks
   * described rather than printed. Under `--json` it is a
   * `run.result` record instead, data included, as `mcpx --json call` gives it.
   */
  printResult(value) {
    if (value === undefined) return;
    if (rtConfig.env.json) {
      writeRecord("info", "run.result", "result", "result", { value });
      return;
    }
    if (typeof value === "string" || value instanceof String) {
      const text = String(value);
      runtimeIo.out(text.endsWith("\n") ? text : text + "\n");
      return;
    }
    // A tool's whole envelope (neither text nor structured) prints as `mcpx call` prints it.
    const text = envelopeText(value, PRINTED_DATA_HINT) ?? printedJson(value, 2);
    runtimeIo.out(text + "\n");
  },

  /**
   * Records a thrown value as a `run.error` record and sets the exit code to 1.
   * A module node could not compile, which it tells the place of only when the
   * error is uncaught, is thrown again uncaught for node to print (the record
   * then goes to the durable log only).
   */
  reportError(error) {
    const data: Record<string, unknown> = error instanceof Error
      ? errorData(error)
      : { name: "Error", message: show(error), frames: [], value: error };
    const msg = `${data.name}: ${data.message}`;
    const unplaced = nodeUnplacedSyntaxError(error, data);
    writeRecord("error", "run.error", msg, msg, {
      error: data,
      ...(unplaced ? { fileOnly: true } : {}),
    });
    setExitCode(1);
    if (unplaced) {
      // Node prints the place it keeps hidden, then the headline (its own frames add nothing).
      Object.defineProperty(error, "stack", { value: msg, writable: true, configurable: true });
      setTimeout(() => {
        throw error;
      });
    }
  },
};
