import { deepEqual as assertEquals } from "node:assert/strict";
import { naturalCompare } from "./natural_order.ts";

Deno.test("naturalCompare() orders numbered names by value, not by bytes", () => {
  const cases: Array<[string[], string[]]> = [
    [["10-y.ts", "9-x.ts"], ["9-x.ts", "10-y.ts"]],
    [["a10", "a2", "a1"], ["a1", "a2", "a10"]],
    [["x10.ts", "x2.ts", "x.ts", "x1.ts"], ["x.ts", "x1.ts", "x2.ts", "x10.ts"]],
    [["b", "a", "B"], ["B", "a", "b"]],
    [["007-a", "7-a", "06-a"], ["06-a", "7-a", "007-a"]],
    [["v1.10.0", "v1.9.3", "v1.9"], ["v1.9", "v1.9.3", "v1.10.0"]],
    [["99999999999999999999-a", "100000000000000000000-a"], [
      "99999999999999999999-a",
      "100000000000000000000-a",
    ]],
    [["", "0"], ["", "0"]],
  ];
  for (const [input, expected] of cases) {
    assertEquals([...input].sort(naturalCompare), expected, input.join(" "));
  }
});

Deno.test("naturalCompare() is 0 only for equal strings and antisymmetric otherwise", () => {
  const names = ["a", "a0", "a00", "a1", "a01", "1", "01", "", "b2c", "b02c", "b2d"];
  for (const a of names) {
    for (const b of names) {
      const ab = Math.sign(naturalCompare(a, b));
      assertEquals(ab, -Math.sign(naturalCompare(b, a)), `${a} vs ${b}`);
      assertEquals(ab === 0, a === b, `${a} vs ${b}`);
    }
  }
});
