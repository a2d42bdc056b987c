/**
 * The user-level `.env`: `KEY=value` lines in the mcpx configuration
 * directory whose values the configuration's `${VAR}` references may use, as
 * the other tool named mcpx reads them (spec 002, "Environment values").
 *
 * - Only the user configuration directory's file is read (the first of
 *   `$XDG_CONFIG_HOME/mcpx/.env` and `~/.config/mcpx/.env` that exists): a
 *   project cannot bring one.
 * - The process environment wins over the file, variable by variable.
 * - The values feed `${VAR}` interpolation (and the fingerprint, and the
 *   redactor that hides them) only; the file is never exported to servers,
 *   which get the invoking environment plus their own `env` entries.
 *
 * Parsed with `dotenv` (docs/dependencies.md), loaded only when the file
 * exists. {@link loadUserEnv} reads it once per process; the synchronous
 * {@link interpolationEnv} answers from what it read, so the redactor
 * (config/secrets.ts) can hide those values without reading files.
 *
 * Source: spec 002, "Environment values"; docs/decisions/0056-the-other-mcpx-dialect.md.
 *
 * @module
 */

import { join } from "../core/posix_path.ts";
import { ConfigError } from "../core/errors.ts";
import { mcpxPaths } from "./paths.ts";
import { setOwn } from "../core/own.ts";

/** What {@link loadUserEnv} found. */
export interface UserEnv {
  /** The `.env` file read (absolute), or null when none exists. */
  file: string | null;
  /** Its variables, as the file writes them (empty without a file). */
  values: Record<string, string>;
}

const loaded = new Map<string, UserEnv>();

/**
 * The user-level `.env` mcpx reads for this environment, whether or not it exists.
 *
 * @param env The environment (`HOME`, `XDG_CONFIG_HOME`).
 * @returns The path of the first user configuration directory's `.env` that exists, else
 *   the most specific directory's (where one would be created); null without any
 *   configuration directory (no `HOME` and no absolute `XDG_CONFIG_HOME`).
 * @example
 * ```ts
 * import { userEnvPath } from "./user_env.ts";
 * if (userEnvPath({ HOME: "/nonexistent-h" }) !== "/nonexistent-h/.config/mcpx/.env") throw new Error();
 * ```
 */
export function userEnvPath(env: Record<string, string | undefined>): string | null {
  let dirs: string[];
  try {
    dirs = mcpxPaths(env).configDirs;
  } catch {
    return null;
  }
  const files = dirs.map((dir) => join(dir, ".env"));
  return files.find(isFile) ?? files[0] ?? null;
}

/**
 * Reads and parses the user-level `.env` (once per process and file).
 *
 * @param env The environment (`HOME`, `XDG_CONFIG_HOME`).
 * @returns The file and its values; `{ file: null, values: {} }` when there is none.
 * @throws {ConfigError} When the file exists but cannot be read or is not UTF-8 (the message
 *   names the file and the fix).
 * @example
 * ```ts
 * import { loadUserEnv } from "./user_env.ts";
 * const home = await Deno.makeTempDir();
 * await Deno.mkdir(`${home}/.config/mcpx`, { recursive: true });
 * await Deno.writeTextFile(`${home}/.config/mcpx/.env`, "TOKEN=t0\n");
 * const { values } = await loadUserEnv({ HOME: home });
 * await Deno.remove(home, { recursive: true });
 * if (values.TOKEN !== "t0") throw new Error();
 * ```
 */
export async function loadUserEnv(env: Record<string, string | undefined>): Promise<UserEnv> {
  const path = userEnvPath(env);
  if (path === null || !isFile(path)) return { file: null, values: {} };
  const cached = loaded.get(path);
  if (cached) return cached;
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(await Deno.readFile(path));
  } catch (error) {
    throw new ConfigError(
      path,
      "",
      `cannot read the user .env file: ${(error as Error).message}; make it a readable UTF-8 ` +
        `file of KEY=value lines, or remove it`,
      { cause: error },
    );
  }
  const { parse } = await import("dotenv");
  const found: UserEnv = { file: path, values: { ...parse(text) } };
  loaded.set(path, found);
  return found;
}

/**
 * The variables `${VAR}` references are expanded with: the user-level `.env`'s
 * values under the process environment's (a variable the environment sets,
 * even to "", is the environment's). Answers from what {@link loadUserEnv}
 * read for this environment; before that, the environment alone.
 *
 * @param env The process environment.
 * @returns A new map; `env` itself when no `.env` was read.
 * @example
 * ```ts
 * import { interpolationEnv } from "./user_env.ts";
 * if (interpolationEnv({ A: "1" }).A !== "1") throw new Error();
 * ```
 */
export function interpolationEnv(
  env: Record<string, string | undefined>,
): Record<string, string | undefined> {
  const path = userEnvPath(env);
  const file = path === null ? undefined : loaded.get(path);
  if (!file) return env;
  const out: Record<string, string | undefined> = { ...file.values };
  for (const [name, value] of Object.entries(env)) {
    if (value !== undefined) setOwn(out, name, value);
  }
  return out;
}

function isFile(path: string): boolean {
  try {
    return Deno.statSync(path).isFile;
  } catch {
    return false;
  }
}
