/**
 * The daemon's question routes (ops/routes.ts spreads them into its table):
 * the questions servers asked, kept by engine/questions.ts (decision 0040).
 * The handlers are ops/daemon_questions.ts.
 *
 * @module
 */

import * as z from "zod";
import { defineOp } from "./op.ts";
import { CALLER_SHAPE } from "./caller_schema.ts";
import { QuestionRow } from "./question_outputs.ts";
import { SERVER_LOG_LEVELS } from "../config/types.ts";

const id = z.string().min(1).describe("the question's id (elc-…)");
const anySession = z.boolean().optional().describe(
  "another session's questions too (decision 0059); a call's result still goes only to its caller",
);

/** `POST /v1/questions`. */
export const questions = defineOp({
  name: "questions",
  description: "The questions servers asked the caller's calls (every session's with " +
    "anySession): the open ones, or all with all.",
  where: "daemon",
  hints: { readOnly: true, destructive: false, idempotent: true },
  input: z.object({ all: z.boolean().optional(), anySession, ...CALLER_SHAPE }),
  output: z.array(QuestionRow),
});

/** `POST /v1/questionGet`. */
export const questionGet = defineOp({
  name: "questionGet",
  description: "One question (marked expired when read past its deadline).",
  where: "daemon",
  hints: { readOnly: true, destructive: false, idempotent: true },
  input: z.object({ id, anySession, ...CALLER_SHAPE }),
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
    anySession,
    ...CALLER_SHAPE,
  }),
  output: z.unknown().describe("{ state } or, with wait, the call's result or { question }"),
  serverData: true,
});

// Checked, not rebuilt (as `call`'s arguments are): a key named `__proto__` stays a key.
const object = z.unknown()
  .refine((v) => typeof v === "object" && v !== null && !Array.isArray(v), {
    message: "must be a JSON object",
  })
  .transform((v) => v as Record<string, unknown>)
  .meta({ type: "object" });

/** `POST /v1/relay` (decision 0049). */
export const relay = defineOp({
  name: "relay",
  description: "One tools/call, prompts/get or resources/read for a client mcpx serves " +
    "(`mcpx serve --passthrough`): the client's answers and capabilities sent on, the server's " +
    "input_required result answered as it is (SEP-2322).",
  where: "daemon",
  hints: { readOnly: false, destructive: true, idempotent: false },
  input: z.object({
    namespace: z.string().min(1).describe("the namespace"),
    method: z.enum(["tools/call", "prompts/get", "resources/read"]).describe("the MCP method"),
    name: z.string().min(1).optional().describe("tools/call, prompts/get: the tool or prompt"),
    uri: z.string().min(1).optional().describe("resources/read: the resource's URI"),
    arguments: object.optional().describe("the tool's or the prompt's arguments"),
    inputResponses: object.optional().describe("the client's answers, by the server's keys"),
    requestState: z.string().optional().describe("the server's requestState, as it sent it"),
    clientCapabilities: object.optional().describe("the client's capabilities (else mcpx's)"),
    logLevel: z.enum(SERVER_LOG_LEVELS).optional()
      .describe("tools/call: the level the client hears log messages at (asked of the server)"),
    timeoutMs: z.number().int().min(1).optional().describe("the caller's limit, ms"),
    ...CALLER_SHAPE,
  }),
  output: z.unknown().describe("the server's result, its input_required result, or { question }"),
  serverData: true,
});

/** The question routes by name. */
export const QUESTION_ROUTES = { questions, questionGet, questionAnswer, relay } as const;
