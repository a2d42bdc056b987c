import assert from "node:assert/strict";
import { type FailedOn, requestFailure } from "./request_failure.ts";
import type { ServerSpec } from "../config/types.ts";

function instance(): FailedOn {
  return {
    spec: { name: "fx", namespace: "fx", transport: "stdio" } as ServerSpec,
    closed: false,
    stderrTail: "",
    lastError: "earlier",
    close: () => Promise.resolve(),
    exitSettled: () => Promise.resolve(),
  };
}

Deno.test("requestFailure() keeps the server's last error when the caller cancelled", async () => {
  const cancelled = new AbortController();
  cancelled.abort();
  const on = instance();
  const abort = new DOMException("The request has been cancelled.", "AbortError");
  await requestFailure(on, "fx.slow", abort, 1000, cancelled.signal);
  assert.equal(on.lastError, "earlier", "a cancellation became the server's last error");
  const failed = instance();
  await requestFailure(failed, "fx.slow", new Error("boom"), 1000);
  assert.match(failed.lastError ?? "", /boom/);
});
