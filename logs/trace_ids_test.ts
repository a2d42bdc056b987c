import assert from "node:assert/strict";
import { establishedIds, idAttributes, parseTraceIds, withIds } from "./trace_ids.ts";

Deno.test("parseTraceIds() reads pairs, longer entries and repeated keys", () => {
  assert.deepEqual(parseTraceIds(""), {});
  assert.deepEqual(
    parseTraceIds('[["session_id","abc"],["ancestry","p1","p2"],["tag","a"],["tag","b"]]'),
    { session_id: "abc", ancestry: ["p1", "p2"], tag: ["a", "b"] },
  );
});

Deno.test("parseTraceIds() refuses what is not a list of [key, value…] lists, quoting it", () => {
  for (
    const [text, reason] of [
      ["{", /is not JSON .*write a JSON list of \[key, value, …\] lists/],
      ['{"a":"b"}', /must be a JSON list of .*got \{"a":"b"\}/],
      ['[["lonely"]]', /entry \["lonely"\] must be a list of a key and one or more strings/],
      ['[["n",1]]', /entry \["n",1\] must be a list/],
      ['[["a b","x"]]', /has the key "a b"; a key is a word/],
    ] as const
  ) {
    assert.throws(() => parseTraceIds(text), reason, text);
  }
});

Deno.test("idAttributes() names ids id.<key>, and mcpx's own win over the caller's", () => {
  const attrs = idAttributes(
    { session: "forged", worktree: "/p" },
    establishedIds({ session: "real", run: "run-1" }),
  );
  assert.deepEqual(attrs, { "id.session": "real", "id.worktree": "/p", "id.run": "run-1" });
});

Deno.test("withIds() keeps every attribute a record set itself", () => {
  assert.deepEqual(withIds({ "id.x": "mine", n: 1 }, { "id.x": "theirs", "id.y": "y" }), {
    "id.x": "mine",
    "id.y": "y",
    n: 1,
  });
  const attrs = { n: 1 };
  assert.equal(withIds(attrs, undefined), attrs);
});
