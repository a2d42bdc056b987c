/**
 * `${VAR}` expansion in the string fields of a server entry (`command`, `args`,
 * `env` values, `cwd`, `url`, `headers` values), as other MCP hosts do it, so
 * an existing `.mcp.json` holding `"${GITHUB_TOKEN}"` works unchanged.
 *
 * Forms: `${VAR}` (unset is an error), `${VAR:-default}` (default when unset or
 * empty), and `$${` or `\${` for a literal `${`. A bare `$VAR` is left alone.
 *
 * Source: spec 000, "Configuration" (the same `mcpServers` object other hosts use).
 *
 * @module
 */

import { ConfigError } from "../errors.ts";

const PATTERN = /\$\$\{|\\\$\{|\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g;

/** The result of {@link expandVars}: the text with every set variable substituted. */
export interface Expansion {
  /** The expanded text; unset variables are left as written. */
  value: string;
  /** Names of variables that were referenced without a default and are unset, in order. */
  missing: string[];
}

/**
 * Expands `${VAR}` references without throwing; the caller decides how to report `missing`.
 *
 * @param text The string as written in the configuration.
 * @param env The variables to read (never the process environment implicitly).
 * @returns `{ value, missing }`.
 * @example
 * ```ts
 * import { expandVars } from "./expand.ts";
 * const r = expandVars("Bearer ${TOKEN}", { TOKEN: "t0" });
 * if (r.value !== "Bearer t0" || r.missing.length) throw new Error();
 * ```
 */
export function expandVars(text: string, env: Record<string, string | undefined>): Expansion {
  const missing: string[] = [];
  const value = text.replace(PATTERN, (match, name?: string, fallback?: string) => {
    if (name === undefined) return "${"; // `$${` or `\${`
    const set = env[name];
    if (fallback !== undefined) return set ? set : fallback;
    if (set === undefined) {
      missing.push(name);
      return match;
    }
    return set;
  });
  return { value, missing };
}

/** Where an expanded string sits, for error messages. */
export interface ExpandContext {
  /** The configuration file, or null. */
  file: string | null;
  /** The server's key under `mcpServers`. */
  server: string;
  /** The JSON path of the string, e.g. `mcpServers.gh.env.GITHUB_TOKEN`. */
  path: string;
}

/**
 * The message for an unset variable: names the variable and the server, and suggests the fix.
 *
 * @param name The unset variable.
 * @param server The server's key under `mcpServers`.
 * @returns One sentence, without the `config <file>: <path>:` prefix.
 */
export function unsetVariableMessage(name: string, server: string): string {
  return `\${${name}} is not set (server "${server}"); export ${name} before running mcpx, ` +
    `or write \${${name}:-default} to give it a default`;
}

/**
 * Expands `${VAR}` references and throws on the first unset one.
 *
 * @param text The string as written.
 * @param env The variables to read.
 * @param context File, server and JSON path, for the error.
 * @returns The expanded string.
 * @throws {ConfigError} When a variable without a default is unset; the message names the
 *   variable, the server and the JSON path, and suggests exporting it or `${VAR:-default}`.
 * @example
 * ```ts
 * import { expandString } from "./expand.ts";
 * const v = expandString("${HOME:-/root}/x", {}, { file: null, server: "fs", path: "args.0" });
 * if (v !== "/root/x") throw new Error();
 * ```
 */
export function expandString(
  text: string,
  env: Record<string, string | undefined>,
  context: ExpandContext,
): string {
  const { value, missing } = expandVars(text, env);
  if (missing.length > 0) {
    throw new ConfigError(
      context.file,
      context.path,
      unsetVariableMessage(missing[0], context.server),
    );
  }
  return value;
}
