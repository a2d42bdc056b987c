import { deepStrictEqual as deepEqual, ok } from "node:assert/strict";
import { rawOf, ToolError, unwrapResult } from "./tool_result.ts";

const text = (t: string) => ({ content: [{ type: "text", text: t }] });

Deno.test("unwrapResult() follows decision 0004's table", () => {
  const structured = { content: [text("ignored").content[0]], structuredContent: { a: 1 } };
  const cases: { name: string; raw: unknown; want: unknown; hasRaw: boolean }[] = [
    { name: "structuredContent", raw: structured, want: { a: 1 }, hasRaw: true },
    { name: "JSON object text", raw: text('{"b":[1,2]}'), want: { b: [1, 2] }, hasRaw: true },
    { name: "JSON array text", raw: text("[1,2]"), want: [1, 2], hasRaw: true },
    { name: "number text", raw: text("42"), want: 42, hasRaw: false },
    { name: "false text", raw: text("false"), want: false, hasRaw: false },
    { name: "null text", raw: text("null"), want: null, hasRaw: false },
    { name: "prose", raw: text("hello {x}"), want: "hello {x}", hasRaw: true },
    { name: "not quite JSON", raw: text("{oops"), want: "{oops", hasRaw: true },
    {
      name: "two text blocks",
      raw: { content: [{ type: "text", text: "a" }, { type: "text", text: "b" }] },
      want: "a\nb",
      hasRaw: true,
    },
  ];
  for (const c of cases) {
    const got = unwrapResult(c.raw);
    const plain = got instanceof String ? String(got) : got;
    deepEqual(plain, c.want, c.name);
    if (c.hasRaw) {
      deepEqual(rawOf(got), c.raw, c.name);
      ok(!Object.keys(got as object).includes("raw"), `${c.name}: raw is not enumerable`);
    } else deepEqual(rawOf(got), undefined, c.name);
  }
  const prose = unwrapResult(text("x y")) as string;
  deepEqual(`${prose}`, "x y");
  deepEqual(prose.split(" "), ["x", "y"]);
  deepEqual(JSON.stringify({ prose }), '{"prose":"x y"}');

  const image = { content: [{ type: "image", data: "AAAA", mimeType: "image/png" }] };
  const got = unwrapResult(image);
  deepEqual(got, image);
  deepEqual(rawOf(got), image);
});

Deno.test("unwrapResult() throws ToolError with the tool's text and names", () => {
  const raw = { isError: true, content: [{ type: "text", text: "no such file" }] };
  let error: ToolError | undefined;
  try {
    unwrapResult(raw, { server: "fs-server", namespace: "fs", tool: "read" });
  } catch (e) {
    error = e as ToolError;
  }
  ok(error instanceof ToolError);
  deepEqual(
    [error.name, error.message, error.server, error.namespace, error.tool, error.raw],
    ["ToolError", "no such file", "fs-server", "fs", "read", raw],
  );
});
