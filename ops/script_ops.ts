/**
 * Running TypeScript beside the servers (spec 000, "The script contract",
 * "The launcher is replaceable"; spec 004): a script by name or path, or
 * code given inline. Both take the same flags.
 *
 * @module
 */

import * as z from "zod";
import { type CliFlag, defineOp } from "./op.ts";
import { RunOutput } from "./script_outputs.ts";

/** The flags of `mcpx run` and `mcpx exec`, each filling the input field of its name. */
const SCRIPT_FLAGS: Readonly<Record<string, CliFlag>> = {
  export: {
    field: "export",
    type: "string",
  },
  runtime: {
    type: "string",
    setting: "script.runtime",
    complete: ["deno", "bun", "node"],
  },
  env: {
    field: "env",
    type: "string",
    multiple: true,
  },
  "env-file": {
    field: "envFile",
    type: "string",
    multiple: true,
    complete: "file",
  },
  launcher: {
    field: "launcher",
    type: "string",
    complete: "file",
  },
  "no-launcher": {
    field: "noLauncher",
    type: "boolean",
  },
  prefix: {
    field: "prefix",
    type: "string",
    multiple: true,
  },
  suffix: {
    field: "suffix",
    type: "string",
    multiple: true,
  },
  before: {
    field: "before",
    type: "string",
    multiple: true,
  },
  "on-success": {
    field: "onSuccess",
    type: "string",
    multiple: true,
  },
  "on-error": {
    field: "onError",
    type: "string",
    multiple: true,
  },
  "no-capture-console": {
    field: "noCaptureConsole",
    type: "boolean",
  },
  "log-level": {
    type: "string",
    setting: "logging.level",
    complete: ["debug", "info", "warn", "error"],
  },
  "log-source": {
    type: "string",
    setting: "logging.source",
  },
  format: {
    type: "string",
    setting: "logging.format",
    complete: ["pretty", "logfmt", "json"],
  },
  typecheck: {
    type: "boolean",
    setting: "script.typecheck",
  },
  timeout: {
    field: "timeout",
    type: "string",
    syntax: "duration",
  },
  "hook-pre": {
    field: "hookPre",
    type: "string",
    multiple: true,
  },
  "hook-post": {
    field: "hookPost",
    type: "string",
    multiple: true,
  },
  "hook-on-error": {
    field: "hookOnError",
    type: "string",
    multiple: true,
  },
  "hook-on-success": {
    field: "hookOnSuccess",
    type: "string",
    multiple: true,
  },
};

const list = z.array(z.string()).optional();

/** The input fields the script flags fill. */
const scriptFields = {
  args: z.array(z.string()).default([]).describe("the script's arguments"),
  export: z.string().optional().describe("call this named export with the arguments spread"),
  env: list.describe("variables for the script's environment, each KEY=VALUE"),
  envFile: list.describe("dotenv files of KEY=VALUE lines"),
  launcher: z.string().optional().describe(
    "replace the launcher template: source, a file or a directory",
  ),
  noLauncher: z.boolean().optional().describe(
    "hand the script to the runtime bare: no globals, no capture",
  ),
  prefix: list.describe("code run before the script is imported: source, a file or a directory"),
  suffix: list.describe("code run after it, in finally; sees `result`"),
  before: list.describe("code run before anything else in the launcher"),
  onSuccess: list.describe("code run when the entry returned"),
  onError: list.describe("code run when the script threw"),
  noCaptureConsole: z.boolean().optional().describe("leave console.* as the runtime has it"),
  timeout: z.string().optional().describe("stop the script after this long"),
  hookPre: list.describe(
    "shell commands run before the script starts (exec hooks, phase pre); one that fails stops the run",
  ),
  hookPost: list.describe("shell commands run after the script, whatever its outcome (phase post)"),
  hookOnError: list.describe(
    "shell commands run when the script failed (phase onError; MCPX_HOOK_ERROR says why)",
  ),
  hookOnSuccess: list.describe("shell commands run when the script exited 0 (phase onSuccess)"),
};

/** The exec hooks' fields, which `mcpx serve`'s mcpx_run and mcpx_exec take too. */
const HOOK_FIELDS = ["hookPre", "hookPost", "hookOnError", "hookOnSuccess"];

const RUNS = { readOnly: false, destructive: true, idempotent: false } as const;

/** `mcpx run`. */
export const run = defineOp({
  name: "run",
  description:
    "Run a script (a name from `mcpx scripts`, or a path) with the generated client; stdout is its result.",
  where: "cli",
  hints: RUNS,
  serve: {
    fields: ["script", "args", "env", "timeout", ...HOOK_FIELDS],
    description:
      "Run a named script (or a path) with every namespace as a global; answers the script's " +
      "stdout, records and result.",
  },
  input: z.object({
    script: z.string().optional().describe("the script to run"),
    ...scriptFields,
  }),
  output: RunOutput,
  cli: {
    command: "run",
    module: "./run/run.ts",
    warm: true,
    usage:
      "mcpx run [--export NAME] [--runtime deno|bun|node] [--env K=V] … <name|path> [args…]  (options before the name; after it, everything is the script's)",
    summary: "run a script (a name from `mcpx scripts`, or a path) with the generated client",
    stopAtPositional: true,
    args: [
      { field: "script", name: "name|path", optional: true, complete: "script" },
      { field: "args", name: "args", variadic: true, optional: true },
    ],
    flags: SCRIPT_FLAGS,
  },
});

/** `mcpx exec`. */
export const exec = defineOp({
  name: "exec",
  description:
    "Run TypeScript given inline (or on stdin with -); every namespace is a global, the last expression is the result.",
  where: "cli",
  hints: RUNS,
  serve: {
    fields: ["code", "args", "env", "timeout", ...HOOK_FIELDS],
    description:
      "Run TypeScript beside the servers: every namespace is a global (`await fs.read_file({ path })`), " +
      "the last expression is the result, and only what it prints or returns comes back, so " +
      "several calls cost one answer. Runs under this MCP session (a session-scoped server keeps " +
      "its state across calls).",
  },
  input: z.object({
    code: z.string().optional().describe("the TypeScript to run"),
    ...scriptFields,
  }),
  output: RunOutput,
  cli: {
    command: "exec",
    module: "./run/exec.ts",
    warm: true,
    usage: "mcpx exec [--env K=V] … '<code>' | - [args…]",
    summary: "run TypeScript given inline (or on stdin with -); every namespace is a global",
    stopAtPositional: true,
    args: [
      { field: "code", name: "code", optional: true, syntax: "stdin" },
      { field: "args", name: "args", variadic: true, optional: true },
    ],
    flags: SCRIPT_FLAGS,
  },
});
