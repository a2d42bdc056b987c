import assert from "node:assert/strict";
import { parseResponse, requestDaemon } from "./daemon_request.ts";
import { DaemonUnavailableError } from "../errors.ts";

Deno.test("parseResponse() decodes a chunked body with multi-byte characters", () => {
  const body = '{"a":"é"}';
  const size = new TextEncoder().encode(body).length.toString(16);
  const text =
    `HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n${size}\r\n${body}\r\n0\r\n\r\n`;
  assert.deepEqual(parseResponse(text), { status: 200, body });
});

Deno.test("requestDaemon() round-trips through a real unix-socket server", async () => {
  const dir = await Deno.makeTempDir();
  const path = `${dir}/d.sock`;
  const server = Deno.serve({ path, transport: "unix", onListen() {} }, async (req) => {
    const params = await req.json();
    if (params.fail) return Response.json({ ok: false, error: { code: "usage", message: "bad" } });
    return Response.json({ ok: true, result: { echo: params.x, path: new URL(req.url).pathname } });
  });
  try {
    assert.deepEqual(await requestDaemon(path, "live", { x: "héllo" }), {
      echo: "héllo",
      path: "/v1/live",
    });
    await assert.rejects(() => requestDaemon(path, "live", { fail: true }), /bad/);
  } finally {
    await server.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("requestDaemon() reports a missing daemon as DaemonUnavailableError", async () => {
  await assert.rejects(
    () => requestDaemon("/nonexistent/mcpx.sock", "health", {}),
    DaemonUnavailableError,
  );
});
