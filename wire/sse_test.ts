import assert from "node:assert/strict";
import { encodeSse, sseComment, SseParser } from "./sse.ts";

Deno.test("encodeSse() writes id, event and one data line per line of data, ended by a blank line", () => {
  assert.equal(
    encodeSse({ id: "ab-1", event: "gap", data: "{}" }),
    "id: ab-1\nevent: gap\ndata: {}\n\n",
  );
  assert.equal(encodeSse({ data: "a\nb" }), "data: a\ndata: b\n\n");
  assert.throws(() => encodeSse({ id: "a\nb", data: "" }), /cannot hold a line break/);
});

Deno.test("SseParser reads messages split anywhere, joins data lines, skips comments", () => {
  const text = sseComment("heartbeat") +
    encodeSse({ id: "e-1", event: "call.started", data: '{"seq":1}' }) +
    encodeSse({ data: "x\ny" }) +
    "id:e-3\r\nevent:list.changed\r\ndata:{}\r\n\r\n";
  // Every split point: the messages come out whole, in order, whatever the chunks.
  for (let cut = 0; cut <= text.length; cut++) {
    const parser = new SseParser();
    const messages = [...parser.push(text.slice(0, cut)), ...parser.push(text.slice(cut))];
    assert.deepEqual(messages, [
      { id: "e-1", event: "call.started", data: '{"seq":1}' },
      { data: "x\ny" },
      { id: "e-3", event: "list.changed", data: "{}" },
    ], `cut at ${cut}`);
  }
});
