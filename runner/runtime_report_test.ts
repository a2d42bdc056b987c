import * as assert from "node:assert/strict";
import { endedByUnsettledReport, RuntimeReportHold } from "./runtime_report.ts";

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** Feeds `chunks` through a hold; returns what passed and what was held. */
function feed(chunks: string[]): { passed: string; held: string | null } {
  let passed = "";
  const hold = new RuntimeReportHold((bytes) => passed += decoder.decode(bytes));
  for (const chunk of chunks) hold.text(encoder.encode(chunk));
  const held = hold.end();
  return { passed, held: held && decoder.decode(held) };
}

const COLOURED = "\x1b[0m\x1b[1m\x1b[31merror\x1b[0m: Top-level await promise never resolved\n" +
  "  await x;\n  ^\n    at <anonymous> (file:///c/launchers/ab.ts:3:1)\n";

Deno.test("RuntimeReportHold holds Deno's report, coloured or not, and passes what came before", () => {
  assert.deepEqual(feed(["working\n", COLOURED]), { passed: "working\n", held: COLOURED });
  const plain = COLOURED.replaceAll("\x1b[0m", "").replaceAll("\x1b[1m", "").replaceAll(
    "\x1b[31m",
    "",
  );
  assert.deepEqual(feed(["a\nb\n" + plain]), { passed: "a\nb\n", held: plain });
});

Deno.test("RuntimeReportHold holds a report that arrives a byte at a time", () => {
  assert.deepEqual(feed(["x\n", ...COLOURED]), { passed: "x\n", held: COLOURED });
});

Deno.test("RuntimeReportHold passes every other line, lines that start alike too, in order", () => {
  const text = "e\nerror: something else\nerr";
  assert.deepEqual(feed([text]), { passed: text, held: null });
  assert.deepEqual(feed([...text]), { passed: text, held: null });
  const mid = "say error: Top-level await promise never resolved\n";
  assert.deepEqual(feed([mid]), { passed: mid, held: null });
});

Deno.test("endedByUnsettledReport() is deno exiting 1 on its own", () => {
  assert.equal(endedByUnsettledReport("deno", { code: 1, signal: null }), true);
  assert.equal(endedByUnsettledReport("deno", { code: 143, signal: "SIGTERM" }), false);
  assert.equal(endedByUnsettledReport("node", { code: 1, signal: null }), false);
});
