import { deepEqual, equal, match, ok, throws } from "node:assert/strict";
import { UsageError } from "../core/errors.ts";
import { expandTemplate, type Fill, problemsMessage, tryExpandTemplate } from "./template.ts";

const fills = (entries: Record<string, string | Fill>): Record<string, Fill> =>
  Object.fromEntries(
    Object.entries(entries).map(([k, v]) => [k, typeof v === "string" ? { body: v } : v]),
  );

Deno.test("expandTemplate() substitutes placeholders, recursively", () => {
  const table: Array<[string, Record<string, string | Fill>, string]> = [
    ["@a", { a: "A" }, "A"],
    ["x @a y @b z", { a: "A", b: "[@c]", c: "C" }, "x A y [C] z"],
    ["@a;@b", { a: "1", b: "2" }, "1;2"],
    ["(@a)", { a: "A" }, "(A)"],
    ["@a\n  @b\n", { a: "A", b: "B1\nB2" }, "A\n  B1\nB2\n"],
    ["@a", { a: "" }, ""],
  ];
  for (const [template, given, expected] of table) {
    equal(expandTemplate(template, fills(given)), expected, template);
  }
});

Deno.test("expandTemplate() leaves @words that are not placeholders as written", () => {
  const template = [
    "// mail a@entry.com or me@prefix.dev; see node_modules/@types/node",
    "@Component({}) class X {}",
    "/** @param x @returns y @ts-ignore @see z */",
    "const v = 'pkg@1.2.3'; @@entry; obj.@entry; @ @1 @args",
  ].join("\n");
  equal(expandTemplate(template, fills({ entry: "E", prefix: "P" })), template);
});

Deno.test("expandTemplate() binds arguments by name, by position and as @args", () => {
  const given = fills({
    timed: { body: "{ t(); @body; log(@label, @2, [@args]); }", params: ["body", "label"] },
    entry: "run()",
    any: "<@1|@args>",
  });
  equal(
    expandTemplate('@timed(entry, "main") @any(x, entry)', given, { repeatable: ["entry"] }),
    '{ t(); run(); log("main", "main", [run(), "main"]); } <x|x, run()>',
  );
});

Deno.test("expandTemplate() keeps commas inside brackets and strings within one argument", () => {
  const given = fills({ f: "@1|@2" });
  equal(
    expandTemplate(`@f(g(a, b), "c,d") @f([1, 2], 'e)')`, given, { repeatable: ["f"] }),
    `g(a, b)|"c,d" [1, 2]|'e)'`,
  );
});

Deno.test("expandTemplate() binds arguments only inside the use that gives them", () => {
  const given = fills({
    wrap: { body: "<@inner>", params: ["inner"] },
    a: "A",
    b: "B",
  });
  equal(
    expandTemplate("@wrap(a) @wrap(b) @wrap(literal)", given, { repeatable: ["wrap"] }),
    "<A> <B> <literal>",
  );
});

Deno.test("expandTemplate() passes a parameter on to a nested placeholder", () => {
  const given = fills({
    outer: { body: "@inner(x)", params: ["x"] },
    inner: { body: "[@y]", params: ["y"] },
    entry: "E",
  });
  equal(expandTemplate("@outer(entry)", given), "[E]");
});

Deno.test("expandTemplate() refuses a cycle before substituting, naming the path", () => {
  const table: Array<[Record<string, string>, string]> = [
    [{ a: "@b", b: "@a" }, "@a → @b → @a"],
    [{ a: "x @a" }, "@a → @a"],
    [{ a: "@b", b: "@c", c: "@other(a)", other: "" }, "@a → @b → @c → @a"],
  ];
  for (const [given, path] of table) {
    const { text, problems } = tryExpandTemplate("start @a", fills(given));
    equal(text, undefined);
    equal(problems.length, 1, problems.join("\n"));
    ok(problems[0].includes(path), problems[0]);
  }
});

Deno.test("expandTemplate() refuses a placeholder expanded twice unless it is repeatable", () => {
  const given = fills({ entry: "E", prefix: "P", suffix: "S @prefix" });
  const { problems } = tryExpandTemplate("@prefix @entry @suffix", given);
  deepEqual(problems, [
    "@prefix is expanded 2 times; a placeholder is expanded once unless it is listed in " +
    "plumbing.launcherPlaceholderRepeat, so list it there or remove the extra use",
  ]);
  equal(expandTemplate("@prefix @entry @suffix", given, { repeatable: ["prefix"] }), "P E S P");
});

Deno.test("expandTemplate() counts a placeholder passed as an argument each time it is used", () => {
  const given = fills({
    twice: { body: "@x @x", params: ["x"] },
    once: { body: "", params: ["x"] },
    entry: "E",
  });
  match(tryExpandTemplate("@twice(entry)", given).problems[0], /^@entry is expanded 2 times/);
  deepEqual(tryExpandTemplate("@once(entry) @entry", given).problems, []);
  match(
    tryExpandTemplate("@twice(z) @entry @twice(entry)", given, { repeatable: ["twice"] })
      .problems[0],
    /@entry is expanded 3 times/,
  );
});

Deno.test("expandTemplate() suggests the near name for a misspelt placeholder, transpositions included", () => {
  const given = fills({
    entry: "E",
    onSuccess: "S",
    prefix: "P",
    timed: { body: "@body @lable", params: ["body", "label"] },
  });
  const table: Array<[string, string]> = [
    ["@entyr", "@entyr in the template, line 1 is not a placeholder; did you mean @entry?"],
    [
      "\n@onSucess",
      "@onSucess in the template, line 2 is not a placeholder; did you mean @onSuccess?",
    ],
    ["@Entry", "did you mean @entry?"],
    ["@prefx", "did you mean @prefix?"],
    ["@timed(entry, x)", "@lable in @timed, line 1 is not a placeholder; did you mean @label?"],
    [
      "@timed(entyr, x)",
      "argument entyr in the template names no placeholder; did you mean entry?",
    ],
  ];
  for (const [template, message] of table) {
    const { problems } = tryExpandTemplate(template, given);
    ok(problems.some((p) => p.includes(message)), `${template}: ${problems.join(" | ")}`);
  }
});

Deno.test("expandTemplate() checks argument counts and arguments used but not given", () => {
  const given = fills({ timed: { body: "@body", params: ["body", "label"] }, any: "@1 @3" });
  deepEqual(tryExpandTemplate("@timed(x) @any(a, b)", given).problems, [
    "@timed in the template, line 1 is given 1 argument but takes 2 (body, label); write @timed(body, label)",
    "@3 in @any, line 1 has no argument: this use of @any gives 2 arguments; pass it one more, or remove @3",
  ]);
  match(
    tryExpandTemplate("@timed(a, b", given).problems[0],
    /^@timed\( in the template, line 1 is not closed/,
  );
});

Deno.test("expandTemplate() refuses unusable names and parameters", () => {
  const problems = tryExpandTemplate("", {
    "9x": { body: "" },
    args: { body: "" },
    ok: { body: "", params: ["a", "a"] },
    ok2: { body: "", params: ["b-c"] },
  }).problems;
  equal(problems.length, 4, problems.join("\n"));
});

Deno.test("expandTemplate() reports every problem in one UsageError", () => {
  const given = fills({ a: "@b", b: "@a", entry: "E" });
  throws(() => expandTemplate("@a @entyr", given), (error: unknown) => {
    ok(error instanceof UsageError);
    match(error.message, /^2 problems:\n- @entyr .*did you mean @entry\?\n- .*@a → @b → @a/);
    return true;
  });
  equal(problemsMessage(["only one"]), "only one");
});
