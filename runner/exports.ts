/**
 * The names a module exports, read from its source without running it, so
 * `--export <name>` is checked before anything starts (spec 000, "Checking
 * before running"). A lexical scan, not a parser: it sees `export function`,
 * `export const|let|var|class`, `export { a, b as c }` and `export default`;
 * comments and strings are blanked first so they cannot fake an export.
 *
 * @module
 */

/**
 * Exported names of a module's source, in order of appearance.
 *
 * @param source TypeScript or JavaScript module text.
 * @returns e.g. `["countFiles", "default"]`.
 * @example
 * ```ts
 * import { exportedNames } from "./exports.ts";
 * const names = exportedNames("export function a() {}\nexport { b as c };\nexport default 1;");
 * if (names.join() !== "a,c,default") throw new Error(names.join());
 * ```
 */
export function exportedNames(source: string): string[] {
  const code = blankCommentsAndStrings(source);
  const names: string[] = [];
  const pattern =
    /\bexport\s+(?:(default)\b|(?:declare\s+)?(?:async\s+)?(?:function\*?|class|const|let|var)\s+([A-Za-z_$][\w$]*)|\{([^}]*)\})/g;
  for (const m of code.matchAll(pattern)) {
    if (m[1]) names.push("default");
    else if (m[2]) names.push(m[2]);
    else {
      for (const part of m[3].split(",")) {
        const name = part.trim().split(/\s+as\s+/).pop()?.trim();
        if (name && !name.startsWith("type ")) names.push(name);
      }
    }
  }
  // `export const a = 1, b = 2` is rare in scripts; the runtime check still catches it.
  return [...new Set(names)];
}

function blankCommentsAndStrings(source: string): string {
  return source.replace(
    /\/\*[\s\S]*?\*\/|\/\/[^\n]*|"(?:\\.|[^"\\\n])*"|'(?:\\.|[^'\\\n])*'|`(?:\\.|[^`\\])*`/g,
    (m) => m.startsWith("/") ? " ".repeat(m.length) : `"${" ".repeat(Math.max(0, m.length - 2))}"`,
  );
}
