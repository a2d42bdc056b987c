/**
 * `${VAR}` expansion in the string fields of a server entry (`command`, `args`,
 * `env` values, `cwd`, `url`, `headers` values), as other MCP hosts do it, so
 * an existing `.mcp.json` holding `"${GITHUB_TOKEN}"` works unchanged.
 *
 * Forms: `${VAR}` (unset is an error), `${VAR:-default}` (default when unset or
 * empty), and `$${` or `\${` for a literal `${`. A bare `$VAR` is left alone.
 * A `${` that names no variable (`${}`, `${:-x}`) or has no closing `}` before
 * the next `${` or the end is an error, since it is a typo, not text.
 *
 * Source: spec 000, "Configuration" (the same `mcpServers` object other hosts use).
 *
 * @module
 */

import { ConfigError } from "../core/errors.ts";
import { own } from "../core/own.ts";

/** Where a variable can be set for `${VAR}` besides the environment (config/user_env.ts). */
const USER_ENV_FILE = "~/.config/mcpx/.env";

// Escapes, then a well-formed reference, then any other `${` (checked in the replacer).
const PATTERN = /\$\$\{|\\\$\{|\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}|\$\{/g;

/** A `${` that is not a reference: see {@link Expansion.malformed}. */
export interface Malformed {
  /**
   * The offending text as written: `${}`, `${:-x}`, or from an unclosed `${` to the next
   * `${` or the end.
   */
  reference: string;
  /** `empty`: no variable name; `unterminated`: no closing `}`. */
  problem: "empty" | "unterminated";
}

/** The result of {@link expandVars}: the text with every set variable substituted. */
export interface Expansion {
  /** The expanded text; unset variables and malformed references are left as written. */
  value: string;
  /** Names of variables that were referenced without a default and are unset, in order. */
  missing: string[];
  /** References with no name or no closing `}`, in order. */
  malformed: Malformed[];
  /**
   * The references substituted, in order: the variable and the text put in
   * its place (its value, or the default). config/secrets.ts reads them to
   * show `${NAME}` wherever that text would be printed.
   */
  used: { name: string; value: string }[];
}

/**
 * Expands `${VAR}` references without throwing; the caller decides how to report `missing`
 * and `malformed`.
 *
 * @param text The string as written in the configuration.
 * @param env The variables to read (never the process environment implicitly).
 * @returns `{ value, missing, malformed, used }`.
 * @example
 * ```ts
 * import { expandVars } from "./expand.ts";
 * const r = expandVars("Bearer ${TOKEN}", { TOKEN: "t0" });
 * if (r.value !== "Bearer t0" || r.missing.length) throw new Error();
 * ```
 */
export function expandVars(text: string, env: Record<string, string | undefined>): Expansion {
  const missing: string[] = [];
  const malformed: Malformed[] = [];
  const used: { name: string; value: string }[] = [];
  const value = text.replace(PATTERN, (match, name?: string, fallback?: string, at?: number) => {
    if (name === undefined && match !== "${") return "${"; // `$${` or `\${`
    if (name === undefined) {
      const rest = text.slice(at! + 2);
      const close = rest.indexOf("}");
      const next = rest.indexOf("${");
      if (close === -1 || (next !== -1 && next < close)) {
        malformed.push({
          reference: `\${${next === -1 ? rest : rest.slice(0, next)}`,
          problem: "unterminated",
        });
      } else if (close === 0 || rest.startsWith(":-")) {
        malformed.push({ reference: `\${${rest.slice(0, close + 1)}`, problem: "empty" });
      }
      return match; // an invalid name such as `${1}` or `${A B}` is left as text
    }
    // `${toString}` names a variable, never Object.prototype's function.
    const set = own(env, name);
    if (fallback !== undefined) {
      used.push({ name, value: set ? set : fallback });
      return set ? set : fallback;
    }
    if (set === undefined) {
      missing.push(name);
      return match;
    }
    used.push({ name, value: set });
    return set;
  });
  return { value, missing, malformed, used };
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
  return `\${${name}} is not set (server "${server}"); export ${name} before running mcpx ` +
    `(or set it in ${USER_ENV_FILE}), or write \${${name}:-default} to give it a default`;
}

/**
 * Why a server cannot start when variables its entry names are unset: names
 * every variable, the server and where the first one is used, and says how to
 * fix it. Only that server is affected; the others work (issue 8).
 *
 * @param refs The unset variables in the order written, each with the JSON
 *   path (dotted) of the string naming it; repeats are named once.
 * @param server The server's key under `mcpServers`.
 * @returns One sentence, e.g. `${GH_TOKEN} is not set (server "gh", at
 *   mcpServers.gh.env.TOKEN); export GH_TOKEN before running mcpx (or set it in
 *   ~/.config/mcpx/.env), or write ${GH_TOKEN:-default} to give it a default`.
 * @throws {RangeError} When `refs` is empty.
 * @example
 * ```ts
 * import { unsetVariablesMessage } from "./expand.ts";
 * const m = unsetVariablesMessage([{ variable: "T", path: "mcpServers.gh.env.T" }], "gh");
 * if (!m.startsWith("${T} is not set")) throw new Error();
 * ```
 */
export function unsetVariablesMessage(
  refs: readonly { variable: string; path: string }[],
  server: string,
): string {
  if (refs.length === 0) {
    throw new RangeError("unsetVariablesMessage() needs at least one variable");
  }
  const names = [...new Set(refs.map((r) => r.variable))];
  const listed = names.map((n) => `\${${n}}`);
  const what = names.length === 1
    ? `${listed[0]} is not set`
    : `${listed.slice(0, -1).join(", ")} and ${listed.at(-1)} are not set`;
  const first = names[0];
  return `${what} (server "${server}", at ${refs[0].path}); export ${
    names.join(" and ")
  } before running mcpx (or set ${names.length === 1 ? "it" : "them"} in ${USER_ENV_FILE}), ` +
    `or write \${${first}:-default} to give it a default`;
}

/**
 * The message for a `${` that names no variable or is not closed: quotes the whole string,
 * names the server, and gives the fix.
 *
 * @param malformed The reference, from {@link Expansion.malformed}.
 * @param text The whole string as written.
 * @param server The server's key under `mcpServers`.
 * @returns One sentence, without the `config <file>: <path>:` prefix.
 */
export function malformedReferenceMessage(
  malformed: Malformed,
  text: string,
  server: string,
): string {
  const what = malformed.problem === "empty"
    ? `${JSON.stringify(malformed.reference)} names no variable`
    : `${JSON.stringify(malformed.reference)} has a \${ without a closing }`;
  return `${what} in ${JSON.stringify(text)} (server "${server}"); write \${NAME} to use ` +
    `a variable, or $\${ for a literal \${`;
}

/**
 * Expands `${VAR}` references and throws on the first unset one.
 *
 * @param text The string as written.
 * @param env The variables to read.
 * @param context File, server and JSON path, for the error.
 * @returns The expanded string.
 * @throws {ConfigError} When a `${` names no variable or is not closed (naming the server,
 *   the JSON path and the text, with the fix), or a variable without a default is unset (naming
 *   the variable, the server and the JSON path, and suggesting exporting it or
 *   `${VAR:-default}`).
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
  const { value, missing, malformed } = expandVars(text, env);
  if (malformed.length > 0) {
    throw new ConfigError(
      context.file,
      context.path,
      malformedReferenceMessage(malformed[0], text, context.server),
    );
  }
  if (missing.length > 0) {
    throw new ConfigError(
      context.file,
      context.path,
      unsetVariableMessage(missing[0], context.server),
    );
  }
  return value;
}
