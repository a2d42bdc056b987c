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
    help: "call this named export with the arguments spread",
  },
  runtime: {
    type: "string",
    help: "deno, bun or node (default: deno)",
    setting: "script.runtime",
    complete: ["deno", "bun", "node"],
  },
  env: {
    field: "env",
    type: "string",
    multiple: true,
    help: "KEY=VALUE for the script's environment (repeatable)",
  },
  "env-file": {
    field: "envFile",
    type: "string",
    multiple: true,
    help: "a dotenv file of KEY=VALUE lines (repeatable)",
    complete: "file",
  },
  launcher: {
    field: "launcher",
    type: "string",
    help: "replace the launcher template (source, file or directory)",
    complete: "file",
  },
  "no-launcher": {
    field: "noLauncher",
    type: "boolean",
    help: "hand the script to the runtime bare: no globals, no capture",
  },
  prefix: {
    field: "prefix",
    type: "string",
    multiple: true,
    help: "code run before the script is imported (source, file or directory)",
  },
  suffix: {
    field: "suffix",
    type: "string",
    multiple: true,
    help: "code run after it, in finally; sees `result`",
  },
  before: {
    field: "before",
    type: "string",
    multiple: true,
    help: "code run before anything else in the launcher",
  },
  "on-success": {
    field: "onSuccess",
    type: "string",
    multiple: true,
    help: "code run when the entry returned",
  },
  "on-error": {
    field: "onError",
    type: "string",
    multiple: true,
    help: "code run when the script threw",
  },
  "no-capture-console": {
    field: "noCaptureConsole",
    type: "boolean",
    help: "leave console.* as the runtime has it",
  },
  "log-level": {
    type: "string",
    help: "least severe script record shown: debug, info, warn, error",
    setting: "logging.level",
    complete: ["debug", "info", "warn", "error"],
  },
  "log-source": {
    type: "string",
    help: "record call sites from this level up (true: all, false: none)",
    setting: "logging.source",
  },
  format: {
    type: "string",
    help: "how records are shown: pretty, logfmt or json",
    setting: "logging.format",
    complete: ["pretty", "logfmt", "json"],
  },
  typecheck: {
    type: "boolean",
    help: "type-check the generated program first (deno only)",
    setting: "script.typecheck",
  },
  timeout: {
    field: "timeout",
    type: "string",
    help: "stop the script after this long (e.g. 5m)",
  },
};

const list = z.array(z.string()).optional();

/** The input fields the script flags fill. */
const scriptFields = {
  args: z.array(z.string()).default([]).describe("the script's arguments"),
  export: z.string().optional(),
  env: list,
  envFile: list,
  launcher: z.string().optional(),
  noLauncher: z.boolean().optional(),
  prefix: list,
  suffix: list,
  before: list,
  onSuccess: list,
  onError: list,
  noCaptureConsole: z.boolean().optional(),
  timeout: z.string().optional(),
};

const RUNS = { readOnly: false, destructive: true, idempotent: false } as const;

/** `mcpx run`. */
export const run = defineOp({
  name: "run",
  description:
    "Run a script (a name from `mcpx scripts`, or a path) with the generated client; stdout is its result.",
  where: "cli",
  hints: RUNS,
  serve: {
    fields: ["script", "args", "env", "timeout"],
    description:
      "Run a named script (or a path) with every namespace as a global; answers the script's " +
      "stdout, records and result.",
  },
  input: z.object({ script: z.string().optional(), ...scriptFields }),
  output: RunOutput,
  cli: {
    command: "run",
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
    fields: ["code", "args", "env", "timeout"],
    description:
      "Run TypeScript beside the servers: every namespace is a global (`await fs.read_file({ path })`), " +
      "the last expression is the result, and only what it prints or returns comes back, so " +
      "several calls cost one answer. Runs under this MCP session (a session-scoped server keeps " +
      "its state across calls).",
  },
  input: z.object({ code: z.string().optional(), ...scriptFields }),
  output: RunOutput,
  cli: {
    command: "exec",
    usage: "mcpx exec [--env K=V] … '<code>' | - [args…]",
    summary: "run TypeScript given inline (or on stdin with -); every namespace is a global",
    stopAtPositional: true,
    args: [
      { field: "code", name: "code", optional: true },
      { field: "args", name: "args", variadic: true, optional: true },
    ],
    flags: SCRIPT_FLAGS,
  },
});
