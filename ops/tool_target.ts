/**
 * A tool named as `namespace.tool`: the one reading of that name, shared by
 * the daemon's `call` handler (ops/daemon_ops.ts) and the command line's
 * check before it starts a daemon (cli/op_request.ts), so both split it the
 * same way and refuse the same malformed names with the same words.
 *
 * A namespace is an identifier (config/identifiers.ts), so the first dot
 * ends it; a tool's own name may hold dots.
 *
 * @module
 */

import { UsageError } from "../core/errors.ts";

/**
 * The namespace (or its server's name) and the tool a target names.
 *
 * @param target What was given, e.g. `fs.read_file`.
 * @throws {UsageError} When there is no dot, or nothing before or after it.
 * @example
 * ```ts
 * import { splitTarget } from "./tool_target.ts";
 * const { namespace, tool } = splitTarget("gh.repos.get");
 * if (namespace !== "gh" || tool !== "repos.get") throw new Error();
 * ```
 */
export function splitTarget(target: string): { namespace: string; tool: string } {
  const dot = target.indexOf(".");
  if (dot <= 0 || dot === target.length - 1) {
    throw new UsageError(
      `"${target}" is not <namespace>.<tool>; \`mcpx search <words>\` finds the name`,
    );
  }
  return { namespace: target.slice(0, dot), tool: target.slice(dot + 1) };
}
