import assert from "node:assert/strict";
import type { Daemon } from "../engine/engine.ts";
import { emptyDaemon } from "../engine/_empty_daemon.ts";
import { serveDaemon } from "./http.ts";
import { requestDaemon } from "../wire/daemon_request.ts";
import { McpxError, UsageError } from "../core/errors.ts";

Deno.test("serveDaemon() refuses every request but health, unrun, once the daemon is stopping", async () => {
  const { daemon, dir } = await emptyDaemon();
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
  const { ROUTE_SPECS } = await import("../ops/daemon_ops.ts");
  const { Redactor } = await import("../core/redact.ts");
  const { ServerError } = await import("../core/errors.ts");
  const r = new Redactor([{ value: "sk-live-123456", reference: "${API_TOKEN}" }]);
  const answer = { content: [{ type: "text", text: "the token is sk-live-123456" }] };
  assert.deepEqual(okBody(ROUTE_SPECS.call, answer, {}, r).result, answer, "data passes unchanged");
  const failed = { ...answer, isError: true };
  assert.equal(
    JSON.stringify(okBody(ROUTE_SPECS.call, failed, {}, r).result),
    JSON.stringify({ ...failed, content: [{ type: "text", text: "the token is ${API_TOKEN}" }] }),
  );
  const rows = [{ failure: { message: "got sk-live-123456", stderrTail: "sk-live-123456\n" } }];
  assert.deepEqual(okBody(ROUTE_SPECS.status, rows, {}, r).result, [
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
  const { daemon, dir } = await emptyDaemon();
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

async function withDaemon(
  test: (daemon: Daemon, socket: string) => Promise<void>,
): Promise<void> {
  const { daemon, dir } = await emptyDaemon();
  const server = await serveDaemon(daemon, `${dir}/d.sock`, () => {});
  try {
    await test(daemon, `${dir}/d.sock`);
  } finally {
    await server.shutdown();
    await daemon.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
}

async function refusal(socket: string, route: string, body: Record<string, unknown>) {
  return await requestDaemon(socket, route, body).then(
    () => assert.fail(`expected ${route} ${JSON.stringify(body)} to be refused`),
    (e) => e,
  );
}

Deno.test("serveDaemon() refuses a call whose body has a wrong-typed field with a usage error, unrun", async () => {
  await withDaemon(async (daemon, socket) => {
    let ran = 0;
    daemon.call = () => {
      ran++;
      return Promise.resolve({ content: [] });
    };
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ target: "fs.read", timeout: "soon" }, /"timeout" .*"soon"/],
      [{ target: "fs.read", timeout: 0 }, /"timeout" /],
      [{ target: 5 }, /"target" must be a string, got 5/],
      [{ target: "fs.read", arguments: [1] }, /"arguments" must be a JSON object/],
      [{ arguments: {} }, /"target" is missing/],
      [{ target: "fs.read", pid: "1" }, /"pid" must be a number, got "1"/],
      [
        { target: "fs.read", selection: { profiles: [1] } },
        /"selection\.profiles\[0\]" must be a string, got 1/,
      ],
    ];
    for (const [body, message] of cases) {
      const error = await refusal(socket, "call", body);
      assert.ok(error instanceof UsageError, String(error));
      assert.equal(error.code, "usage");
      assert.match(error.message, /^the "call" request's /);
      assert.match(error.message, message);
      assert.match(error.message, /nothing was run$/);
    }
    assert.equal(ran, 0, "the handler never ran");
    // The name is split where it is resolved: a name with no tool calls nothing.
    await assert.rejects(
      requestDaemon(socket, "call", { target: "fs" }),
      (e: unknown) => e instanceof UsageError && /"fs" is not <namespace>\.<tool>/.test(e.message),
    );
    assert.equal(ran, 0, "the malformed name called nothing");
    // A valid body reaches the handler.
    await requestDaemon(socket, "call", { target: "fs.read", timeout: 5 });
    assert.equal(ran, 1);
  });
});

Deno.test("serveDaemon() refuses a sessionNew whose body has a wrong-typed field with a usage error, unrun", async () => {
  await withDaemon(async (daemon, socket) => {
    let ran = 0;
    const real = daemon.sessionNew.bind(daemon);
    daemon.sessionNew = (...args) => {
      ran++;
      return real(...args);
    };
    for (
      const [body, message] of [
        [{ ttlMs: "30m" }, /"ttlMs" must be a number, got "30m"/],
        [{ name: 7 }, /"name" must be a string, got 7/],
        [{ name: "" }, /"name" must not be empty, got ""/],
        [{ ttlMs: 0 }, /"ttlMs" must be at least 1, got 0/],
        [{ ttlMs: 1.5 }, /"ttlMs" must be a whole number, got 1\.5/],
      ] as [Record<string, unknown>, RegExp][]
    ) {
      const error = await refusal(socket, "sessionNew", body);
      assert.ok(error instanceof UsageError, String(error));
      assert.match(error.message, /^the "sessionNew" request's /);
      assert.match(error.message, message);
    }
    assert.equal(ran, 0, "the handler never ran");
    assert.deepEqual(await requestDaemon(socket, "sessionList", {}), []);
    const made = await requestDaemon<{ name: string }>(socket, "sessionNew", { name: "ok" });
    assert.equal(made.name, "ok");
    assert.equal(ran, 1);
  });
});

Deno.test("serveDaemon() answers a refused body with HTTP 400 and the usage error body", async () => {
  await withDaemon(async (_daemon, socket) => {
    const { encodeRequest, exchangeRequest } = await import("../wire/wire.ts");
    const { readAnswer } = await import("../wire/answer.ts");
    for (const text of ['{"ttlMs":"x"}', "{not json", "[1]"]) {
      const response = await exchangeRequest(socket, encodeRequest("sessionNew", text));
      assert.equal(response.status, 400, text);
      const answer = readAnswer(response.body);
      assert.equal(answer?.ok, false);
      assert.equal(answer?.error?.code, "usage", text);
      assert.match(answer!.error!.message, /nothing was run/);
    }
  });
});

Deno.test("a caller's limit past the timer limit is refused on every way in, and the header names itself", async () => {
  await withDaemon(async (daemon, socket) => {
    const seen: unknown[] = [];
    daemon.call = (_ns, _tool, _args, _caller, options) => {
      seen.push([options?.timeoutMs, options?.timeoutSetting]);
      return Promise.resolve({ content: [] });
    };
    // A timer given more than 2^31-1 ms fires at once: such a limit must never reach one.
    for (const timeout of [2 ** 31, 1e10, "30d", 1.5, 0, "soon"]) {
      const error = await refusal(socket, "call", { target: "fs.read", timeout });
      assert.ok(error instanceof UsageError, `${timeout}: ${error}`);
      assert.match(error.message, /"timeout"/);
    }
    assert.match(
      (await refusal(socket, "call", { target: "fs.read", timeout: 2 ** 31 })).message,
      /longer than the limit of 24d \(2073600000 ms\)/,
    );
    const { exchangeRequest } = await import("../wire/wire.ts");
    const byPath = async (ms: string) => {
      const request = "POST /v1/call/fs/read HTTP/1.1\r\nhost: mcpx\r\n" +
        `content-type: application/json\r\nx-mcpx-timeout-ms: ${ms}\r\n` +
        "content-length: 2\r\nconnection: close\r\n\r\n{}";
      return await exchangeRequest(socket, new TextEncoder().encode(request));
    };
    const tooLong = await byPath("2147483648");
    assert.equal(tooLong.status, 400, tooLong.body);
    assert.match(tooLong.body, /longer than the limit/);
    assert.deepEqual(seen, [], "nothing ran");
    assert.equal((await byPath("1000")).status, 200);
    assert.deepEqual(seen, [[1000, "X-Mcpx-Timeout-Ms"]]);
  });
});
