import assert from "node:assert/strict";
import { bearerMatches } from "./bearer_token.ts";

Deno.test("bearerMatches() accepts exactly `Bearer <token>`", () => {
  assert.equal(bearerMatches("Bearer abc123", "abc123"), true);
  assert.equal(bearerMatches("bearer   abc123", "abc123"), true);
  for (
    const header of [null, "", "Bearer", "Bearer abc12", "Bearer abc1234", "Basic abc123", "abc123"]
  ) {
    assert.equal(bearerMatches(header, "abc123"), false, String(header));
  }
});

Deno.test("bearerMatches() refuses to compare against an empty token", () => {
  assert.throws(() => bearerMatches("Bearer ", ""), TypeError);
});
