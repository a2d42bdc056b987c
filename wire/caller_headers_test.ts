import assert from "node:assert/strict";
import { callerFromHeaders, callerHeaderName } from "./caller_headers.ts";

Deno.test("callerHeaderName() spells each field as an X-Mcpx header", () => {
  assert.equal(callerHeaderName("session"), "x-mcpx-session");
  assert.equal(callerHeaderName("gitWorkTree"), "x-mcpx-git-work-tree");
});

Deno.test("callerFromHeaders() types each field as a body would carry it", () => {
  const headers = new Headers({
    "X-Mcpx-Session": "s1",
    "X-Mcpx-Pid": "42",
    "X-Mcpx-Cwd": "/w",
    "X-Mcpx-Trust-Check": "true",
    "X-Mcpx-Selection": '{"profiles":["web"]}',
  });
  assert.deepEqual(callerFromHeaders(headers), {
    session: "s1",
    cwd: "/w",
    pid: 42,
    selection: { profiles: ["web"] },
    trustCheck: true,
  });
});

Deno.test("callerFromHeaders() names a header it cannot read", () => {
  assert.throws(() => callerFromHeaders(new Headers({ "x-mcpx-pid": "abc" })), /x-mcpx-pid/);
  assert.throws(() => callerFromHeaders(new Headers({ "x-mcpx-notices": "yes" })), /true or false/);
  assert.throws(() => callerFromHeaders(new Headers({ "x-mcpx-selection": "{" })), /JSON/);
});
