/**
 * Following a paginated MCP listing (`tools/list`, `prompts/list`,
 * `resources/list`, `resources/templates/list`: MCP 2025-11-25, "Pagination")
 * within bounds, in one loop every listing shares. A server decides how many
 * pages it sends and what each cursor is; mcpx decides how much of that it
 * will hold: at most `listing.maxPages` pages and `listing.maxItems` entries
 * per listing, each answer at most `response.maxBytes` bytes (as JSON), and a
 * cursor the server already sent ends the listing with an error rather than
 * a loop (spec 002's pagination bounds; decision 0032).
 *
 * @module
 */

import { jsonByteLength } from "../core/json_stream.ts";
import { ServerError } from "../core/errors.ts";
import { SETTINGS } from "../config/settings.ts";

/** The bounds of one listing (settings `listing.maxPages`, `listing.maxItems`, `response.maxBytes`). */
export interface PageLimits {
  /** Most pages followed, ≥ 1. */
  maxPages: number;
  /** Most entries kept over every page, ≥ 1. */
  maxItems: number;
  /** Most bytes of one answer, measured as its JSON text (UTF-8). */
  maxResponseBytes: number;
}

function defaultOf(name: string): number {
  return Number(SETTINGS.find((s) => s.name === name)!.default);
}

/** The settings' defaults: 1,000 pages, 100,000 entries, 16 MiB per answer. */
export const DEFAULT_PAGE_LIMITS: Readonly<PageLimits> = {
  maxPages: defaultOf("listing.maxPages"),
  maxItems: defaultOf("listing.maxItems"),
  maxResponseBytes: defaultOf("response.maxBytes"),
};

/** One page as a listing reads it: its entries and the cursor of the next, if any. */
export interface Page<T> {
  items: T[];
  nextCursor?: string;
}

/** Who is listed, for errors: the server's name and the MCP method. */
export interface ListingAbout {
  server: string;
  method: string;
}

/**
 * Refuses an answer larger than `limits.maxResponseBytes`.
 *
 * @param about The server and method, named in the error.
 * @param answer The answer as the SDK parsed it.
 * @returns Its size in bytes (as JSON).
 * @throws {ServerError} naming the server, the method, the size and the setting.
 */
export function checkResponseSize(
  about: ListingAbout,
  answer: unknown,
  limits: Pick<PageLimits, "maxResponseBytes">,
): number {
  const bytes = jsonByteLength(answer);
  if (bytes > limits.maxResponseBytes) {
    throw new ServerError(
      about.server,
      `server "${about.server}": the answer to ${about.method} is ${bytes} bytes, more than ` +
        `response.maxBytes (${limits.maxResponseBytes}); raise that setting to accept it`,
    );
  }
  return bytes;
}

/**
 * Fetches every page of one listing and joins their entries.
 *
 * @param about The server and method, named in every error.
 * @param fetchPage Asks the server for the page at `cursor` (undefined: the first).
 * @param readPage Reads one answer into entries and the next cursor; throws
 *   for an answer of the wrong shape.
 * @param limits The bounds; default {@link DEFAULT_PAGE_LIMITS}.
 * @returns Every entry, in page order.
 * @throws {ServerError} when an answer is larger than `maxResponseBytes`, the
 *   server sends a cursor it sent before (naming the page that repeated it and
 *   the page that first sent it), more than `maxPages` pages, or more than
 *   `maxItems` entries (naming the setting that raises the bound); what
 *   `fetchPage` and `readPage` throw.
 * @example
 * ```ts
 * import { paginate } from "./pagination.ts";
 * const pages: Record<string, { items: number[]; nextCursor?: string }> = {
 *   "": { items: [1, 2], nextCursor: "b" },
 *   b: { items: [3] },
 * };
 * const all = await paginate(
 *   { server: "s", method: "prompts/list" },
 *   (cursor) => Promise.resolve(pages[cursor ?? ""]),
 *   (page) => page as { items: number[]; nextCursor?: string },
 * );
 * if (all.join() !== "1,2,3") throw new Error(all.join());
 * ```
 */
export async function paginate<T>(
  about: ListingAbout,
  fetchPage: (cursor: string | undefined) => Promise<unknown>,
  readPage: (answer: unknown) => Page<T>,
  limits: PageLimits = DEFAULT_PAGE_LIMITS,
): Promise<T[]> {
  const items: T[] = [];
  /** Each cursor the server sent, and the page (1-based) whose answer carried it. */
  const seen = new Map<string, number>();
  let cursor: string | undefined;
  const where = `server "${about.server}": ${about.method}`;
  for (let page = 1;; page++) {
    if (page > limits.maxPages) {
      throw new ServerError(
        about.server,
        `${where} still had more after ${limits.maxPages} pages (listing.maxPages); ` +
          `raise that setting if the server really holds that much`,
      );
    }
    const answer = await fetchPage(cursor);
    checkResponseSize(about, answer, limits);
    const read = readPage(answer);
    if (items.length + read.items.length > limits.maxItems) {
      throw new ServerError(
        about.server,
        `${where} listed more than ${limits.maxItems} entries (listing.maxItems) by page ` +
          `${page}; raise that setting if the server really holds that much`,
      );
    }
    items.push(...read.items);
    cursor = read.nextCursor;
    if (cursor === undefined) return items;
    const first = seen.get(cursor);
    if (first !== undefined) {
      throw new ServerError(
        about.server,
        `${where} sent the same cursor ${JSON.stringify(cursor.slice(0, 80))} on page ${page} ` +
          `as on page ${first}: its pagination would never end, so the listing stopped`,
      );
    }
    seen.set(cursor, page);
  }
}
