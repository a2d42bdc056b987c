import assert from "node:assert/strict";
import { codeMask, jsdoc, matchBracket, splitMembers } from "./_ts_text.ts";

Deno.test("matchBracket() skips brackets in comments and strings", () => {
  const text = '{ /* } */ a: "}"; b: { c: 1 } }';
  assert.equal(matchBracket(text, 0, codeMask(text)), text.length - 1);
});

Deno.test("splitMembers() keeps comments with their member", () => {
  assert.deepEqual(splitMembers("\n/**\n * x {\n */\na: { b: 1\n}\nc: 2\n"), [
    "/**\n * x {\n */\na: { b: 1\n}",
    "c: 2",
  ]);
});

Deno.test("jsdoc() writes one line compact and several as a block", () => {
  assert.equal(jsdoc([]), "");
  assert.equal(jsdoc(["one */ two"]), "/** one *\\/ two */\n");
  assert.equal(jsdoc(["a\n\nb"]), "/**\n * a\n *\n * b\n */\n");
});
