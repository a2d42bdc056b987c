import assert from "node:assert/strict";
import { jsonResponse, STREAM_FROM_BYTES } from "./json_response.ts";

const utf8 = (text: string) => new TextEncoder().encode(text).length;

Deno.test("jsonResponse() answers a small body as Response.json does", async () => {
  const body = { ok: true, result: { content: [{ type: "text", text: "hi é" }] } };
  const response = jsonResponse(body, { status: 201 });
  assert.equal(response.status, 201);
  assert.match(response.headers.get("content-type") ?? "", /^application\/json/);
  assert.equal(await response.text(), JSON.stringify(body));
});

Deno.test("jsonResponse() streams a large body in small chunks, with its exact content-length", async () => {
  // Three copies of a 3 MiB result (JSON text, its bytes, the chunks) is what the daemon held
  // before; streamed, no chunk is more than a slice of it.
  const text = 'line é😀 "quoted"\n'.repeat(200_000);
  const body = { ok: true, result: { content: [{ type: "text", text }] } };
  const expected = JSON.stringify(body);
  assert.ok(utf8(expected) >= STREAM_FROM_BYTES);
  const response = jsonResponse(body);
  assert.equal(response.headers.get("content-length"), String(utf8(expected)));
  assert.equal(response.headers.get("content-type"), "application/json");
  const chunks: Uint8Array[] = [];
  for await (const chunk of response.body!) chunks.push(chunk);
  assert.ok(chunks.length > 10, `${chunks.length} chunks`);
  const largest = Math.max(...chunks.map((c) => c.length));
  assert.ok(largest <= 1 << 20, `a chunk of ${largest} bytes`);
  const all = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let at = 0;
  for (const c of chunks) {
    all.set(c, at);
    at += c.length;
  }
  assert.ok(new TextDecoder().decode(all) === expected, "the streamed text differs");
});

Deno.test("jsonResponse() throws as Response.json does for a body that cannot be serialised", () => {
  assert.throws(() => jsonResponse({ n: 1n }), TypeError);
});
