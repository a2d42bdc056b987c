/**
 * What the question operations answer (engine/questions.ts `QuestionView`).
 *
 * @module
 */

import * as z from "zod";

/** One question a server asked (engine/questions.ts `QuestionView`). */
export const QuestionRow = z.object({
  id: z.string().describe("the question's id: `mcpx elicit show <id>`"),
  kind: z.enum(["elicitation", "sampling"]),
  daemon: z.string().describe("the configuration's fingerprint"),
  server: z.string(),
  namespace: z.string(),
  call: z.string().optional().describe("the tool call it was asked in, namespace.tool"),
  owners: z.array(z.string()).describe(
    'the sessions it belongs to ("": callers that named none); decision 0059',
  ),
  mode: z.enum(["form", "url"]).optional(),
  message: z.string(),
  request: z.record(z.string(), z.unknown()).describe(
    "the request's params as the server sent them",
  ),
  route: z.enum(["agent", "person"]).describe("who should answer it"),
  reason: z.string().describe("why that route"),
  created: z.number().describe("ms since the epoch"),
  deadline: z.number().describe("ms since the epoch; past it the server hears cancel"),
  state: z.enum(["open", "answered", "declined", "cancelled", "expired"]),
  answer: z.record(z.string(), z.unknown()).optional(),
  settled: z.number().optional().describe("when it left open, ms since the epoch"),
  schema: z.array(z.string()).describe("the requested schema, one field a line"),
  command: z.string().describe("the command that answers it"),
  decline: z.string().describe("the command that declines it"),
});
