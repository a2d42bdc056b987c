import assert from "node:assert/strict";
import { editDistance, nearest } from "./nearest.ts";

Deno.test("editDistance() counts a transposition as one edit", () => {
  const cases: [string, string, number][] = [
    ["", "", 0],
    ["echo", "echo", 0],
    ["ehco", "echo", 1],
    ["ech", "echo", 1],
    ["echoo", "echo", 1],
    ["acho", "echo", 1],
    ["kitten", "sitting", 3],
    ["ca", "abc", 3],
    ["", "abc", 3],
  ];
  for (const [a, b, want] of cases) assert.equal(editDistance(a, b), want, `${a} → ${b}`);
});

Deno.test("nearest() suggests close names, nearest first", async (t) => {
  const tools = [
    "echo",
    "add",
    "long_running_operation",
    "take_screenshot",
    "take_snapshot",
    "click",
  ];
  const cases: { name: string; input: string; want: string[] }[] = [
    { name: "a typo", input: "ech", want: ["echo"] },
    { name: "a transposition", input: "ehco", want: ["echo"] },
    { name: "case is ignored", input: "ECHO", want: ["echo"] },
    { name: "a substring is preferred", input: "screenshot", want: ["take_screenshot"] },
    {
      name: "several substrings, shortest first",
      input: "take",
      want: ["take_snapshot", "take_screenshot"],
    },
    { name: "far names are left out", input: "zzzzzz", want: [] },
    { name: "long names allow more edits", input: "take_screnshto", want: ["take_screenshot"] },
  ];
  for (const c of cases) {
    await t.step(c.name, () => assert.deepEqual(nearest(c.input, tools), c.want));
  }
});

Deno.test("nearest() caps the number of suggestions", () => {
  assert.deepEqual(nearest("ab", ["aa", "ab1", "ac", "ad"], 2), ["aa", "ab1"]);
  assert.deepEqual(nearest("ab", ["aa", "ac"], 0), []);
});
