import assert from "node:assert/strict";
import { STDERR_TAIL_CHARS, TailBuffer, tailExcerpt } from "./tail_buffer.ts";

Deno.test("TailBuffer keeps only the most recent text, from a line boundary", () => {
  const tail = new TailBuffer(10);
  tail.append("first line\nsecond\n");
  tail.append("third\n");
  assert.ok(tail.toString().length <= 10);
  assert.equal(tail.toString(), "third\n");
  assert.deepEqual(tail.lastLines(1), ["third"]);
});

Deno.test("TailBuffer refuses a limit below 1", () => {
  assert.throws(() => new TailBuffer(0), RangeError);
});

/** What node 20 prints for `node /nonexistent/server.js` (a server whose file is missing). */
const NODE_MISSING_MODULE = `node:internal/modules/cjs/loader:1210
  throw err;
  ^

Error: Cannot find module '/nonexistent/server.js'
    at Module._resolveFilename (node:internal/modules/cjs/loader:1207:15)
    at Module._load (node:internal/modules/cjs/loader:1038:27)
    at Function.executeUserEntryPoint [as runMain] (node:internal/modules/run_main:164:12)
    at node:internal/main/run_main_module:28:49 {
  code: 'MODULE_NOT_FOUND',
  requireStack: []
}

Node.js v20.20.2
`;

Deno.test("tailExcerpt() keeps node's `Error: Cannot find module` line and folds the stack", () => {
  const excerpt = tailExcerpt(NODE_MISSING_MODULE);
  assert.match(excerpt, /^Error: Cannot find module '\/nonexistent\/server\.js'$/m);
  assert.match(excerpt, /… 4 stack lines left out/);
  assert.doesNotMatch(excerpt, /^\s+at .+[:(]/m, "no stack frame is printed");
  assert.match(excerpt, /Node\.js v20/);
});

Deno.test("tailExcerpt() puts the error line first when it is older than the window", () => {
  const noise = Array.from({ length: 30 }, (_, i) => `debug line ${i}`).join("\n");
  const excerpt = tailExcerpt(`Error: the one that matters\n${noise}\n`, 5);
  const lines = excerpt.split("\n");
  assert.equal(lines[0], "Error: the one that matters");
  assert.equal(lines[1], "…");
  assert.deepEqual(lines.slice(2), [25, 26, 27, 28, 29].map((i) => `debug line ${i}`));
  assert.equal(tailExcerpt(""), "");
});

Deno.test("a server's stderr tail keeps at least its last 4 KiB", () => {
  const tail = new TailBuffer(STDERR_TAIL_CHARS);
  const lines = Array.from(
    { length: 200 },
    (_, i) => `line ${String(i).padStart(3, "0")} ${"x".repeat(40)}`,
  );
  for (const line of lines) tail.append(line + "\n");
  const kept = tail.toString();
  assert.ok(new TextEncoder().encode(kept).length >= 4096, `${kept.length} characters kept`);
  assert.ok(kept.endsWith(`${lines.at(-1)}\n`));
});
