import assert from "node:assert/strict";
import { Daemon } from "./engine.ts";
import { SessionLostError } from "./instance.ts";
import { McpxError, ServerError, TimeoutError } from "../core/errors.ts";
import { type RemoteFixture, remoteFixture, remoteSpec } from "./_remote_fixture.ts";
import type { PoolSettings } from "../config/types.ts";

/** A daemon whose one server, `remote`, is `fixture`; stopped (before the fixture) on dispose. */
async function daemonFor(
  fixture: RemoteFixture,
  pool: Partial<PoolSettings> = {},
): Promise<{ daemon: Daemon } & AsyncDisposable> {
  const dir = await Deno.makeTempDir({ prefix: "mcpx-engine-" });
  const daemon = new Daemon({
    config: {
      path: null,
      realPath: null,
      fingerprint: "0".repeat(16),
      servers: [remoteSpec(fixture.url, pool)],
      document: {},
    },
    cachePath: `${dir}/schemas.json`,
    sessionsPath: `${dir}/sessions.json`,
    mode: "foreground",
    env: {},
  });
  return {
    daemon,
    async [Symbol.asyncDispose]() {
      await daemon.shutdown();
      await Deno.remove(dir, { recursive: true });
    },
  };
}

/** The text of a `CallToolResult`'s first content item. */
function textOf(result: unknown): string {
  return (result as { content: { text: string }[] }).content[0].text;
}

for (const status of [404, 400]) {
  Deno.test(`Daemon.call() runs a call once more on a new session when the server answers ${status} to the session it carried`, async () => {
    await using fixture = await remoteFixture({ unknownSessionStatus: status });
    await using d = await daemonFor(fixture);
    assert.equal(textOf(await d.daemon.call("remote", "echo", { text: "one" }, {})), "one");
    fixture.forget(); // the server restarted
    assert.equal(textOf(await d.daemon.call("remote", "echo", { text: "two" }, {})), "two");
    // Each instance's start first asks server/discover (decision 0072), which this 2025-era
    // server refuses without a session: those carry none, and are not the lost session.
    assert.deepEqual(
      fixture.refused.filter((session) => session !== ""),
      ["s1"],
      "the lost session was refused once",
    );
    assert.equal(fixture.sessionsStarted(), 2, "a new session for the retry");
    assert.equal(fixture.ran.get("tools/call:echo"), 2, "each call ran once");
  });
}

Deno.test("Daemon.call() does not retry a server error whose text says the session is invalid", async () => {
  await using fixture = await remoteFixture();
  await using d = await daemonFor(fixture);
  const message = "session invalid: 404 not found, expired or unknown";
  const error = await d.daemon.call("remote", "fail", { message }, {}).then(
    () => assert.fail("expected the server's error"),
    (e) => e,
  );
  assert.ok(error instanceof ServerError, String(error));
  assert.ok(!(error instanceof SessionLostError), "not a session loss: the server answered");
  assert.match(error.message, /session invalid/);
  assert.equal(fixture.ran.get("tools/call:fail"), 1, "the call ran once, not again");
  assert.equal(fixture.sessionsStarted(), 1, "the connection was kept");
});

Deno.test("Daemon.call() reports a server error whose text says it timed out as the server's error, not callTimeout", async () => {
  await using fixture = await remoteFixture();
  await using d = await daemonFor(fixture);
  const error = await d.daemon.call("remote", "fail", { message: "Request timed out" }, {}).then(
    () => assert.fail("expected the server's error"),
    (e) => e,
  );
  assert.ok(!(error instanceof TimeoutError), `not a timeout: ${error}`);
  assert.ok(error instanceof McpxError);
  assert.equal(error.code, "server");
  assert.match(error.message, /Request timed out/);
});

Deno.test("Daemon.call() keeps the connection after a server error whose text names a socket failure", async () => {
  await using fixture = await remoteFixture();
  await using d = await daemonFor(fixture);
  const message = "socket hang up: ECONNRESET, connection reset";
  await assert.rejects(() => d.daemon.call("remote", "fail", { message }, {}), ServerError);
  assert.equal(textOf(await d.daemon.call("remote", "echo", { text: "still" }, {})), "still");
  assert.equal(fixture.sessionsStarted(), 1, "the same connection answered");
});

Deno.test("Daemon.call() fails at callTimeout with a TimeoutError naming it when the server never answers", async () => {
  await using fixture = await remoteFixture();
  await using d = await daemonFor(fixture, { callTimeoutMs: 300 });
  const error = await d.daemon.call("remote", "hang", {}, {}).then(
    () => assert.fail("expected a timeout"),
    (e) => e,
  );
  assert.ok(error instanceof TimeoutError, String(error));
  assert.equal(error.bound, "callTimeout");
  assert.equal(fixture.ran.get("tools/call:hang"), 1, "not retried");
  // It says what is known: a cancellation was sent, and the server may still finish the call
  // (issue 24: "the request was cancelled" was printed for a call that then completed).
  assert.match(error.message, /did not answer within 300 ms \(callTimeout\)/);
  assert.match(error.message, /sent the server a cancellation, but the server may still finish/);
  assert.doesNotMatch(error.message, /the request was cancelled/);
});

Deno.test("Daemon.call() stopped by the caller's signal is no timeout", async () => {
  await using fixture = await remoteFixture();
  await using d = await daemonFor(fixture);
  const abort = new AbortController();
  const call = d.daemon.call("remote", "hang", {}, {}, { signal: abort.signal });
  while (!fixture.ran.get("tools/call:hang")) await new Promise((r) => setTimeout(r, 10));
  abort.abort();
  const error = await call.then(() => assert.fail("expected the call to end"), (e) => e);
  assert.ok(!(error instanceof TimeoutError), `not a timeout: ${error}`);
});

Deno.test("Daemon.call() does not retry a 404 to a request that carried no session id", async () => {
  await using fixture = await remoteFixture({ sessions: false });
  await using d = await daemonFor(fixture);
  assert.equal(textOf(await d.daemon.call("remote", "echo", { text: "x" }, {})), "x");
  // A stateless server (no session id) that answers 404, "Session not found", lost no session.
  const error = await d.daemon.call("remote", "gone", {}, {}).then(
    () => assert.fail("expected the server's error"),
    (e) => e,
  );
  assert.ok(error instanceof ServerError, String(error));
  assert.ok(!(error instanceof SessionLostError), String(error));
  assert.match(error.message, /HTTP 404/);
  assert.equal(fixture.ran.get("tools/call:gone"), 1, "the call was not sent again");
});

Deno.test("Daemon.call() does not reuse a remote connection that was refused", async () => {
  const fixture = await remoteFixture();
  await using d = await daemonFor(fixture);
  try {
    assert.equal(textOf(await d.daemon.call("remote", "echo", { text: "x" }, {})), "x");
  } finally {
    await fixture[Symbol.asyncDispose](); // nothing listens on its port now
  }
  await assert.rejects(() => d.daemon.call("remote", "echo", { text: "y" }, {}), ServerError);
  assert.deepEqual(d.daemon.status()[0].instances, [], "the failed connection was closed");
});

Deno.test("Daemon.call() keeps a server's multi-line error whole, indented under its first line", async () => {
  await using fixture = await remoteFixture();
  await using d = await daemonFor(fixture);
  // The SDK's own validation of a result it refuses: a JSON list of issues over many lines.
  const error = await d.daemon.call("remote", "invalid", {}, {}).then(
    () => assert.fail("expected the SDK to refuse the result"),
    (e) => e,
  );
  assert.ok(error instanceof ServerError, String(error));
  const [first, ...rest] = error.message.split("\n");
  assert.match(first, /^remote\.invalid: Invalid result for tools\/call: \[$/);
  assert.ok(rest.length > 3, `more than its first line: ${JSON.stringify(error.message)}`);
  assert.match(error.message, /"code": "invalid_union"/, "the issues themselves are kept");
  for (const line of rest) assert.match(line, /^ {2}/, "each further line is indented");
  assert.ok(error.message.length <= 4096 + 200, "bounded");
  assert.match(error.message, /\n {2}… \d+ more lines \(\d+ bytes\) cut$/, "says what was cut");
});
