/**
 * The daemon's question routes (ops/routes.ts spreads them into its table):
 * the questions servers asked, kept by engine/questions.ts (decision 0040).
 * The handlers are ops/daemon_questions.ts.
 *
 * @module
 */

import { z } from "zod";
import { defineOp } from "./op.ts";
import { CALLER_SHAPE } from "./caller_schema.ts";
import { QuestionRow } from "./question_outputs.ts";

const id = z.string().min(1).describe("the question's id (elc-…)");

/** `POST /v1/questions`. */
export const questions = defineOp({
  name: "questions",
  description: "The questions servers asked this daemon's calls: the open ones, or all with all.",
  where: "daemon",
  hints: { readOnly: true, destructive: false, idempotent: true },
  input: z.object({ all: z.boolean().optional(), ...CALLER_SHAPE }),
  output: z.array(QuestionRow),
});

/** `POST /v1/questionGet`. */
export const questionGet = defineOp({
  name: "questionGet",
  description: "One question (marked expired when read past its deadline).",
  where: "daemon",
  hints: { readOnly: true, destructive: false, idempotent: true },
  input: z.object({ id, ...CALLER_SHAPE }),
  output: QuestionRow,
});

/** `POST /v1/questionAnswer`. */
export const questionAnswer = defineOp({
  name: "questionAnswer",
  description: "Answer or decline a question; with wait, answer what the resumed call answers " +
    "(its CallToolResult, or its next question).",
  where: "daemon",
  hints: { readOnly: false, destructive: true, idempotent: false },
  input: z.object({
    id,
    decline: z.boolean().optional().describe("decline instead of answering"),
    answer: z.record(z.string(), z.unknown()).optional().describe(
      "form fields, {} for a URL-mode flow, or a sampling result",
    ),
    tty: z.boolean().optional().describe("the answer was typed at a terminal (a person)"),
    wait: z.boolean().optional().describe("wait for the call the question belongs to"),
    ...CALLER_SHAPE,
  }),
  output: z.unknown().describe("{ state } or, with wait, the call's result or { question }"),
  serverData: true,
});

/** The question routes by name. */
export const QUESTION_ROUTES = { questions, questionGet, questionAnswer } as const;
