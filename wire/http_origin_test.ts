import assert from "node:assert/strict";
import { isLoopbackHost, normalizeOrigin, rebindingRefusal } from "./http_origin.ts";

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

Deno.test("rebindingRefusal() admits only the listener's own Origin, or one allowedOrigins names", () => {
  const host = "127.0.0.1:8899";
  for (const origin of ["http://127.0.0.1:8899", "http://localhost:8899", "http://[::1]:8899"]) {
    assert.equal(rebindingRefusal(headers({ host, origin }), loopback), undefined, origin);
  }
  // Another localhost port is another origin (issue 24): any page a browser opens from it.
  for (
    const origin of [
      "http://localhost:3000",
      "https://localhost:8899",
      "http://evil.example",
      "null",
      "file://",
      "chrome-extension://abc",
    ]
  ) {
    const refusal = rebindingRefusal(headers({ host, origin }), loopback);
    assert.match(refusal ?? "", /transport\.allowedOrigins/, origin);
    assert.ok(refusal!.includes(JSON.stringify(origin)), refusal);
  }
  const admitting = {
    ...loopback,
    allowedOrigins: ["http://localhost:3000/", "https://App.example"],
  };
  for (const origin of ["http://localhost:3000", "https://app.example"]) {
    assert.equal(rebindingRefusal(headers({ host, origin }), admitting), undefined, origin);
  }
  assert.ok(rebindingRefusal(headers({ host, origin: "http://localhost:3001" }), admitting));
});

Deno.test("normalizeOrigin() serializes an origin and refuses what is not one", () => {
  assert.equal(normalizeOrigin("HTTP://LocalHost:80/"), "http://localhost");
  assert.equal(normalizeOrigin("http://localhost:3000"), "http://localhost:3000");
  for (const bad of ["localhost:3000", "http://a/b", "http://u:p@a", "ftp://a", "null"]) {
    assert.equal(normalizeOrigin(bad), undefined, bad);
  }
});
