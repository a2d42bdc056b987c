/**
 * Every named script reachable from a list of places, with its description
 * and whether a nearer script of the same name hides it. What `mcpx scripts`
 * shows.
 *
 * Source: spec 000, "Named scripts".
 *
 * @module
 */

import { scriptsIn } from "./resolve.ts";

/** One script of {@link listScripts}. */
export interface ScriptListing {
  name: string;
  /** The script's first comment line, or empty. */
  description: string;
  /** Absolute path as found in its place. */
  path: string;
  /** The nearer script `mcpx run <name>` picks instead of this one. */
  shadowedBy?: string;
  /** The other file of the same name in the same place (`.ts` beside `.js`): a run refuses both. */
  conflictsWith?: string;
}

/**
 * The scripts in `dirs`, sorted by name; for one name, the one a run picks
 * comes first, then those it shadows in search order.
 *
 * @param dirs Places, nearest first (scripts/resolve.ts `scriptDirs`).
 * @param options.signal Checked between places.
 * @param options.allowTsJsOverlap The setting `plumbing.allowTsJsOverlap`: a
 *   `.ts` beside a `.js` of the same name is then no conflict, and the `.js`
 *   is shadowed by the `.ts` (which runs).
 * @returns One listing per script file.
 * @throws {DOMException} `AbortError` when `signal` is aborted.
 */
export async function listScripts(
  dirs: readonly string[],
  options: { signal?: AbortSignal; allowTsJsOverlap?: boolean } = {},
): Promise<ScriptListing[]> {
  const byName = new Map<string, ScriptListing[]>();
  const firstPlace = new Map<string, string>();
  for (const dir of dirs) {
    options.signal?.throwIfAborted();
    const here = scriptsIn(dir);
    for (const script of here) {
      const same = byName.get(script.name) ?? [];
      if (!firstPlace.has(script.name)) firstPlace.set(script.name, dir);
      const twin = here.find((s) => s.name === script.name && s.path !== script.path);
      same.push({
        name: script.name,
        description: await describeScript(script.path),
        path: script.path,
        ...(firstPlace.get(script.name) !== dir || (twin && options.allowTsJsOverlap && same.length)
          ? { shadowedBy: same[0].path }
          : {}),
        ...(twin && !options.allowTsJsOverlap ? { conflictsWith: twin.path } : {}),
      });
      byName.set(script.name, same);
    }
  }
  return [...byName.keys()].sort().flatMap((name) => byName.get(name)!);
}

/** Bytes read from the head of a script when looking for its description. */
const HEAD_BYTES = 4096;

/**
 * A script's description: the first line of its first comment (`//`, `/* *\/`
 * or `/** *\/`), after a shebang and blank lines. Tool directives
 * (`// deno-lint-ignore…`, `// @ts-…`, `/// <reference …>`) and JSDoc tags
 * are skipped. Code before any comment means no description.
 *
 * @param path The script file.
 * @returns The line, trimmed; empty when there is none or the file cannot be read.
 */
export async function describeScript(path: string): Promise<string> {
  let head: string;
  try {
    using file = await Deno.open(path);
    const buffer = new Uint8Array(HEAD_BYTES);
    const n = await file.read(buffer) ?? 0;
    head = new TextDecoder().decode(buffer.subarray(0, n));
  } catch {
    return "";
  }
  return firstCommentLine(head);
}

/**
 * The first comment line of source text; see {@link describeScript}.
 *
 * @param source The start of a script.
 * @returns The line, or empty.
 * @example
 * ```ts
 * import { firstCommentLine } from "./list.ts";
 * if (firstCommentLine("#!/usr/bin/env -S mcpx run\n// Take a shot\nx()") !== "Take a shot") {
 *   throw new Error();
 * }
 * ```
 */
export function firstCommentLine(source: string): string {
  let rest = source.startsWith("#!")
    ? source.slice(source.indexOf("\n") + 1 || source.length)
    : source;
  for (;;) {
    rest = rest.trimStart();
    if (rest.startsWith("//")) {
      const end = rest.indexOf("\n");
      const line = (end < 0 ? rest : rest.slice(0, end)).replace(/^\/+/, "").trim();
      rest = end < 0 ? "" : rest.slice(end + 1);
      if (line === "" || /^(deno-|@ts-|eslint-|<reference\b)/.test(line)) continue;
      return line;
    }
    if (rest.startsWith("/*")) {
      const end = rest.indexOf("*/");
      const body = rest.slice(2, end < 0 ? undefined : end);
      rest = end < 0 ? "" : rest.slice(end + 2);
      const line = body.split("\n")
        .map((l) => l.replace(/^\s*\*+/, "").trim())
        .find((l) => l !== "" && !l.startsWith("@") && !/^(deno-|eslint-)/.test(l));
      if (line) return line;
      continue;
    }
    return "";
  }
}
