/**
 * Runs the code examples of the docstrings (`deno test --doc`) as part of
 * `deno task check`: an `@example` that no longer type-checks or whose
 * assertion throws fails the check, so an example cannot drift from the
 * function it shows.
 *
 * Only modules whose docstrings hold a fenced code block are handed to
 * `deno test` (about a quarter of the source), in parallel: each module given
 * is also loaded as a test module of its own, and loading all of them cost
 * more than the examples. Test files (`*_test.ts`), fixtures and generated
 * files (dev/file_sizes.ts {@link checkedFiles}) are left out.
 *
 * Run from the checkout: `deno run -A dev/doc_tests.ts`; it exits with
 * `deno test`'s status.
 *
 * @module
 */

import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { checkedFiles } from "./file_sizes.ts";

/** A fenced code block's opening line inside a docstring: ` * ```ts`. */
const DOC_FENCE = /^\s*\*\s*```/m;

/**
 * Whether a file's examples are run: not a test file or fixture, and a fence
 * in its docstrings.
 *
 * @param file Path relative to the checkout, `/`-separated.
 * @param text The file's text.
 *
 * @example
 * ```ts
 * import { hasDocExamples } from "./doc_tests.ts";
 * const fence = "`".repeat(3);
 * const text = ` * Says hi.\n * ${fence}ts\n * hi();\n * ${fence}\n`;
 * if (!hasDocExamples("core/f.ts", text) || hasDocExamples("core/f_test.ts", text)) {
 *   throw new Error();
 * }
 * ```
 */
export function hasDocExamples(file: string, text: string): boolean {
  if (/_test\.[cm]?[jt]sx?$/.test(file) || file.split("/").includes("fixtures")) return false;
  return DOC_FENCE.test(text);
}

/**
 * The files of the checkout whose examples `deno test --doc` runs, relative to it.
 *
 * @param root The checkout's directory.
 */
export function docTestFiles(root: string): string[] {
  return checkedFiles(root).filter((file) =>
    hasDocExamples(file, Deno.readTextFileSync(join(root, file)))
  );
}

if (import.meta.main) {
  const root = fileURLToPath(new URL("../", import.meta.url));
  const { code } = await new Deno.Command(Deno.execPath(), {
    args: ["test", "--doc", "--parallel", "-A", "--no-check=remote", ...docTestFiles(root)],
    cwd: root,
    stdin: "null",
  }).spawn().status;
  Deno.exit(code);
}
