/**
 * The template of an error message: its first line with the values taken
 * out, so two failures that differ only in a number, a path, an id or a
 * quoted name group as one (`mcpx stats errors`). A record's own template
 * already does this for messages written with `{placeholders}`; an error's
 * text is built by whoever threw it, so its values are found by shape.
 *
 * @module
 */

const RULES: [RegExp, string][] = [
  [/\b[a-z][a-z0-9+.-]*:\/\/[^\s"'<>()]+/gi, "{url}"],
  [/"(?:[^"\\]|\\.)*"/g, '"{s}"'],
  [/'(?:[^'\\]|\\.)*'/g, "'{s}'"],
  [/(?<![\w.])\/[^\s:;,"'()]+/g, "{path}"],
  [/\b(?:dmn|ins|cal|run)-[0-9a-f]{6,}\b/g, "{id}"],
  [/\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi, "{id}"],
  [/\b(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{8,}\b/gi, "{id}"],
  [/(?<![\w.])-?\d+(?:\.\d+)?(?![\w])/g, "{n}"],
];

/** Longest template kept, in characters. */
export const MAX_TEMPLATE = 300;

/**
 * The message with its values replaced: URLs by `{url}`, quoted text by
 * `"{s}"`, absolute paths by `{path}`, ids (span ids, UUIDs, long hex) by
 * `{id}`, numbers by `{n}`. Only the first line is kept, at most
 * {@link MAX_TEMPLATE} characters.
 *
 * @param message An error message.
 * @returns Its template.
 * @example
 * ```ts
 * import { errorTemplate } from "./error_template.ts";
 * const t = errorTemplate("fs.read did not answer within 100 ms");
 * if (t !== "fs.read did not answer within {n} ms") throw new Error(t);
 * ```
 */
export function errorTemplate(message: string): string {
  let out = message.split("\n", 1)[0].slice(0, 4 * MAX_TEMPLATE);
  for (const [pattern, replacement] of RULES) out = out.replace(pattern, replacement);
  return out.trim().slice(0, MAX_TEMPLATE);
}
