import assert from "node:assert/strict";
import { errorTemplate } from "./error_template.ts";

Deno.test("errorTemplate() takes values out of an error message", () => {
  const cases: [string, string][] = [
    [
      "slow.sleep did not answer within 100 ms (callTimeout); mcpx sent the server a cancellation",
      "slow.sleep did not answer within {n} ms (callTimeout); mcpx sent the server a cancellation",
    ],
    [
      'server "fs": command "/usr/bin/nope" was not found',
      'server "{s}": command "{s}" was not found',
    ],
    ["cannot open /tmp/a/b.txt: denied", "cannot open {path}: denied"],
    ["fetch failed at http://127.0.0.1:4000/mcp?x=1", "fetch failed at {url}"],
    ["call cal-9f3c0a1b2c3d lost on i7", "call {id} lost on i7"],
    ["request 5f0c1e9a2b3d0007 failed", "request {id} failed"],
    ["exited with code 3\nstderr tail: boom", "exited with code {n}"],
    ["server2 v1.2 failed -1 times", "server2 v1.2 failed {n} times"],
  ];
  for (const [message, template] of cases) assert.equal(errorTemplate(message), template, message);
});

Deno.test("errorTemplate() gives one template to failures that differ only in values", () => {
  assert.equal(
    errorTemplate("x.sleep did not answer within 150 ms"),
    errorTemplate("x.sleep did not answer within 2500 ms"),
  );
});
