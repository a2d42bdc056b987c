/**
 * Pages of `mcpx serve`'s lists (MCP 2025-11-25, "Pagination"): a list
 * longer than a page answers its first page and a `nextCursor`; the client
 * sends that cursor back for the next. The cursor is opaque to the client
 * (base64url of a small JSON record naming the list and the offset) and
 * checked on the way back: a cursor serve did not make, or made for another
 * list, is refused as invalid params (-32602), never read as the first page
 * (decision 0050).
 *
 * @module
 */

/** How many entries one page of a serve list holds. */
export const SERVE_PAGE_SIZE = 50;

/** A cursor that is not one this list handed out. */
export class CursorError extends Error {
  override name = "CursorError";
  /** JSON-RPC invalid params, as MCP asks for an invalid cursor. */
  readonly code = -32602;
}

/**
 * The page of `items` at `cursor`.
 *
 * @param list The list's method (`tools/list`): a cursor made for another list is refused.
 * @param cursor The client's cursor; undefined for the first page.
 * @param size Entries a page, at least 1.
 * @returns The page's entries, and the cursor of the next page when there is one.
 * @throws {CursorError} for a cursor this list did not hand out, or one past its end.
 */
export function pageOf<T>(
  list: string,
  items: readonly T[],
  cursor: string | undefined,
  size = SERVE_PAGE_SIZE,
): { items: T[]; nextCursor?: string } {
  const from = cursor === undefined ? 0 : offsetOf(list, cursor, items.length);
  const end = from + Math.max(1, size);
  return {
    items: items.slice(from, end),
    ...(end < items.length ? { nextCursor: cursorOf(list, end) } : {}),
  };
}

function cursorOf(list: string, offset: number): string {
  // The list names are ASCII method names, so btoa takes the JSON as it is.
  return btoa(JSON.stringify({ list, offset })).replaceAll("+", "-").replaceAll("/", "_")
    .replace(/=+$/, "");
}

function offsetOf(list: string, cursor: string, length: number): number {
  let record: { list?: unknown; offset?: unknown } | undefined;
  try {
    record = JSON.parse(atob(cursor.replaceAll("-", "+").replaceAll("_", "/")));
  } catch {
    record = undefined;
  }
  const offset = record?.offset;
  if (
    record?.list !== list || typeof offset !== "number" || !Number.isInteger(offset) ||
    offset < 1 || offset >= length
  ) {
    throw new CursorError(
      `${list}: cursor ${JSON.stringify(cursor)} is not one this list handed out (or the list ` +
        "has changed since); list again without a cursor",
    );
  }
  return offset;
}
