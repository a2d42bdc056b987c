import assert from "node:assert/strict";
import { SdkError, SdkErrorCode } from "@modelcontextprotocol/client";
import { isConnectionFailure, remoteTransport, SessionNotFoundError } from "./remote_transport.ts";
import { remoteFixture, remoteSpec } from "./_remote_fixture.ts";

const initialize = {
  jsonrpc: "2.0" as const,
  id: 1,
  method: "initialize",
  params: {
    protocolVersion: "2025-06-18",
    capabilities: {},
    clientInfo: { name: "test", version: "0" },
  },
};
const ping = { jsonrpc: "2.0" as const, id: 2, method: "ping" };

/** A port nothing listens on. */
function closedPort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const { port } = listener.addr as Deno.NetAddr;
  listener.close();
  return port;
}

Deno.test("isConnectionFailure() is true for a request that got no HTTP answer, whatever an error's text says", async () => {
  const transport = remoteTransport(remoteSpec(`http://127.0.0.1:${closedPort()}/mcp`));
  await transport.start();
  try {
    const refused = await transport.send(initialize).then(
      () => assert.fail("expected the connection to be refused"),
      (e) => e,
    );
    assert.equal(isConnectionFailure(refused), true, String(refused));
    assert.equal(isConnectionFailure(new Error("outer", { cause: refused })), true);
  } finally {
    await transport.close();
  }
  assert.equal(isConnectionFailure(new SdkError(SdkErrorCode.ConnectionClosed, "closed")), true);
  for (const text of ["fetch failed", "ECONNREFUSED", "connection reset", "socket hang up"]) {
    assert.equal(isConnectionFailure(new Error(text)), false, text);
  }
});

Deno.test("remoteTransport() fails a request whose session the server forgot with SessionNotFoundError", async () => {
  await using fixture = await remoteFixture({ unknownSessionStatus: 404 });
  const transport = remoteTransport(remoteSpec(fixture.url));
  await transport.start();
  try {
    await transport.send(initialize);
    fixture.forget();
    const error = await transport.send(ping).then(() => assert.fail("expected 404"), (e) => e);
    assert.ok(error instanceof SessionNotFoundError, String(error));
    assert.equal(error.status, 404);
    assert.equal(error.sessionId, "s1");
    assert.equal(isConnectionFailure(error), false);
  } finally {
    await transport.close();
  }
});

Deno.test("remoteTransport() leaves a 404 to a request without a session id as the SDK's HTTP error", async () => {
  await using fixture = await remoteFixture({ sessions: false });
  const transport = remoteTransport(remoteSpec(fixture.url));
  await transport.start();
  try {
    await transport.send(initialize);
    const call = { jsonrpc: "2.0" as const, id: 3, method: "tools/call", params: { name: "gone" } };
    const error = await transport.send(call).then(() => assert.fail("expected 404"), (e) => e);
    assert.ok(!(error instanceof SessionNotFoundError), String(error));
    assert.equal((error as { status?: number }).status, 404);
  } finally {
    await transport.close();
  }
});
