/**
 * `mcpx elicit`: the questions servers asked during calls (elicitation and
 * sampling; spec 000, "When a server asks a question"; decision 0040), kept
 * by the daemon (routes `questions`, `questionGet`, `questionAnswer`).
 *
 * @module
 */

import * as z from "zod";
import { defineOp } from "./op.ts";
import { QuestionRow } from "./question_outputs.ts";

/** `mcpx elicit`. */
export const elicit = defineOp({
  name: "elicit",
  description: "The questions servers asked during your calls (elicitation, sampling): list " +
    "them, show one, answer it (key=value or JSON, checked against its schema) or decline it.",
  where: "cli",
  hints: { readOnly: false, destructive: true, idempotent: false },
  serve: { fields: ["action", "id", "words", "wait"] },
  input: z.object({
    action: z.string().optional().describe("list, show, answer or decline"),
    id: z.string().optional().describe("the question's id (elc-…)"),
    words: z.array(z.string()).default([]).describe(
      "the answer: key=value words or one JSON object",
    ),
    wait: z.boolean().optional().describe(
      "answer: wait for the call the question was asked in and print its result",
    ),
    all: z.boolean().optional().describe("list: settled questions too"),
    raw: z.boolean().optional().describe("--wait: print the whole MCP result envelope"),
    anySession: z.boolean().optional().describe(
      "act on another session's questions too: list, show, answer or decline them (by default " +
        "only your session's); the call's result still goes only to its own caller, so not " +
        "with --wait",
    ),
  }),
  output: z.union([
    z.object({ questions: z.array(QuestionRow) }),
    QuestionRow,
    z.object({ question: QuestionRow }),
    z.looseObject({ content: z.array(z.looseObject({ type: z.string() })) }),
  ]),
  cli: {
    command: "elicit",
    module: "./call/elicit.ts",
    usage: "mcpx elicit [list] [--all] | show <id> | answer <id> [key=value… | json] [--wait] | " +
      "decline <id> [--wait]; each [--any-session]",
    summary: "answer the questions servers asked during calls (exit 75 printed them)",
    args: [
      {
        field: "action",
        name: "list|show|answer|decline",
        optional: true,
        complete: ["list", "show", "answer", "decline"],
      },
      { field: "id", name: "id", optional: true },
      { field: "words", name: "key=value", variadic: true, optional: true },
    ],
    flags: {
      wait: {
        field: "wait",
        type: "boolean",
      },
      all: { field: "all", type: "boolean" },
      raw: { field: "raw", type: "boolean" },
      "any-session": {
        field: "anySession",
        type: "boolean",
      },
    },
  },
});
