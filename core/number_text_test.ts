import assert from "node:assert/strict";
import { groupedDigits } from "./number_text.ts";

Deno.test("groupedDigits writes what toLocaleString(en-US) writes for whole numbers", () => {
  for (
    const n of [0, 7, 99, 100, 999, 1000, 1160, 7200, 12345, 999999, 1000000, 1234567890, -1, -1200]
  ) {
    assert.equal(groupedDigits(n), n.toLocaleString("en-US"), String(n));
  }
  assert.equal(groupedDigits(Number.MAX_SAFE_INTEGER), "9,007,199,254,740,991");
});

Deno.test("groupedDigits leaves what is not a safe integer to String()", () => {
  assert.equal(groupedDigits(1.5), "1.5");
  assert.equal(groupedDigits(NaN), "NaN");
});
