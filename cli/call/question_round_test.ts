import assert from "node:assert/strict";
import { answerFields as fieldsOf, responseTo } from "./question_round.ts";

const QUESTION_KEY = "question";
const answerFields = (r: Record<string, unknown> | undefined) =>
  fieldsOf(responseTo(r, QUESTION_KEY));

Deno.test("answerFields() reads the client's response under the key asked, or its only one", () => {
  const accepted = { action: "accept", content: { name: "Ada" } };
  assert.deepEqual(answerFields({ [QUESTION_KEY]: accepted }), { answer: { name: "Ada" } });
  assert.deepEqual(answerFields({ theirs: accepted }), { answer: { name: "Ada" } });
  assert.deepEqual(
    answerFields({
      [QUESTION_KEY]: { role: "assistant", content: { type: "text", text: "hi" }, model: "m" },
    }),
    { answer: { role: "assistant", content: { type: "text", text: "hi" }, model: "m" } },
  );
});

Deno.test("answerFields() declines a declined, cancelled, missing or unreadable response", () => {
  for (
    const responses of [
      { [QUESTION_KEY]: { action: "decline" } },
      { [QUESTION_KEY]: { action: "cancel" } },
      {},
      undefined,
      { a: { action: "accept", content: {} }, b: { action: "accept", content: {} } },
      { [QUESTION_KEY]: { something: "else" } },
    ]
  ) {
    assert.deepEqual(answerFields(responses), { decline: true }, JSON.stringify(responses));
  }
});
