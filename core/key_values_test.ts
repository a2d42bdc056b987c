import assert from "node:assert/strict";
import { parseKeyValues } from "./key_values.ts";
import { UsageError } from "./errors.ts";

Deno.test("parseKeyValues() splits at the first = and refuses words without one", () => {
  assert.deepEqual(parseKeyValues(["a=1", "b=x=y", "c="], "args"), { a: "1", b: "x=y", c: "" });
  assert.throws(
    () => parseKeyValues(["oops"], "prompt arguments"),
    /prompt arguments are key=value, got "oops"/,
  );
  assert.throws(() => parseKeyValues(["=v"], "args"), UsageError);
  assert.throws(() => parseKeyValues(["a=1", "a=2"], "args"), /"a" is given twice/);
  assert.equal(Object.getPrototypeOf(parseKeyValues(["__proto__=x"], "a")), Object.prototype);
});
