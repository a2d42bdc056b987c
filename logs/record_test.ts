import assert from "node:assert/strict";
import {
  encodeRecord,
  type LogRecord,
  newSpanId,
  placeholderNames,
  recordIds,
  renderTemplate,
} from "./record.ts";

Deno.test("renderTemplate() fills placeholders, keeps missing ones visible, unescapes braces", () => {
  const cases: [string, Record<string, unknown>, string][] = [
    ["fetched {count} pages in {ms}ms", { count: 3, ms: 412 }, "fetched 3 pages in 412ms"],
    ["hello {name}", {}, "hello {name}"],
    ["{{literal}} and {x}", { x: "y" }, "{literal} and y"],
    ["nested {a.b}", { a: { b: 2 } }, "nested 2"],
    ["object {o}", { o: { k: [1] } }, 'object {"k":[1]}'],
    ["error {e}", { e: new Error("boom") }, "error boom"],
    ["no placeholders", { x: 1 }, "no placeholders"],
  ];
  for (const [template, attrs, expected] of cases) {
    assert.equal(renderTemplate(template, attrs), expected, template);
  }
});

Deno.test("placeholderNames() lists the attributes a template consumes", () => {
  assert.deepEqual([...placeholderNames("{a.b} {c} {{d}}")], ["a", "c"]);
});

Deno.test("recordIds() are unique across writers and ordered within one", () => {
  const a = recordIds();
  const b = recordIds();
  const ids = [a(), a(), a()];
  assert.deepEqual([...ids].sort(), ids);
  assert.notEqual(ids[0].slice(0, 12), b().slice(0, 12));
  assert.match(newSpanId("call"), /^cal-[0-9a-f]{12}$/);
});

Deno.test("encodeRecord() writes keys in order, attrs last, parent only when set", () => {
  const record: LogRecord = {
    time: "2026-10-01T12:00:00.000Z",
    level: "info",
    event: "call.start",
    msg: "m",
    template: "m",
    id: "x",
    span: "cal-1",
    attrs: { a: 1 },
  };
  assert.equal(
    encodeRecord(record),
    '{"time":"2026-10-01T12:00:00.000Z","level":"info","event":"call.start","msg":"m",' +
      '"template":"m","id":"x","span":"cal-1","attrs":{"a":1}}\n',
  );
  assert.match(
    encodeRecord({ ...record, parent: "ins-1" }),
    /"span":"cal-1","parent":"ins-1","attrs"/,
  );
});
