import assert from "node:assert/strict";
import * as restartCommand from "./restart.ts";
import { runHandler } from "../outcome_render.ts";
import { memoryIo } from "../../core/io.ts";
import type { CliContext } from "../context.ts";
import { UsageError } from "../../core/errors.ts";

/** A context with one namespace `fs` and no daemon running (a socket nobody listens on). */
function fake(sessionFlag?: string) {
  const io = memoryIo();
  const ctx = {
    io,
    env: {},
    sessionFlag,
    namespaces: () =>
      Promise.resolve({ namespaces: [{ namespace: "fs", server: "fs", tools: [] }], disabled: [] }),
    existingDaemonSocket: () => Promise.resolve("/nonexistent/mcpx-test.sock"),
    request: () => Promise.reject(new Error("no daemon should be asked")),
  } as unknown as CliContext;
  return { ctx, io };
}

Deno.test("handle() stops nothing without a daemon, and says which session it meant", async () => {
  const outcome = await restartCommand.handle(fake("s1").ctx, { namespaces: ["fs"] });
  assert.deepEqual(outcome, { kind: "ok", value: { namespace: "fs", session: "s1", stopped: 0 } });
  await assert.rejects(
    restartCommand.handle(fake().ctx, { namespaces: [] }),
    (e: unknown) => e instanceof UsageError,
  );
});

Deno.test("runHandler() prints restart's acknowledgement on one line under --json", async () => {
  const { ctx, io } = fake();
  assert.equal(await runHandler(ctx, restartCommand, { namespaces: ["fs"] }, true), 0);
  assert.equal(io.stdout, '{"namespace":"fs","stopped":0}\n');
  io.stdout = "";
  await runHandler(ctx, restartCommand, { namespaces: ["fs"] }, false);
  assert.equal(io.stdout, "fs: stopped 0 instances; the next call starts a fresh one\n");
  assert.equal(
    restartCommand.text({ namespace: "fs", session: "s1", stopped: 1 }),
    "fs: stopped 1 instance of session s1; its next call starts a fresh one\n",
  );
});
