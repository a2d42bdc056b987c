import assert from "node:assert/strict";
import { listenerRefusal } from "./listener_guard.ts";
import { bodyLimit } from "./body_limit.ts";

const guard = {
  hosts: { hostname: "127.0.0.1", port: 8899 },
  what: "this daemon",
  maxBodyBytes: bodyLimit(1024),
};
const request = (method: string, headers: Record<string, string>) =>
  new Request("http://127.0.0.1:8899/v1/health", {
    method,
    headers: { host: "127.0.0.1:8899", ...headers },
  });

Deno.test("listenerRefusal() takes a state-changing body only as application/json", () => {
  for (const type of [undefined, "text/plain", "application/x-www-form-urlencoded"]) {
    const refused = listenerRefusal(request("POST", type ? { "content-type": type } : {}), guard);
    assert.equal(refused?.status, 415, type);
    assert.equal(refused?.code, "unsupported-media-type");
    assert.match(refused!.message, /application\/json.*nothing was run/);
  }
  assert.equal(
    listenerRefusal(request("POST", { "content-type": "application/json; charset=utf-8" }), guard),
    undefined,
  );
  // Reading and ending a session carry no body: no content type asked.
  assert.equal(listenerRefusal(request("GET", {}), guard), undefined);
  assert.equal(listenerRefusal(request("DELETE", {}), guard), undefined);
});

Deno.test("listenerRefusal() refuses a declared body past the limit before reading it", () => {
  const json = { "content-type": "application/json" };
  const over = listenerRefusal(
    request("POST", { ...json, "content-length": String(bodyLimit(1024) + 1) }),
    guard,
  );
  assert.equal(over?.status, 413);
  assert.match(over!.message, /input\.maxBytes/);
  assert.equal(
    listenerRefusal(request("POST", { ...json, "content-length": String(bodyLimit(1024)) }), guard),
    undefined,
  );
});

Deno.test("listenerRefusal() checks Origin before the token, and a preflight needs no token", () => {
  const tokened = { ...guard, token: "t0k3n" };
  const page = listenerRefusal(request("POST", { origin: "http://localhost:3000" }), tokened);
  assert.equal(page?.code, "forbidden-origin");
  assert.equal(page?.status, 403);
  const admitted = {
    ...tokened,
    hosts: { ...guard.hosts, allowedOrigins: ["http://localhost:3000"] },
  };
  assert.equal(
    listenerRefusal(request("OPTIONS", { origin: "http://localhost:3000" }), admitted),
    undefined,
  );
  assert.equal(
    listenerRefusal(request("POST", { origin: "http://localhost:3000" }), admitted)?.status,
    401,
  );
});
