import assert from "node:assert/strict";
import { lastFailure } from "./cache_entry.ts";

Deno.test("lastFailure() reports a failure only when it is newer than the last listing", () => {
  const error = { message: "boom", at: "2026-01-02T00:00:00Z" };
  assert.equal(lastFailure(undefined), undefined);
  assert.equal(lastFailure({ tools: [], error }), error, "never listed");
  assert.equal(lastFailure({ tools: [], error, listedAt: "2026-01-01T00:00:00Z" }), error);
  assert.equal(lastFailure({ tools: [], error, listedAt: "2026-01-03T00:00:00Z" }), undefined);
});
