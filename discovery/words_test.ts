import assert from "node:assert/strict";
import { fold, splitWords, stemmedWords } from "./words.ts";

Deno.test("splitWords() splits on separators and camelCase", () => {
  const cases: [string, string[]][] = [
    ["take_screenshot", ["take", "screenshot"]],
    ["take-screenshot", ["take", "screenshot"]],
    ["chrome_devtools.click", ["chrome", "devtools", "click"]],
    ["takeScreenshot", ["take", "screenshot"]],
    ["HTMLParser", ["html", "parser"]],
    ["getURL", ["get", "url"]],
    ["list pages, quickly!", ["list", "pages", "quickly"]],
    ["v2Api", ["v2", "api"]],
    ["", []],
    ["__", []],
  ];
  for (const [text, want] of cases) assert.deepEqual(splitWords(text), want, text);
});

Deno.test("stemmedWords() stems each word", () => {
  assert.deepEqual(stemmedWords("takeScreenshots of pages"), ["take", "screenshot", "of", "page"]);
});

Deno.test("fold() and splitWords() fold case and diacritics alike, composed or not", () => {
  assert.equal(fold("Héllo WÖRLD"), "hello world");
  assert.equal(fold("he\u0301llo"), "hello");
  assert.equal(fold("ﬁle"), "file");
  assert.deepEqual(splitWords("Say he\u0301llo to Zoë"), ["say", "hello", "to", "zoe"]);
  assert.deepEqual(splitWords("Crème brûlée"), ["creme", "brulee"]);
});
