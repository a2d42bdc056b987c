import assert from "node:assert/strict";
import * as daemonCommand from "./daemon_cmd.ts";
import type { CliContext } from "../context.ts";
import { memoryIo } from "../../core/io.ts";
import { ConfigError } from "../../core/errors.ts";

Deno.test("handle() refuses a configuration it cannot read before any daemon starts or anything is printed", async () => {
  const io = memoryIo();
  const ctx = {
    io,
    config: () => Promise.reject(new ConfigError(".mcpx.json", "", "not JSON")),
  } as unknown as CliContext;
  await assert.rejects(daemonCommand.handle(ctx), ConfigError);
  assert.equal(io.stdout + io.stderr, "");
});
