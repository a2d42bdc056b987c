/**
 * Readers of typed values in a configuration object that record a problem
 * (JSON path, value, fix) instead of throwing. Private to config/.
 *
 * @module
 */

import { describeValue } from "./_describe.ts";
import type { JsonPath, Problems } from "./_problems.ts";

/** A JSON object as parsed. */
export type Obj = Record<string, unknown>;

/** True for a plain JSON object (not null, not an array). */
export const isObject = (v: unknown): v is Obj =>
  v !== null && typeof v === "object" && !Array.isArray(v);

/** `block[key]` as a boolean (absent: false); anything else is a problem. */
export function readBool(block: Obj, key: string, at: JsonPath, problems: Problems): boolean {
  const v = block[key];
  if (v === undefined) return false;
  if (typeof v === "boolean") return v;
  problems.add(
    [...at, key],
    `must be true or false, got ${describeValue(v)}; write ${key}: true to turn the server off`,
  );
  return false;
}

/** `block[key]` as an array of strings (absent: undefined); a problem names each bad item. */
export function readStringArray(
  block: Obj,
  key: string,
  at: JsonPath,
  problems: Problems,
  example: string,
) {
  const v = block[key];
  if (v === undefined) return undefined;
  if (!Array.isArray(v)) {
    problems.add(
      [...at, key],
      `must be an array of strings, got ${describeValue(v)}; write ${example}`,
    );
    return undefined;
  }
  let ok = true;
  v.forEach((item, i) => {
    if (typeof item !== "string") {
      ok = false;
      problems.add(
        [...at, key, i],
        `must be a string, got ${describeValue(item)}; quote it: ${
          JSON.stringify(JSON.stringify(item) ?? "")
        }`,
      );
    }
  });
  return ok ? (v as string[]) : undefined;
}

/** `block[key]` as an object of strings (absent: `{}`). */
export function readStringMap(
  block: Obj,
  key: string,
  at: JsonPath,
  problems: Problems,
): Record<string, string> {
  const v = block[key];
  if (v === undefined) return {};
  if (!isObject(v)) {
    problems.add(
      [...at, key],
      `must be an object of strings, got ${describeValue(v)}; write e.g. { "NAME": "value" }`,
    );
    return {};
  }
  const out: Record<string, string> = {};
  for (const [k, item] of Object.entries(v)) {
    if (typeof item === "string") out[k] = item;
    else {
      problems.add(
        [...at, key, k],
        `must be a string, got ${describeValue(item)}; quote it: ${
          JSON.stringify(JSON.stringify(item) ?? "")
        }`,
      );
    }
  }
  return out;
}

/** The map with `fn` applied to each value. */
export function mapValues(
  map: Record<string, string>,
  fn: (value: string, key: string) => string,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(map)) out[k] = fn(v, k);
  return out;
}

/** Tool patterns: exact names, globs (`delete_*`, `?`) or `/regex/flags` that must compile. */
export function readPatterns(
  block: Obj,
  key: string,
  at: JsonPath,
  problems: Problems,
): string[] | undefined {
  const list = readStringArray(block, key, at, problems, `e.g. ["read_*", "/^get_/i"]`);
  if (!list) return undefined;
  list.forEach((pattern, i) => {
    if (pattern === "") {
      problems.add(
        [...at, key, i],
        `must not be empty, got ""; write a tool name, a glob or /regex/`,
      );
      return;
    }
    const m = /^\/(.*)\/([a-z]*)$/s.exec(pattern);
    if (!m) return;
    try {
      new RegExp(m[1], m[2]);
    } catch (error) {
      problems.add(
        [...at, key, i],
        `is not a valid regular expression, got ${describeValue(pattern)} (${
          (error as Error).message
        }); ` +
          `fix the pattern, or drop the slashes to match the name literally or as a glob`,
      );
    }
  });
  return list;
}
