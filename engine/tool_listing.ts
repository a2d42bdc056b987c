/**
 * Reading a server's `tools/list` answer leniently: one malformed tool is
 * skipped with a reason instead of making every tool of the server unusable
 * (the SDK's own `listTools()` rejects the whole page).
 *
 * Shapes: MCP 2025-11-25 `ListToolsResult` (`tools`, `nextCursor`) and `Tool`
 * (`name`, `title?`, `description?`, `inputSchema`, `outputSchema?`,
 * `annotations?`, `execution?`).
 *
 * @module
 */

import type { CachedTool, StartingListing, TaskSupport } from "../discovery/types.ts";

/** A tool that was left out, and why. */
export interface SkippedTool {
  name: string;
  reason: string;
}

/** A Standard Schema that accepts any value: validation is done by {@link readTool}. */
export const ANY_RESULT = {
  "~standard": {
    version: 1 as const,
    vendor: "mcpx",
    validate: (value: unknown) => ({ value }),
  },
};

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * One tool from a `tools/list` page, or the reason it cannot be used.
 * A missing `inputSchema` is read as "no arguments" (`{ type: "object" }`).
 */
export function readTool(raw: unknown): CachedTool | SkippedTool {
  if (!isObject(raw)) {
    return { name: "?", reason: `a tool must be an object, got ${JSON.stringify(raw)}` };
  }
  const name = raw.name;
  if (typeof name !== "string" || name === "") {
    return {
      name: String(name ?? "?"),
      reason: `"name" must be a non-empty string, got ${JSON.stringify(name)}`,
    };
  }
  const execution = isObject(raw.execution) ? raw.execution : undefined;
  const taskSupport = TASK_SUPPORT.find((t) => t === execution?.taskSupport);
  const inputSchema = raw.inputSchema ?? { type: "object" };
  if (!isObject(inputSchema)) {
    return {
      name,
      reason: `"inputSchema" must be a JSON Schema object, got ${JSON.stringify(inputSchema)}`,
    };
  }
  return {
    name,
    ...(typeof raw.title === "string" && raw.title ? { title: raw.title } : {}),
    ...(typeof raw.description === "string" && raw.description
      ? { description: raw.description }
      : {}),
    inputSchema,
    ...(isObject(raw.outputSchema) ? { outputSchema: raw.outputSchema } : {}),
    ...(isObject(raw.annotations) ? { annotations: raw.annotations } : {}),
    // Kept only when meaningful: a call of a `required` tool runs as a task (engine/task_call.ts).
    ...(taskSupport && taskSupport !== "forbidden" ? { execution: { taskSupport } } : {}),
  };
}

/** The values of `execution.taskSupport` (MCP 2025-11-25 `ToolExecution`); any other is ignored. */
const TASK_SUPPORT: readonly TaskSupport[] = ["forbidden", "optional", "required"];

/**
 * Sorts one page's tools into usable ones and skipped ones.
 * @throws {TypeError} when the page has no `tools` array.
 */
export function readToolsPage(page: unknown): {
  tools: CachedTool[];
  skipped: SkippedTool[];
  nextCursor?: string;
} {
  if (!isObject(page) || !Array.isArray(page.tools)) {
    throw new TypeError(
      `the answer to tools/list has no "tools" array: ${JSON.stringify(page).slice(0, 200)}`,
    );
  }
  const tools: CachedTool[] = [];
  const skipped: SkippedTool[] = [];
  for (const raw of page.tools) {
    const tool = readTool(raw);
    if ("reason" in tool) skipped.push(tool);
    else tools.push(tool);
  }
  const nextCursor = typeof page.nextCursor === "string" && page.nextCursor
    ? page.nextCursor
    : undefined;
  return { tools, skipped, ...(nextCursor ? { nextCursor } : {}) };
}

/**
 * The process a listing went through when it was already running before the
 * listing began: `pid` (stdio servers) and when it started (ISO). A server
 * whose code or package changed since then still answers with its old tools.
 */
export interface ListedBy {
  pid?: number;
  startedAt: string;
}

/**
 * One server's answer to the daemon's `list` operation (`mcpx refresh`): how
 * many tools it listed, or why the listing failed, and {@link ListedBy} when
 * it was answered by a process already running (decision 0025).
 */
export interface ListResult {
  tools?: number;
  error?: string;
  listedBy?: ListedBy;
  /**
   * The listing was still in progress when the caller's wait ran out
   * (engine/listings.ts `ListingWait`): it goes on, and discovery shows the
   * server as starting (decision 0010).
   */
  starting?: Omit<StartingListing, "server" | "namespace">;
}

/** One {@link ListResult} per server name. */
export type ListResults = Record<string, ListResult>;

/**
 * How long a caller of the `list` operation waits for listings, in ms
 * (decision 0010): until a listing is `startedMs` old (counted from when it
 * began, whichever request started it), and at least `joinedMs` for one
 * already in progress. Absent: until each listing ends (which its start
 * allowance, `firstStartTimeout` on a first start, bounds).
 */
export interface ListingWait {
  startedMs: number;
  joinedMs: number;
}

/**
 * The wait discovery and script runs ask for when nobody asked to wait: a
 * listing is waited for until it is `graceMs` old (the `discovery.wait`
 * setting), and one already past that is not waited for at all (decision 0010).
 */
export function graceWait(graceMs: number): ListingWait {
  return { startedMs: graceMs, joinedMs: 0 };
}
