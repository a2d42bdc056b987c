import assert from "node:assert/strict";
import {
  decodeResponse,
  encodeRequest,
  ExchangeFailure,
  exchangeRequest,
  UnsafeSocketDirectory,
} from "./wire.ts";
import { wireEndpoint } from "./endpoint.ts";

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

const ROOT_ONLY = Deno.uid() === 0 ? undefined : "needs root to give a directory to another user";

Deno.test("exchangeRequest() connects through no directory another user controls, sending nothing", async (t) => {
  const root = await Deno.realPath(await Deno.makeTempDir());
  /** Listens in `dir` as another user's server would, then expects the request refused unsent. */
  const refusedIn = async (dir: string, setup: () => void): Promise<UnsafeSocketDirectory> => {
    Deno.mkdirSync(dir, { mode: 0o700 });
    const listener = Deno.listen({ transport: "unix", path: `${dir}/d.sock` });
    let connected = false;
    const accepting = listener.accept().then((c) => {
      connected = true;
      c.close();
    }, () => {});
    setup();
    const error = await exchangeRequest(`${dir}/d.sock`, encodeRequest("health", "{}")).then(
      () => assert.fail("expected a refusal"),
      (e) => e,
    );
    listener.close();
    await accepting;
    assert.equal(connected, false, "the socket was connected to");
    assert.ok(error instanceof UnsafeSocketDirectory, String(error));
    assert.equal(error.path, dir);
    assert.equal(error.code, "unsafe-directory");
    return error;
  };
  try {
    await t.step("one others can write into", async () => {
      const dir = `${root}/open`;
      const error = await refusedIn(dir, () => Deno.chmodSync(dir, 0o777));
      assert.match(error.message, /mode 777/);
      assert.match(error.message, /nothing was sent/);
    });
    await t.step({
      name: "one another user owns" + (ROOT_ONLY ? ` (skipped: ${ROOT_ONLY})` : ""),
      ignore: ROOT_ONLY !== undefined,
      fn: async () => {
        const dir = `${root}/theirs`;
        const error = await refusedIn(dir, () => Deno.chownSync(dir, 65534, 65534));
        assert.match(error.message, /owned by user 65534, not by you/);
      },
    });
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("wireEndpoint() reads socket paths, unix: and http: addresses, and refuses the rest", () => {
  assert.deepEqual(wireEndpoint("/run/d.sock"), { kind: "unix", path: "/run/d.sock" });
  assert.deepEqual(wireEndpoint("unix:/run/d.sock"), { kind: "unix", path: "/run/d.sock" });
  assert.deepEqual(wireEndpoint("unix:///run/d.sock"), { kind: "unix", path: "/run/d.sock" });
  assert.deepEqual(wireEndpoint("http://mcpx.internal:8899"), {
    kind: "tcp",
    hostname: "mcpx.internal",
    port: 8899,
    host: "mcpx.internal:8899",
  });
  assert.deepEqual(wireEndpoint("http://[::1]:8899/"), {
    kind: "tcp",
    hostname: "::1",
    port: 8899,
    host: "[::1]:8899",
  });
  for (const bad of ["https://h:1", "ftp://h", "http://u:p@h:1", "unix:relative"]) {
    assert.throws(() => wireEndpoint(bad), /not a daemon address/, bad);
  }
});

Deno.test("encodeRequest() to a TCP endpoint sends its Host and the bearer token", () => {
  const text = new TextDecoder().decode(
    encodeRequest("health", "{}", "1.0", { endpoint: "http://127.0.0.1:8899", token: "t0k" }),
  );
  assert.match(text, /\r\nhost: 127\.0\.0\.1:8899\r\n/);
  assert.match(text, /\r\nauthorization: Bearer t0k\r\n/);
  const unix = new TextDecoder().decode(
    encodeRequest("health", "{}", "1.0", { endpoint: "/run/d.sock", token: "t0k" }),
  );
  assert.match(unix, /\r\nhost: mcpx\r\n/);
  assert.doesNotMatch(unix, /authorization/);
});
