import assert from "node:assert/strict";
import { sseResponse } from "./sse_response.ts";

/** Items numbered from 1, counting how many were taken. */
function counted(): {
  items: AsyncIterable<{ id: string; kind: string }>;
  taken: () => number;
  ended: () => boolean;
} {
  let taken = 0;
  let ended = false;
  return {
    items: (async function* () {
      try {
        for (;;) yield { id: `e-${++taken}`, kind: "call.finished" };
      } finally {
        ended = true;
      }
    })(),
    taken: () => taken,
    ended: () => ended,
  };
}

Deno.test("sseResponse() takes an item only when the reader takes the one before: a stalled reader holds nothing", async () => {
  const source = counted();
  const response = sseResponse(source.items);
  assert.equal(response.headers.get("content-type"), "text/event-stream; charset=utf-8");
  const reader = response.body!.getReader();
  const first = new TextDecoder().decode((await reader.read()).value);
  assert.equal(
    first,
    'id: e-1\nevent: call.finished\ndata: {"id":"e-1","kind":"call.finished"}\n\n',
  );
  // The reader stops: however long it waits, at most the next item has been taken.
  await Promise.resolve();
  assert.ok(source.taken() <= 2, `taken ${source.taken()}`);
  await reader.read();
  assert.ok(source.taken() <= 3);
  await reader.cancel();
  assert.equal(source.ended(), true, "a reader that leaves ends the items");
});

Deno.test("sseResponse() sends a heartbeat comment while no item comes, then the item", async () => {
  const { promise: item, resolve } = Promise.withResolvers<void>();
  let cancelled = false;
  const items = (async function* () {
    await item;
    yield { id: "e-1", kind: "gap", data: { secret: "s3cr3t" } };
  })();
  const response = sseResponse(items, {
    heartbeatMs: 5,
    redact: (value) => JSON.parse(JSON.stringify(value).replace("s3cr3t", "${TOKEN}")),
    onCancel: () => cancelled = true,
  });
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  assert.equal(decoder.decode((await reader.read()).value), ": heartbeat\n\n");
  resolve();
  let text = "";
  while (!text.includes("data:")) text += decoder.decode((await reader.read()).value);
  assert.match(text, /event: gap\ndata: .*"\$\{TOKEN\}"/);
  assert.equal((await reader.read()).done, true, "the items ended: so does the stream");
  assert.equal(cancelled, false);
});
