/**
 * Reading a server's `logLevel` (its `mcpx` block): the least severe log
 * message mcpx asks the server to send (MCP `logging/setLevel`). Private to
 * config/.
 *
 * Source: issue 12, "Capabilities a server can use"; spec 000, "The rest of
 * the protocol" (a server sends no log messages until asked).
 *
 * @module
 */

import { SERVER_LOG_LEVELS, type ServerLogLevel } from "./types.ts";
import { describeValue } from "./_describe.ts";
import type { JsonPath, Problems } from "./_problems.ts";
import { didYouMean } from "./_suggest.ts";
import type { Obj } from "./_read.ts";

/**
 * The level `mcpx.logLevel` names, or undefined when it names none. A bad
 * value is a problem naming the value and the accepted levels.
 *
 * @param mcpx The server's `mcpx` block.
 * @param at The block's JSON path.
 * @param problems Where problems go.
 */
export function readLogLevel(
  mcpx: Obj,
  at: JsonPath,
  problems: Problems,
): ServerLogLevel | undefined {
  const v = mcpx.logLevel;
  if (v === undefined) return undefined;
  if (typeof v === "string" && (SERVER_LOG_LEVELS as readonly string[]).includes(v)) {
    return v as ServerLogLevel;
  }
  // mcpx's own levels say "warn" where MCP says "warning": a prefix is the likeliest slip.
  const prefixed = typeof v === "string" && v !== ""
    ? SERVER_LOG_LEVELS.find((l) => l.startsWith(v.toLowerCase()))
    : undefined;
  problems.add(
    [...at, "logLevel"],
    `must be one of ${SERVER_LOG_LEVELS.map((l) => `"${l}"`).join(", ")}, got ${describeValue(v)}${
      prefixed
        ? `; did you mean \`${prefixed}\`?`
        : typeof v === "string"
        ? didYouMean(v, SERVER_LOG_LEVELS)
        : ""
    }; "info" asks the server for its informational messages and everything more severe`,
  );
  return undefined;
}
