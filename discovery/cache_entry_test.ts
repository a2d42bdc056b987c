import assert from "node:assert/strict";
import { failedListing, lastFailure, listingRetryDue, listingRetryMs } from "./cache_entry.ts";

Deno.test("lastFailure() reports a failure only when it is newer than the last listing", () => {
  const error = { message: "boom", at: "2026-01-02T00:00:00Z" };
  assert.equal(lastFailure(undefined), undefined);
  assert.equal(lastFailure({ error }), error, "never listed");
  assert.equal(lastFailure({ error, listedAt: "2026-01-01T00:00:00Z" }), error);
  assert.equal(lastFailure({ error, listedAt: "2026-01-03T00:00:00Z" }), undefined);
});

Deno.test("failedListing() counts failures in a row and sets when discovery may retry", () => {
  const t0 = Date.parse("2026-01-01T00:00:00Z");
  const first = failedListing(undefined, { message: "boom", stderr: "tail" }, t0);
  assert.deepEqual(first, {
    message: "boom",
    at: "2026-01-01T00:00:00.000Z",
    stderr: "tail",
    count: 1,
    retryAt: "2026-01-01T00:00:30.000Z",
  });
  const second = failedListing({ tools: [], error: first }, { message: "boom" }, t0 + 40_000);
  assert.equal(second.count, 2);
  assert.equal(Date.parse(second.retryAt!) - Date.parse(second.at), 60_000);
  // A success after the failure starts the count again.
  const listed = { tools: [], error: first, listedAt: "2026-01-01T00:01:00Z" };
  assert.equal(failedListing(listed, { message: "x" }, t0 + 120_000).count, 1);
  assert.equal(listingRetryMs(100), 30 * 60_000, "capped at 30 min");
});

Deno.test("listingRetryDue() is false until retryAt, and reads an entry without one as 30 s", () => {
  const failure = failedListing(undefined, { message: "boom" }, 1_000_000);
  assert.equal(listingRetryDue(failure, 1_000_000 + 29_999), false);
  assert.equal(listingRetryDue(failure, 1_000_000 + 30_000), true);
  const old = { message: "boom", at: new Date(1_000_000).toISOString() };
  assert.equal(listingRetryDue(old, 1_000_000 + 1_000), false);
  assert.equal(listingRetryDue(old, 1_000_000 + 31_000), true);
});
