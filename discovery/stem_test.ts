import assert from "node:assert/strict";
import { stem } from "./stem.ts";

Deno.test("stem() strips inflections and leaves other words alone", () => {
  const cases: [string, string][] = [
    ["screenshots", "screenshot"],
    ["screenshot", "screenshot"],
    ["pages", "page"],
    ["clicking", "click"],
    ["clicked", "click"],
    ["files", "file"],
    ["queries", "query"],
    ["processes", "process"],
    ["classes", "class"],
    ["boxes", "box"],
    ["searches", "search"],
    ["running", "run"],
    ["installing", "install"],
    ["quickly", "quick"],
    ["class", "class"],
    ["status", "status"],
    ["process", "process"],
    ["analysis", "analysis"],
    ["string", "string"],
    ["need", "need"],
    ["speed", "speed"],
    ["only", "only"],
    ["ids", "ids"],
    ["go", "go"],
  ];
  for (const [word, want] of cases) assert.equal(stem(word), want, word);
});
