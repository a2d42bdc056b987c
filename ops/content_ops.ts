/**
 * The operations on prompts and resources, the half of a server that is not
 * tools (spec 000, "The half of MCP that is not tools"): `mcpx prompts` lists
 * or renders prompts, `mcpx resources` lists resources and templates or reads
 * one, and both complete an argument with `--complete` (MCP `completion/complete`).
 * Both run in the CLI and ask the daemon (routes `prompts`, `promptGet`,
 * `resources`, `resourceRead`, `complete` in ops/routes.ts).
 *
 * @module
 */

import { RESOURCE_URI } from "./shared_fields.ts";
import * as z from "zod";
import { defineOp } from "./op.ts";
import { PromptsOutput, ResourcesOutput } from "./content_outputs.ts";
import { DIRECT_FIELDS, DIRECT_FLAGS } from "./direct_flags.ts";

const READ = { readOnly: true, destructive: false, idempotent: true } as const;

/** `mcpx prompts`. */
export const prompts = defineOp({
  name: "prompts",
  description: "List the prompts of every namespace or one (arguments, required ones marked), " +
    "or render one prompt with key=value arguments.",
  where: "cli",
  // Rendering runs the server's prompt handler, which may do anything.
  hints: { readOnly: false, destructive: false, idempotent: false },
  input: z.object({
    target: z.string().optional().describe("a namespace to list, or namespace.prompt to render"),
    arguments: z.array(z.string()).default([]).describe("the prompt's arguments, key=value"),
    complete: z.string().optional().describe(
      "instead of rendering, print the server's completions of one argument, given as " +
        "name=prefix, one per line; the other arguments narrow them",
    ),
    timeout: z.string().optional().describe("give up after this long"),
    ...DIRECT_FIELDS,
  }),
  output: PromptsOutput,
  cli: {
    command: "prompts",
    module: "./content/prompts.ts",
    usage:
      "mcpx prompts [namespace | namespace.prompt [key=value…] [--complete arg=prefix]] | <url> …",
    summary: "list prompts, or render one with key=value arguments",
    args: [
      { field: "target", name: "namespace[.prompt]", optional: true, complete: "namespace" },
      { field: "arguments", name: "key=value", variadic: true, optional: true },
    ],
    flags: {
      complete: {
        field: "complete",
        type: "string",
      },
      timeout: {
        field: "timeout",
        type: "string",
        syntax: "duration",
      },
      ...DIRECT_FLAGS,
    },
  },
});

/** `mcpx resources`. */
export const resources = defineOp({
  name: "resources",
  description: "List the resources and resource templates of every namespace or one, or read " +
    "one resource (a template expanded with key=value): text printed, binary described and " +
    "written only with --out.",
  where: "cli",
  hints: READ,
  input: z.object({
    namespace: z.string().optional().describe("the namespace (default: every one)"),
    uri: RESOURCE_URI.optional(),
    variables: z.array(z.string()).default([]).describe("a template's variables, key=value"),
    out: z.string().optional().describe(
      "write the resource's exact bytes to this file (refuses a directory)",
    ),
    complete: z.string().optional().describe(
      "instead of reading, print the server's completions of one template variable, given as " +
        "name=prefix, one per line; the other variables narrow them",
    ),
    timeout: z.string().optional().describe("give up after this long"),
    ...DIRECT_FIELDS,
  }),
  output: ResourcesOutput,
  cli: {
    command: "resources",
    module: "./content/resources.ts",
    usage:
      "mcpx resources [namespace | <url>] [uri [key=value…]] [--out FILE | --complete var=prefix]",
    summary: "list resources and templates, or read one (binary only to --out FILE)",
    args: [
      { field: "namespace", name: "namespace", optional: true, complete: "namespace" },
      { field: "uri", name: "uri", optional: true },
      { field: "variables", name: "key=value", variadic: true, optional: true },
    ],
    flags: {
      out: {
        field: "out",
        type: "string",
        complete: "file",
      },
      complete: {
        field: "complete",
        type: "string",
      },
      timeout: {
        field: "timeout",
        type: "string",
        syntax: "duration",
      },
      ...DIRECT_FLAGS,
    },
  },
});
