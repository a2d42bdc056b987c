/**
 * Compiling a server's tool filter (`tools`, `extraIncludeTools`,
 * `excludeTools`) into one predicate over tool names.
 *
 * Source of the rule: spec 000, "Configuration" and "Hiding tools": the lists
 * take exact names, globs (`delete_*`) or `/regexps/`, and hide a tool from
 * listings and calls alike.
 *
 * @module
 */

import type { ToolFilter } from "./types.ts";
import { toIdentifier } from "./identifiers.ts";

/**
 * Compiles one pattern into a name predicate.
 *
 * - `/body/flags` is a regular expression, unanchored, as written;
 * - a pattern containing `*` or `?` is a glob over the whole name
 *   (`*` any run of characters, `?` exactly one);
 * - anything else is an exact name.
 *
 * @param pattern The pattern as written in the config.
 * @returns A predicate that is true when a tool name matches.
 * @throws {SyntaxError} When a `/regex/` pattern is not a valid regular expression.
 * @example
 * ```ts
 * import { compilePattern } from "./tool_filter.ts";
 * if (!compilePattern("delete_*")("delete_file")) throw new Error();
 * ```
 */
export function compilePattern(pattern: string): (toolName: string) => boolean {
  const regex = /^\/(.+)\/([a-z]*)$/s.exec(pattern);
  if (regex) {
    let re: RegExp;
    try {
      re = new RegExp(regex[1], regex[2]);
    } catch (cause) {
      throw new SyntaxError(
        `tool pattern ${JSON.stringify(pattern)} is not a valid regular expression: ${
          (cause as Error).message
        }`,
        { cause },
      );
    }
    return (name) => {
      re.lastIndex = 0;
      return re.test(name);
    };
  }
  if (/[*?]/.test(pattern)) {
    const body = pattern
      .split("")
      .map((c) => c === "*" ? ".*" : c === "?" ? "." : c.replace(/[.+^${}()|[\]\\/-]/g, "\\$&"))
      .join("");
    const re = new RegExp(`^${body}$`, "s");
    return (name) => re.test(name);
  }
  return (name) => name === pattern;
}

/**
 * Compiles a {@link ToolFilter} into a visibility predicate. A tool is
 * visible when there is no include list or it matches one include pattern,
 * and it matches no exclude pattern.
 *
 * @param filter Include and exclude patterns (see {@link compilePattern}).
 * @returns A predicate over the tool's real name (`take-screenshot`); each pattern
 *   matches it or its identifier (`take_screenshot`), see {@link compileToolPattern}.
 * @throws {SyntaxError} When a `/regex/` pattern is invalid.
 * @example
 * ```ts
 * import { compileToolFilter } from "./tool_filter.ts";
 * const visible = compileToolFilter({ exclude: ["delete_*"] });
 * if (visible("delete_file") || !visible("read_file")) throw new Error();
 * ```
 */
export function compileToolFilter(filter: ToolFilter): (toolName: string) => boolean {
  const include = filter.include?.map(compileToolPattern);
  const exclude = (filter.exclude ?? []).map(compileToolPattern);
  return (name) =>
    (include === undefined || include.some((m) => m(name))) && !exclude.some((m) => m(name));
}

/**
 * Compiles one pattern of a tool list into a predicate over a tool's real
 * name that also tries the identifier mcpx shows for it: a person copies the
 * name `mcpx ls` prints (`get_env`) as readily as the one the server sent
 * (`get-env`), and either must hide or show the same tool. A glob or
 * `/regex/` likewise matches when either spelling does (`get_*` covers
 * `get-env`).
 *
 * @param pattern As {@link compilePattern} reads it.
 * @returns A predicate over the tool's real name.
 * @throws {SyntaxError} When a `/regex/` pattern is invalid.
 * @example
 * ```ts
 * import { compileToolPattern } from "./tool_filter.ts";
 * const m = compileToolPattern("get_*");
 * if (!m("get-env") || m("list-env")) throw new Error();
 * ```
 */
export function compileToolPattern(pattern: string): (toolName: string) => boolean {
  const match = compilePattern(pattern);
  return (name) => match(name) || (name.length > 0 && match(toIdentifier(name)));
}
