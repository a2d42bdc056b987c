/**
 * Reading a server's roots: `mcpx.roots`, the directories mcpx offers the
 * server through MCP's roots capability (`roots/list`, MCP 2025-11-25
 * "Roots"; issue 12, "Capabilities a server can use"). Each is a string,
 * `${VAR}` expanded as the process keys are; a relative one resolves against
 * the configuration file's real directory, as a relative `cwd` does. Absent
 * or empty: the server gets no roots and mcpx does not declare the
 * capability. Private to config/.
 *
 * @module
 */

import { isAbsolute, resolve } from "../core/posix_path.ts";
import { describeValue } from "./_describe.ts";
import { expandVars, malformedReferenceMessage } from "./expand.ts";
import type { JsonPath, Problems } from "./_problems.ts";
import type { Obj } from "./_read.ts";
import type { UnsetReference } from "./_process.ts";

/** What {@link readRoots} needs besides the block. */
export interface RootsContext {
  /** The configuration file's real directory; null: no file (a relative root is then refused). */
  dir: string | null;
  env: Record<string, string | undefined>;
  problems: Problems;
}

/**
 * The entry's roots as absolute paths, in the order written, repeats dropped.
 *
 * @param server The key under `mcpServers` (for messages).
 * @param mcpx The entry's `mcpx` block (`roots` is read from it).
 * @param at The block's JSON path.
 * @param ctx Directory, environment and problems.
 * @returns `roots` (undefined when the block sets none or any is wrong) and
 *   the variables they name that are unset (the server is then unavailable,
 *   as for an unset variable in its process keys).
 */
export function readRoots(
  server: string,
  mcpx: Obj,
  at: JsonPath,
  ctx: RootsContext,
): { roots?: string[]; unset: UnsetReference[] } {
  const unset: UnsetReference[] = [];
  const v = mcpx.roots;
  if (v === undefined) return { unset };
  const example = `e.g. ["."] or ["/home/me/project", "../shared"]`;
  if (!Array.isArray(v)) {
    ctx.problems.add(
      [...at, "roots"],
      `must be an array of directories, got ${describeValue(v)}; write ${example}`,
    );
    return { unset };
  }
  const roots: string[] = [];
  let ok = true;
  v.forEach((item, i) => {
    const path: JsonPath = [...at, "roots", i];
    if (typeof item !== "string" || item === "") {
      ok = false;
      ctx.problems.add(
        path,
        `must be a directory (a non-empty string), got ${describeValue(item)}; write ${example}`,
      );
      return;
    }
    const { value, missing, malformed } = expandVars(item, ctx.env);
    for (const m of malformed) ctx.problems.add(path, malformedReferenceMessage(m, item, server));
    for (const variable of missing) unset.push({ variable, path });
    if (malformed.length) {
      ok = false;
      return;
    }
    if (!isAbsolute(value) && ctx.dir === null) {
      ok = false;
      ctx.problems.add(
        path,
        `is relative (${JSON.stringify(value)}) and there is no configuration file to resolve ` +
          `it against; write an absolute directory`,
      );
      return;
    }
    const absolute = isAbsolute(value) ? resolve(value) : resolve(ctx.dir!, value);
    if (!roots.includes(absolute)) roots.push(absolute);
  });
  return ok && roots.length ? { roots, unset } : { unset };
}
