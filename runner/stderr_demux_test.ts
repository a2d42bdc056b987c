import assert from "node:assert/strict";
import { StderrDemux } from "./stderr_demux.ts";

function split(chunks: string[]): { records: unknown[]; text: string } {
  const records: unknown[] = [];
  let text = "";
  const decoder = new TextDecoder();
  const demux = new StderrDemux({
    record: (r) => records.push(r),
    text: (b) => text += decoder.decode(b),
  });
  for (const c of chunks) demux.push(new TextEncoder().encode(c));
  demux.end();
  return { records, text };
}

Deno.test("StderrDemux separates record lines from the script's own stderr", () => {
  const { records, text } = split([
    'plain\n\x1e{"level":"info"}\nmore',
    ' text\n\x1e{"a":',
    "1}\n\x1enot json\nlast",
  ]);
  assert.deepEqual(records, [{ level: "info" }, { a: 1 }]);
  assert.equal(text, "plain\nmore text\nnot json\nlast");
});

Deno.test("StderrDemux only treats the marker at the start of a line as a record", () => {
  const { records, text } = split(["x\x1e{}\n", '\x1e{"b":2}']);
  assert.deepEqual(records, [{ b: 2 }]);
  assert.equal(text, "x\x1e{}\n");
});
