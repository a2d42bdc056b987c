import assert from "node:assert/strict";
import { decodeResponse, encodeRequest, ExchangeFailure, exchangeRequest } from "./wire.ts";

const bytes = (text: string) => new TextEncoder().encode(text);

Deno.test("decodeResponse() decodes a chunked body with multi-byte characters", () => {
  const body = '{"a":"é"}';
  const size = bytes(body).length.toString(16);
  const text =
    `HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n${size}\r\n${body}\r\n0\r\n\r\n`;
  assert.deepEqual(decodeResponse(bytes(text)), { status: 200, body });
});

Deno.test("decodeResponse() is undefined for a response cut short", () => {
  for (
    const text of [
      "",
      "HTTP/1.1 200 OK\r\ncontent-length: 10",
      'HTTP/1.1 200 OK\r\ncontent-length: 10\r\n\r\n{"ok":',
      "HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n5\r\nhello\r\n",
    ]
  ) assert.equal(decodeResponse(bytes(text)), undefined, JSON.stringify(text));
});

Deno.test("encodeRequest() states the operation, the version and the body's length in bytes", () => {
  const text = new TextDecoder().decode(encodeRequest("call", '{"x":"é"}', "1.2.3"));
  assert.match(text, /^POST \/v1\/call HTTP\/1\.1\r\n/);
  assert.match(text, /\r\nx-mcpx-version: 1\.2\.3\r\n/);
  assert.match(text, /\r\ncontent-length: 10\r\n/);
  assert.ok(text.endsWith('\r\n\r\n{"x":"é"}'));
});

Deno.test("exchangeRequest() says nothing was sent when the connection is refused", async () => {
  const dir = await Deno.makeTempDir();
  try {
    // A socket file nobody listens on: what a daemon killed with SIGKILL leaves.
    const listener = Deno.listen({ transport: "unix", path: `${dir}/d.sock` });
    listener.close();
    await Deno.writeTextFile(`${dir}/plain`, "");
    for (const path of [`${dir}/missing.sock`, `${dir}/plain`]) {
      const error = await exchangeRequest(path, encodeRequest("health", "{}")).then(
        () => assert.fail("expected a failure"),
        (e) => e,
      );
      assert.ok(error instanceof ExchangeFailure, String(error));
      assert.equal(error.sent, false, path);
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("exchangeRequest() says the request was sent when the peer closes without answering", async () => {
  const dir = await Deno.makeTempDir();
  const listener = Deno.listen({ transport: "unix", path: `${dir}/d.sock` });
  const peer = (async () => {
    const conn = await listener.accept();
    await conn.read(new Uint8Array(1024)); // the request arrived; now die without a word
    conn.close();
  })();
  try {
    const error = await exchangeRequest(`${dir}/d.sock`, encodeRequest("call", "{}")).then(
      () => assert.fail("expected a failure"),
      (e) => e,
    );
    assert.ok(error instanceof ExchangeFailure, String(error));
    assert.equal(error.sent, true);
  } finally {
    await peer;
    listener.close();
    await Deno.remove(dir, { recursive: true });
  }
});
