import assert from "node:assert/strict";
import * as serveCommand from "./serve.ts";
import type { CliContext } from "../context.ts";
import { memoryIo } from "../../core/io.ts";
import { UsageError } from "../../core/errors.ts";

Deno.test("handle() refuses --address or --port without --http, and a --port that is no port, before serving", async (t) => {
  const io = memoryIo();
  const ctx = { io } as unknown as CliContext;
  const cases: [string, Record<string, unknown>, RegExp][] = [
    ["--port alone", { port: "8080" }, /--port is for --http; add --http/],
    ["--address alone", { address: "0.0.0.0" }, /--address is for --http/],
    ["--port 70000", { http: true, port: "70000" }, /--port takes a port number .*"70000"/],
  ];
  for (const [name, input, message] of cases) {
    await t.step(name, async () => {
      await assert.rejects(
        serveCommand.handle(ctx, input as Parameters<typeof serveCommand.handle>[1]),
        (error) => error instanceof UsageError && message.test(error.message),
      );
    });
  }
  assert.equal(io.stdout + io.stderr, "");
});
