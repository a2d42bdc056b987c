import assert from "node:assert/strict";
import { requestDaemon } from "./daemon_request.ts";
import { DaemonLostError, DaemonUnavailableError } from "../core/errors.ts";

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

Deno.test("requestDaemon() reports a connection lost after the call was written as DaemonLostError", async () => {
  const dir = await Deno.makeTempDir();
  const listener = Deno.listen({ transport: "unix", path: `${dir}/d.sock` });
  const peer = (async () => {
    const conn = await listener.accept();
    await conn.read(new Uint8Array(4096));
    conn.close(); // as a daemon killed in the middle of the call
  })();
  try {
    const error = await requestDaemon(`${dir}/d.sock`, "call", {
      target: "fx.count",
      arguments: {},
    }, { daemonPid: () => 4242 }).then(() => assert.fail("expected a failure"), (e) => e);
    assert.ok(error instanceof DaemonLostError, String(error));
    assert.ok(!(error instanceof DaemonUnavailableError), "a lost call is never 'unavailable'");
    assert.equal(error.code, "daemon-lost");
    assert.equal(error.pid, 4242);
    assert.equal(error.tool, "fx.count");
    assert.match(error.message, /pid 4242/);
    assert.match(error.message, /fx\.count/);
    assert.match(error.message, /may or may not have run/);
    assert.match(error.message, /not retried/);
  } finally {
    await peer;
    listener.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("requestDaemon() passes the trace of a traced call to onTrace", async () => {
  const dir = await Deno.makeTempDir();
  const path = `${dir}/d.sock`;
  const trace = {
    target: "fx.echo",
    server: "fx",
    pid: 7,
    key: "global",
    instance: "ins-1",
    call: "cal-1",
  };
  const server = Deno.serve(
    { path, transport: "unix", onListen() {} },
    () => Response.json({ ok: true, result: 1, trace }),
  );
  try {
    const seen: unknown[] = [];
    assert.equal(await requestDaemon(path, "call", {}, { onTrace: (t) => seen.push(t) }), 1);
    assert.deepEqual(seen, [trace]);
  } finally {
    await server.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("requestDaemon() rebuilds the daemon's error from its code and fields, never its message", async () => {
  const { TimeoutError, UsageError, NotFoundError, McpxError } = await import("../core/errors.ts");
  const dir = await Deno.makeTempDir();
  const path = `${dir}/d.sock`;
  const server = Deno.serve({ path, transport: "unix", onListen() {} }, async (req) => {
    const { answer } = await req.json();
    return new Response(typeof answer === "string" ? answer : JSON.stringify(answer));
  });
  const failure = (answer: unknown) =>
    requestDaemon(path, "call", { answer }).then(() => assert.fail("expected a failure"), (e) => e);
  try {
    const timeout = await failure({
      ok: false,
      // The message says nothing of the bound: the fields carry it.
      error: { code: "timeout", message: "slow", ms: 250, bound: "leaseTimeout", setting: "x.y" },
    });
    assert.ok(timeout instanceof TimeoutError);
    assert.deepEqual([timeout.ms, timeout.bound, timeout.setting], [250, "leaseTimeout", "x.y"]);
    const usage = await failure({ ok: false, error: { code: "usage", message: "bad field" } });
    assert.ok(usage instanceof UsageError, "exit code 2, as on the command line");
    const missing = await failure({
      ok: false,
      error: { code: "not-found", message: "no tool", suggestions: ["a.b"] },
    });
    assert.ok(missing instanceof NotFoundError);
    assert.deepEqual(missing.suggestions, ["a.b"]);
    const other = await failure({ ok: false, error: { code: "lease-deadlock", message: "m" } });
    assert.ok(other instanceof McpxError);
    assert.equal(other.code, "lease-deadlock");
    for (const answer of ["<html>", { result: 1 }]) {
      const error = await failure(answer);
      assert.equal(error.code, "daemon-protocol", JSON.stringify(answer));
    }
  } finally {
    await server.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});
