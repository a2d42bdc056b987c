/**
 * A command context for in-process tests of the content commands (prompts,
 * resources, skills): its daemon answers each operation from a table and
 * remembers what was sent; the configuration has no servers.
 *
 * @module
 */

import { memoryIo } from "../../core/io.ts";
import type { CliContext } from "../context.ts";

/**
 * A context whose `request` answers `answers[operation]`.
 *
 * @param cwd The working directory (where `--out` writes).
 * @returns The context, its in-memory `io`, and each `[operation, params]` sent.
 */
export function contentContext(answers: Record<string, unknown>, cwd = "/") {
  const sent: [string, Record<string, unknown>][] = [];
  const io = memoryIo("");
  const ctx = {
    cwd,
    env: {},
    io,
    config: () => Promise.resolve({ path: "/p/.mcp.json", servers: [] }),
    configuredServer: () => Promise.resolve(undefined),
    endpoint: () => Promise.resolve(undefined),
    setting: () => Promise.resolve(undefined),
    json: () => Promise.resolve(false),
    request: (operation: string, params: Record<string, unknown>) => {
      sent.push([operation, params]);
      return Promise.resolve(answers[operation]);
    },
  };
  return { ctx: ctx as unknown as CliContext, io, sent };
}
