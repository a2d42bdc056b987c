import assert from "node:assert/strict";
import { checkResponseSize, DEFAULT_PAGE_LIMITS, type Page, paginate } from "./pagination.ts";
import { ServerError } from "../core/errors.ts";

const about = { server: "demo", method: "resources/list" };

/** A server whose pages are `pages`, keyed by cursor ("" for the first). */
function serverOf(pages: Record<string, Page<number>>) {
  const asked: (string | undefined)[] = [];
  return {
    asked,
    fetch: (cursor: string | undefined) => {
      asked.push(cursor);
      return Promise.resolve(pages[cursor ?? ""]);
    },
  };
}
const read = (answer: unknown) => answer as Page<number>;

Deno.test("paginate() joins every page in order and stops at the page without a cursor", async () => {
  const s = serverOf({
    "": { items: [1], nextCursor: "a" },
    a: { items: [2, 3], nextCursor: "b" },
    b: { items: [4] },
  });
  assert.deepEqual(await paginate(about, s.fetch, read), [1, 2, 3, 4]);
  assert.deepEqual(s.asked, [undefined, "a", "b"]);
});

Deno.test("paginate() refuses a repeated cursor, naming the server and both pages", async () => {
  const s = serverOf({
    "": { items: [1], nextCursor: "x" },
    x: { items: [2], nextCursor: "y" },
    y: { items: [3], nextCursor: "x" },
  });
  await assert.rejects(
    paginate(about, s.fetch, read),
    (error: Error) =>
      error instanceof ServerError &&
      /^server "demo": resources\/list sent the same cursor "x" on page 3 as on page 1/.test(
        error.message,
      ),
  );
  assert.equal(s.asked.length, 3, "the repeated cursor is never asked for");
});

Deno.test("paginate() stops after maxPages pages, naming the setting", async () => {
  let n = 0;
  const endless = () => Promise.resolve({ items: [n], nextCursor: `c${++n}` });
  await assert.rejects(
    paginate(about, endless, read, { ...DEFAULT_PAGE_LIMITS, maxPages: 3 }),
    /still had more after 3 pages \(listing\.maxPages\)/,
  );
  assert.equal(n, 3);
});

Deno.test("paginate() stops once the entries pass maxItems, naming the setting and the page", async () => {
  const s = serverOf({ "": { items: [1, 2], nextCursor: "a" }, a: { items: [3, 4] } });
  await assert.rejects(
    paginate(about, s.fetch, read, { ...DEFAULT_PAGE_LIMITS, maxItems: 3 }),
    /more than 3 entries \(listing\.maxItems\) by page 2/,
  );
  assert.deepEqual(await paginate(about, s.fetch, read, { ...DEFAULT_PAGE_LIMITS, maxItems: 4 }), [
    1,
    2,
    3,
    4,
  ]);
});

Deno.test("paginate() refuses a page larger than maxResponseBytes", async () => {
  const s = serverOf({ "": { items: [1, 2, 3] } });
  await assert.rejects(
    paginate(about, s.fetch, read, { ...DEFAULT_PAGE_LIMITS, maxResponseBytes: 10 }),
    /the answer to resources\/list is 17 bytes, more than response\.maxBytes \(10\)/,
  );
});

Deno.test("checkResponseSize() answers the JSON size of what it accepts", () => {
  assert.equal(checkResponseSize(about, { a: "é" }, { maxResponseBytes: 100 }), 10);
});

Deno.test("DEFAULT_PAGE_LIMITS are the settings' defaults", () => {
  assert.deepEqual({ ...DEFAULT_PAGE_LIMITS }, {
    maxPages: 1000,
    maxItems: 100_000,
    maxResponseBytes: 16 * 1024 * 1024,
  });
});
