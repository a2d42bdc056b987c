import assert from "node:assert/strict";
import { Daemon } from "../engine/engine.ts";
import { serveDaemon } from "./http.ts";
import { requestDaemon } from "../wire/daemon_request.ts";
import { McpxError } from "../core/errors.ts";

Deno.test("serveDaemon() refuses every request but health, unrun, once the daemon is stopping", async () => {
  const dir = await Deno.makeTempDir();
  const daemon = new Daemon({
    config: { path: null, realPath: null, fingerprint: "0".repeat(16), servers: [], document: {} },
    cachePath: `${dir}/schemas.json`,
    sessionsPath: `${dir}/sessions.json`,
    mode: "foreground",
    env: {},
  });
  let stops = 0;
  const server = await serveDaemon(daemon, `${dir}/d.sock`, () => stops++);
  try {
    daemon.stopping = true;
    const refused = await requestDaemon(`${dir}/d.sock`, "stop", {}).then(
      () => assert.fail("expected a refusal"),
      (e) => e,
    );
    assert.ok(refused instanceof McpxError);
    assert.equal(refused.code, "daemon-stopping");
    assert.match(refused.message, /nothing was run/);
    assert.equal(stops, 0, "the refused stop did not run");
    const health = await requestDaemon<{ stopping: boolean }>(`${dir}/d.sock`, "health", {});
    assert.equal(health.stopping, true);
  } finally {
    await server.shutdown();
    await daemon.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("okBody() and toWireError() show secrets as references, except in a server's successful answer", async () => {
  const { okBody, toWireError } = await import("./http.ts");
  const { OPERATIONS } = await import("../ops/daemon_ops.ts");
  const { Redactor } = await import("../core/redact.ts");
  const { ServerError } = await import("../core/errors.ts");
  const r = new Redactor([{ value: "sk-live-123456", reference: "${API_TOKEN}" }]);
  const answer = { content: [{ type: "text", text: "the token is sk-live-123456" }] };
  assert.deepEqual(okBody(OPERATIONS.call, answer, {}, r).result, answer, "data passes unchanged");
  const failed = { ...answer, isError: true };
  assert.equal(
    JSON.stringify(okBody(OPERATIONS.call, failed, {}, r).result),
    JSON.stringify({ ...failed, content: [{ type: "text", text: "the token is ${API_TOKEN}" }] }),
  );
  const rows = [{ failure: { message: "got sk-live-123456", stderrTail: "sk-live-123456\n" } }];
  assert.deepEqual(okBody(OPERATIONS.status, rows, {}, r).result, [
    { failure: { message: "got ${API_TOKEN}", stderrTail: "${API_TOKEN}\n" } },
  ]);
  const wire = toWireError(
    new ServerError("api", "refused sk-live-123456", { stderrTail: "token sk-live-123456" }),
    r,
  );
  assert.deepEqual(wire, {
    code: "server",
    message: "refused ${API_TOKEN}",
    stderrTail: "token ${API_TOKEN}",
  });
});

Deno.test("serveDaemon() answers not-found for an operation named like an Object member", async () => {
  const dir = await Deno.makeTempDir();
  const daemon = new Daemon({
    config: { path: null, realPath: null, fingerprint: "0".repeat(16), servers: [], document: {} },
    cachePath: `${dir}/schemas.json`,
    sessionsPath: `${dir}/sessions.json`,
    mode: "foreground",
    env: {},
  });
  const server = await serveDaemon(daemon, `${dir}/d.sock`, () => {});
  try {
    for (const name of ["constructor", "toString", "__proto__", "hasOwnProperty"]) {
      const error = await requestDaemon(`${dir}/d.sock`, name, {}).then(
        () => assert.fail(`expected ${name} to be refused`),
        (e) => e,
      );
      assert.ok(error instanceof McpxError, String(error));
      assert.equal(error.code, "not-found", `${name}: ${error.message}`);
    }
  } finally {
    await server.shutdown();
    await daemon.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});
