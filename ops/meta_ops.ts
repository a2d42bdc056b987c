/**
 * The operations about mcpx itself: its shell completion scripts and its man
 * page, both rendered from the op table (decision 0021, "Generated surfaces"),
 * and the hidden callback the completion scripts use for the names only the
 * schema cache knows.
 *
 * @module
 */

import * as z from "zod";
import { defineOp } from "./op.ts";

const READ = { readOnly: true, destructive: false, idempotent: true } as const;

/** The shells `mcpx completion` writes a script for. */
export const SHELLS = ["bash", "zsh", "fish"] as const;

/**
 * The kinds of name `mcpx completion-words` prints: the completions
 * (ops/op.ts `Completion`) a shell cannot work out by itself.
 */
export const WORD_KINDS = [
  "namespace",
  "tool",
  "namespace-or-tool",
  "script",
  "session",
  "setting",
] as const;

/** `mcpx completion`. */
export const completion = defineOp({
  name: "completion",
  description:
    "A completion script for bash, zsh or fish, generated from the op table: commands, their flags and the global ones, and namespaces and `ns.tool` names from the schema cache.",
  where: "cli",
  hints: READ,
  input: z.object({
    shell: z.enum(SHELLS).describe("the shell the script is for"),
  }),
  output: z.object({ shell: z.enum(SHELLS), script: z.string() }),
  cli: {
    command: "completion",
    module: "./completion/completion.ts",
    usage: "mcpx completion bash|zsh|fish",
    summary: "print a shell completion script (bash: source <(mcpx completion bash))",
    args: [{ field: "shell", name: "bash|zsh|fish", complete: SHELLS }],
  },
});

/** `mcpx man`. */
export const man = defineOp({
  name: "man",
  description: "The manual page (roff, section 1), generated from the op table.",
  where: "cli",
  hints: READ,
  input: z.object({}),
  output: z.object({ page: z.string() }),
  cli: {
    command: "man",
    module: "./completion/man.ts",
    usage: "mcpx man",
    summary: "print the manual page (roff): mcpx man | man -l -",
  },
});

/** `mcpx openapi`. */
export const openapi = defineOp({
  name: "openapi",
  description:
    "The OpenAPI 3.1 document of the daemon's HTTP API, generated from the op table: one POST /v1/<route> per route, upstream tools as the one templated path /v1/call/{namespace}/{tool}. The daemon serves the same document at GET /v1/openapi.json.",
  where: "cli",
  hints: READ,
  input: z.object({}),
  output: z.record(z.string(), z.unknown()).describe("the OpenAPI 3.1.0 document"),
  cli: {
    command: "openapi",
    module: "./completion/openapi.ts",
    usage: "mcpx openapi",
    summary: "print the OpenAPI 3.1 document of the daemon's /v1 HTTP API",
  },
});

/**
 * `mcpx completion-words`: plumbing the completion scripts call. Reads the
 * schema cache and the configuration's files; starts no server and no daemon.
 */
export const completionWords = defineOp({
  name: "completion-words",
  description:
    "Names for a completion script, one per line, from the schema cache and the state files; starts no server and no daemon.",
  where: "cli",
  hints: READ,
  input: z.object({
    kind: z.enum(WORD_KINDS).describe("which names"),
  }),
  output: z.object({ words: z.array(z.string()) }),
  cli: {
    command: "completion-words",
    module: "./completion/completion_words.ts",
    usage: `mcpx completion-words ${WORD_KINDS.join("|")}`,
    summary: "names for a completion script, from the schema cache (plumbing)",
    args: [{ field: "kind", name: "kind", complete: WORD_KINDS }],
    hidden: true,
  },
});
