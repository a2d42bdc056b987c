/**
 * `--env KEY=VALUE` and `--env-file <path>` for a script run, checked before
 * anything starts (spec 000, "Checking before running"): a malformed pair is
 * a problem reported with the others, never silently dropped.
 *
 * @module
 */

import { type InputLimit, readBoundedFile } from "../core/bounded_read.ts";
import { InputError } from "../core/errors.ts";

/**
 * Variables from `--env-file`s (in order), then `--env` pairs (later wins), and the problems found.
 *
 * @param limit Bounds each file's size (`input.maxBytes`); a file must be a regular file
 *   (core/bounded_read.ts), so `--env-file /dev/zero` is a problem, not a read that never ends.
 */
export async function envOverrides(
  pairs: string[],
  files: string[],
  cwd: string,
  limit: InputLimit,
): Promise<{ env: Record<string, string>; problems: string[] }> {
  const env: Record<string, string> = {};
  const problems: string[] = [];
  // Loaded only when a file is given: an npm module costs ~25 ms of start-up.
  const parseDotenv = files.length ? (await import("dotenv")).parse : undefined;
  for (const file of files) {
    const path = file.startsWith("/") ? file : `${cwd}/${file}`;
    try {
      const bytes = await readBoundedFile(path, `--env-file ${file}`, limit);
      Object.assign(env, parseDotenv!(new TextDecoder().decode(bytes)));
    } catch (error) {
      problems.push(
        error instanceof InputError
          ? error.message
          : `--env-file ${file}: ${
            error instanceof Deno.errors.NotFound ? "no such file" : (error as Error).message
          }`,
      );
    }
  }
  for (const pair of pairs) {
    const eq = pair.indexOf("=");
    const key = eq < 0 ? pair : pair.slice(0, eq);
    if (eq < 0) {
      problems.push(`--env ${JSON.stringify(pair)} has no "="; write --env ${key || "NAME"}=value`);
    } else if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(key)) {
      problems.push(
        `--env ${JSON.stringify(pair)}: ${
          JSON.stringify(key)
        } is not a variable name (letters, digits and _, not starting with a digit)`,
      );
    } else {
      env[key] = pair.slice(eq + 1);
    }
  }
  return { env, problems };
}
