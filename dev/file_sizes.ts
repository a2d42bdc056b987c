/**
 * The file-size rule: size follows concepts (docs/architecture.md, "Layers and
 * the op table"). A source file past {@link WARN_LINES} lines is listed as a
 * warning, a question for its reader (does it hold two concepts?); one past
 * {@link FAIL_LINES} fails `deno task check`. Tests, fixtures and benchmarks
 * are only ever warned about: a table of cases may be long and still one
 * concept. Never compress code (joined lines, nested ternaries) to meet a
 * number: split where a second concept begins, or leave the file long.
 *
 * Run from the checkout: `deno run --allow-read dev/file_sizes.ts` prints the
 * list and exits 1 when any source file is over {@link FAIL_LINES}.
 *
 * @module
 */

import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";

/** Lines past which a file is listed as a warning. */
export const WARN_LINES = 400;

/** Lines past which a source file (not a test, fixture or benchmark) fails the check. */
export const FAIL_LINES = 600;

/** What the rule says of one file: nothing, a warning, or a failure. */
export type SizeVerdict = "ok" | "warn" | "fail";

/** One file the rule has something to say about. */
export interface SizeFinding {
  /** Path relative to the checkout, `/`-separated. */
  file: string;
  /** Its line count ({@link lineCount}). */
  lines: number;
  verdict: Exclude<SizeVerdict, "ok">;
}

/**
 * Whether a file is a test, fixture or benchmark, which the rule only warns
 * about: `*_test.ts`, anything under `tests/` or `bench/`, or in a `fixtures`
 * folder.
 *
 * @param file Path relative to the checkout, `/`-separated.
 *
 * @example
 * ```ts
 * import { isTestFile } from "./file_sizes.ts";
 * if (!isTestFile("engine/pool_test.ts") || isTestFile("engine/pool.ts")) throw new Error();
 * ```
 */
export function isTestFile(file: string): boolean {
  const parts = file.split("/");
  return /_test\.[cm]?[jt]sx?$/.test(file) || parts[0] === "tests" || parts[0] === "bench" ||
    parts.includes("fixtures");
}

/**
 * The rule for one file: `fail` for a source file over {@link FAIL_LINES}
 * lines, `warn` for any file over {@link WARN_LINES} (tests at every length),
 * else `ok`.
 *
 * @param file Path relative to the checkout, `/`-separated.
 * @param lines Its line count.
 *
 * @example
 * ```ts
 * import { sizeVerdict } from "./file_sizes.ts";
 * if (sizeVerdict("engine/pool.ts", 601) !== "fail") throw new Error();
 * if (sizeVerdict("engine/pool_test.ts", 700) !== "warn") throw new Error();
 * ```
 */
export function sizeVerdict(file: string, lines: number): SizeVerdict {
  if (lines > FAIL_LINES && !isTestFile(file)) return "fail";
  return lines > WARN_LINES ? "warn" : "ok";
}

/**
 * The number of lines of a text: its newlines, plus one when the last line
 * has none.
 *
 * @example
 * ```ts
 * import { lineCount } from "./file_sizes.ts";
 * if (lineCount("a\nb\n") !== 2 || lineCount("a\nb") !== 2 || lineCount("") !== 0) {
 *   throw new Error();
 * }
 * ```
 */
export function lineCount(text: string): number {
  if (text === "") return 0;
  const newlines = text.split("\n").length - 1;
  return text.endsWith("\n") ? newlines : newlines + 1;
}

/** Generated files: their size follows their generator's. */
function generated(name: string): boolean {
  return name.endsWith(".bundle.js") || name.endsWith(".gen.ts");
}

/**
 * Every TypeScript and JavaScript file of the checkout the rule reads,
 * relative to it and sorted: hidden folders, `node_modules` and generated
 * files (`*.bundle.js`, `*.gen.ts`) left out.
 *
 * @param root The checkout's directory.
 */
export function checkedFiles(root: string): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const entry of Deno.readDirSync(dir)) {
      if (entry.name.startsWith(".") || entry.name === "node_modules") continue;
      const path = join(dir, entry.name);
      if (entry.isDirectory) walk(path);
      else if (/\.[cm]?[jt]sx?$/.test(entry.name) && !generated(entry.name)) {
        out.push(relative(root, path).replaceAll("\\", "/"));
      }
    }
  };
  walk(root);
  return out.sort();
}

/**
 * The files of the checkout over {@link WARN_LINES} lines, each with its
 * verdict, longest first.
 *
 * @param root The checkout's directory.
 */
export function sizeFindings(root: string): SizeFinding[] {
  const findings: SizeFinding[] = [];
  for (const file of checkedFiles(root)) {
    const lines = lineCount(Deno.readTextFileSync(join(root, file)));
    const verdict = sizeVerdict(file, lines);
    if (verdict !== "ok") findings.push({ file, lines, verdict });
  }
  return findings.sort((a, b) => b.lines - a.lines || a.file.localeCompare(b.file));
}

if (import.meta.main) {
  const findings = sizeFindings(fileURLToPath(new URL("../", import.meta.url)));
  for (const { file, lines, verdict } of findings) {
    console.error(
      verdict === "fail"
        ? `error: ${file}: ${lines} lines, over ${FAIL_LINES}: split it where a second concept begins`
        : `warn: ${file}: ${lines} lines, over ${WARN_LINES}: does it hold two concepts?`,
    );
  }
  if (findings.some((f) => f.verdict === "fail")) Deno.exit(1);
}
