import assert from "node:assert/strict";
import { CursorError, pageOf } from "./serve_pages.ts";

Deno.test("pageOf() walks a list a page at a time with opaque cursors", () => {
  const items = Array.from({ length: 7 }, (_, i) => i);
  const seen: number[] = [];
  let cursor: string | undefined;
  let pages = 0;
  do {
    const page = pageOf("tools/list", items, cursor, 3);
    seen.push(...page.items);
    cursor = page.nextCursor;
    pages++;
    if (cursor) assert.doesNotMatch(cursor, /[+/=]/, "the cursor is URL-safe");
  } while (cursor);
  assert.deepEqual(seen, items);
  assert.equal(pages, 3);
  assert.deepEqual(pageOf("tools/list", items, undefined), { items }, "one page: no cursor");
});

Deno.test("pageOf() refuses a cursor it did not make, made for another list, or past the end", () => {
  const items = [1, 2, 3, 4];
  const next = pageOf("tools/list", items, undefined, 2).nextCursor!;
  assert.deepEqual(pageOf("tools/list", items, next, 2).items, [3, 4]);
  for (
    const [list, cursor, length] of [
      ["tools/list", "not-a-cursor", 4],
      ["prompts/list", next, 4],
      ["tools/list", next, 2],
      ["tools/list", btoa(JSON.stringify({ list: "tools/list", offset: 0 })), 4],
    ] as const
  ) {
    assert.throws(
      () => pageOf(list, items.slice(0, length), cursor, 2),
      (e) =>
        e instanceof CursorError && e.code === -32602 &&
        /list again without a cursor/.test(e.message),
      `${list} ${cursor}`,
    );
  }
});
