import assert from "node:assert/strict";
import { isLoopbackHost, rebindingRefusal } from "./http_origin.ts";

const loopback = { hostname: "127.0.0.1", port: 8899 };
const network = { hostname: "0.0.0.0", port: 8899, allowedHosts: ["mcpx.internal"] };
const headers = (h: Record<string, string>) => new Headers(h);

Deno.test("isLoopbackHost() knows localhost, 127/8 and ::1, and nothing else", () => {
  for (
    const h of ["localhost", "LOCALHOST", "a.localhost", "127.0.0.1", "127.1.2.3", "::1", "[::1]"]
  ) {
    assert.equal(isLoopbackHost(h), true, h);
  }
  for (const h of ["0.0.0.0", "10.0.0.1", "localhost.evil.example", "128.0.0.1", "::"]) {
    assert.equal(isLoopbackHost(h), false, h);
  }
});

Deno.test("rebindingRefusal() on a loopback listener accepts loopback Hosts only", () => {
  for (const host of ["127.0.0.1:8899", "localhost:8899", "localhost", "[::1]:8899"]) {
    assert.equal(rebindingRefusal(headers({ host }), loopback), undefined, host);
  }
  for (const host of ["evil.example:8899", "10.0.0.5:8899", "mcpx.internal:8899"]) {
    assert.match(rebindingRefusal(headers({ host }), loopback)!, /DNS rebinding/, host);
  }
  assert.match(rebindingRefusal(headers({ host: "127.0.0.1:9999" }), loopback)!, /port 9999/);
  assert.match(rebindingRefusal(new Headers(), loopback)!, /no Host header/);
  assert.match(rebindingRefusal(headers({ host: "a b" }), loopback)!, /refused/);
});

Deno.test("rebindingRefusal() beyond loopback accepts IPs, the machine's name and allowedHosts", () => {
  for (const host of ["10.0.0.5:8899", "127.0.0.1:8899", "mcpx.internal:8899", Deno.hostname()]) {
    assert.equal(rebindingRefusal(headers({ host }), network), undefined, host);
  }
  assert.match(rebindingRefusal(headers({ host: "evil.example" }), network)!, /allowedHosts/);
});

Deno.test("rebindingRefusal() refuses an Origin on another host, null or not http(s)", () => {
  const host = "127.0.0.1:8899";
  assert.equal(
    rebindingRefusal(headers({ host, origin: "http://localhost:3000" }), loopback),
    undefined,
  );
  for (const origin of ["http://evil.example", "null", "file://", "chrome-extension://abc"]) {
    assert.ok(rebindingRefusal(headers({ host, origin }), loopback), origin);
  }
});
