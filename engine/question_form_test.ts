import assert from "node:assert/strict";
import {
  checkAnswer,
  parseAnswerWords,
  routeOf,
  samplingResult,
  shortSchema,
} from "./question_form.ts";

const form = (properties: Record<string, unknown>, required: string[] = []) => ({
  message: "m",
  requestedSchema: { type: "object", properties, required },
});

Deno.test("routeOf() sends credentials, URL flows and bare confirmations to a person, the rest to the agent", () => {
  const cases: [Record<string, unknown>, string, RegExp][] = [
    [form({ repo: { type: "string" } }), "agent", /agent made the call/],
    [form({ apiKey: { type: "string" } }), "person", /field "apiKey" asks for a credential/],
    [form({ secret_value: { type: "string" } }), "person", /credential/],
    [form({ code: { type: "string", format: "password" } }), "person", /credential/],
    [form({ ok: { type: "boolean" } }), "person", /bare confirmation/],
    [form({}), "person", /bare confirmation/],
    [{ mode: "url", url: "https://x", message: "log in" }, "person", /browser flow/],
    // A description that mentions a pin is not a credential field.
    [form({ integer: { type: "integer", description: "no pin please" } }), "agent", /agent/],
    [form({ spinner: { type: "string" } }), "agent", /agent/],
  ];
  for (const [params, route, reason] of cases) {
    const got = routeOf("elicitation", params);
    assert.equal(got.route, route, JSON.stringify(params));
    assert.match(got.reason, reason);
  }
  assert.equal(routeOf("sampling", { messages: [] }).route, "agent");
});

Deno.test("checkAnswer() coerces text, fills defaults and names a bad field", () => {
  const schema = form({
    name: { type: "string" },
    n: { type: "integer", minimum: 1, maximum: 100, default: 42 },
    pick: { type: "string", enum: ["a", "b"], default: "a" },
    many: { type: "array", items: { enum: ["x", "y"] } },
    ok: { type: "boolean" },
  }, ["name"]).requestedSchema;
  assert.deepEqual(checkAnswer(schema, { name: "Ada", many: "x,y", ok: "yes" }), {
    name: "Ada",
    many: ["x", "y"],
    ok: true,
    n: 42,
    pick: "a",
  });
  assert.throws(
    () => checkAnswer(schema, { name: "A", n: "500" }),
    /field "n" takes a number in 1\.\.100, got "500"/,
  );
  assert.throws(() => checkAnswer(schema, { name: "A", pick: "c" }), /one of "a", "b"/);
  assert.throws(() => checkAnswer(schema, {}), /required field missing: name/);
  assert.throws(() => checkAnswer(schema, { nme: "A" }), /no field "nme"/);
});

Deno.test("parseAnswerWords() reads key=value words or one JSON object", () => {
  assert.deepEqual(parseAnswerWords(["a=1", "b=x y", "c=true", 'd="7"']), {
    a: 1,
    b: "x y",
    c: true,
    d: "7",
  });
  assert.deepEqual(parseAnswerWords(['{"a":[1]}']), { a: [1] });
  assert.deepEqual(parseAnswerWords([]), {});
  assert.throws(() => parseAnswerWords(["oops"]), /"oops" is not key=value/);
  const proto = parseAnswerWords(["__proto__=1"]);
  assert.equal(Object.getPrototypeOf(proto), Object.prototype);
  assert.equal(Object.getOwnPropertyDescriptor(proto, "__proto__")?.value, 1);
});

Deno.test("samplingResult() fills role and model, takes text=… or content", () => {
  assert.deepEqual(samplingResult({ text: "hi" }), {
    role: "assistant",
    content: { type: "text", text: "hi" },
    model: "mcpx-answer",
  });
  assert.equal(samplingResult({ content: { type: "text", text: "x" }, model: "m" }).model, "m");
  assert.throws(() => samplingResult({}), /needs content/);
});

Deno.test("shortSchema() prints one line a field with type, range, default and required", () => {
  assert.deepEqual(
    shortSchema(
      form({ n: { type: "integer", minimum: 1, default: 2, description: "d" } }, ["n"])
        .requestedSchema,
    ),
    ["n: integer [1..] = 2  required — d"],
  );
});
