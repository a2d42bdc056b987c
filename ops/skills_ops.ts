/**
 * `mcpx skills`: the Skills extension of a server (SEP-2640, on MCP
 * 2026-07-28; spec 002, "Skills and Resources"): every skill entry it lists,
 * one entry by its `SKILL.md` URI (the listed one when the server's
 * `skills/get` gives none, decision 0074), or that entry verified against its
 * root `SKILL.md` (`--verify`, decision 0038). Runs in the CLI and asks the daemon
 * (routes `skills`, `skillGet` in ops/routes.ts).
 *
 * @module
 */

import { SKILL_URI, VERIFY } from "./shared_fields.ts";
import * as z from "zod";
import { defineOp } from "./op.ts";
import { DIRECT_FIELDS, DIRECT_FLAGS } from "./direct_flags.ts";

/** Where one entry came from: `skills/list` when `skills/get` gave none (decision 0074). */
const ENTRY_FROM = z.enum(["skills/get", "skills/list"]).describe(
  "skills/get, or skills/list when the server's skills/get gave no entry and the listed one " +
    "was used",
);

/** What `--json` prints: who was asked (`config:sha256:…` or `url:sha256:…`) and the answer. */
export const SkillsOutput = z.union([
  z.object({
    origin: z.string(),
    result: z.unknown().describe(
      "{pages} of skills/list, or the GetSkillResult ({skill} with the listed entry when " +
        "entryFrom is skills/list)",
    ),
    entryFrom: ENTRY_FROM.optional().describe("with a URI: where the entry came from"),
  }),
  z.object({
    origin: z.string(),
    skillUri: z.string(),
    verified: z.boolean(),
    problems: z.array(z.string()),
    entry: z.unknown(),
    entryFrom: ENTRY_FROM,
    resource: z.unknown().optional().describe("the ReadResourceResult of SKILL.md"),
  }),
]);

/** `mcpx skills`. */
export const skills = defineOp({
  name: "skills",
  description: "List the skills a server offers (Skills extension), get one entry by its " +
    "SKILL.md URI, or verify that entry against its root SKILL.md (size, SHA-256, UTF-8, " +
    "frontmatter).",
  where: "cli",
  hints: { readOnly: true, destructive: false, idempotent: true },
  input: z.object({
    namespace: z.string().describe("the namespace (or a URL: a direct target)"),
    uri: SKILL_URI.optional(),
    verify: VERIFY.default(false),
    timeout: z.string().optional().describe("give up after this long"),
    ...DIRECT_FIELDS,
  }),
  output: SkillsOutput,
  cli: {
    command: "skills",
    module: "./content/skills.ts",
    usage: "mcpx skills <namespace | url> [uri] [--verify]",
    summary: "list a server's skills, get one by URI, or --verify it",
    args: [
      { field: "namespace", name: "namespace", complete: "namespace" },
      { field: "uri", name: "uri", optional: true },
    ],
    flags: {
      verify: {
        field: "verify",
        type: "boolean",
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
