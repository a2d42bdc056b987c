import assert from "node:assert/strict";
import { requestFraming } from "./request_framing.ts";

Deno.test("requestFraming: a sized or bodiless HTTP/1.1 request may be followed by another", () => {
  assert.deepEqual(requestFraming("POST /mcp HTTP/1.1\r\nHost: a\r\nContent-Length: 42"), {
    keep: true,
    bodyBytes: 42,
  });
  assert.deepEqual(requestFraming("GET /mcp HTTP/1.1\r\nhost: a"), { keep: true, bodyBytes: 0 });
  assert.deepEqual(
    requestFraming("POST / HTTP/1.1\r\ncontent-length: 3\r\ncontent-length: 3"),
    { keep: true, bodyBytes: 3 },
  );
  assert.equal(requestFraming("GET / HTTP/1.1\r\nconnection: keep-alive").keep, true);
});

Deno.test("requestFraming: chunked, closing, HTTP/1.0 or oddly sized requests end the connection", () => {
  const last = { keep: false, bodyBytes: 0 };
  for (
    const head of [
      "POST / HTTP/1.1\r\ntransfer-encoding: chunked",
      "POST / HTTP/1.1\r\ncontent-length: 2\r\nConnection: Close",
      "POST / HTTP/1.1\r\nconnection: upgrade, close",
      "GET / HTTP/1.0\r\nhost: a",
      "POST / HTTP/1.1\r\ncontent-length: -1",
      "POST / HTTP/1.1\r\ncontent-length: 1, 2",
      "POST / HTTP/1.1\r\ncontent-length: 1\r\ncontent-length: 2",
      "POST / HTTP/1.1\r\nno colon here",
    ]
  ) assert.deepEqual(requestFraming(head), last, head);
});
