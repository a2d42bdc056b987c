/**
 * `mcpx exec '<code>' [args…]` and `mcpx exec - [args…]` (the program on
 * stdin): TypeScript run like a script, with every namespace, `tools`, `log`
 * and `emit` as globals (spec 000, "Alternative input modes").
 *
 * The code becomes a module in the cache, beside its own generated client. A
 * single expression (`everything.echo({ message: "hi" })`) is the entry's
 * return value, so its result is printed; anything else runs as a module body
 * (print with `console.log`, or `export default` a function).
 *
 * @module
 */

import type { CliContext } from "./context.ts";
import { runScript } from "../runner/run_script.ts";
import { sha256 } from "../client/client_file.ts";
import { join } from "../config/posix_path.ts";
import { UsageError } from "../errors.ts";

const STATEMENT =
  /^\s*(?:import|export|const|let|var|function|async\s+function|class|if|for|while|do|switch|try|throw|return|interface|type|enum|declare)\b/;

/**
 * The module for `code`: a lone expression is wrapped in a default export
 * returning it; a program is used as written.
 */
export function execModule(code: string): string {
  const trimmed = code.trim().replace(/;+$/, "");
  const oneExpression = !STATEMENT.test(trimmed) && !/[;\n]/.test(trimmed) && trimmed !== "";
  return oneExpression
    ? `export default async function main() {\n  return (\n${trimmed}\n  );\n}\n`
    : code.endsWith("\n")
    ? code
    : code + "\n";
}

export async function run(
  ctx: CliContext,
  positionals: string[],
  options: Record<string, unknown>,
): Promise<number> {
  const [given, ...args] = positionals;
  if (given === undefined) {
    throw new UsageError(
      "give the code: `mcpx exec '<code>'`, or `mcpx exec -` to read it from stdin",
    );
  }
  const code = given === "-" ? await ctx.io.readStdin() : given;
  if (code.trim() === "") {
    throw new UsageError(given === "-" ? "stdin held no program" : "the code is empty");
  }
  const config = await ctx.config();
  const dir = join(ctx.paths().cacheDir, "exec", config.fingerprint.slice(0, 16));
  await Deno.mkdir(dir, { recursive: true });
  const text = execModule(code);
  const path = join(dir, `exec-${(await sha256(text)).slice(0, 24)}.ts`);
  await Deno.writeTextFile(path, text);
  return await runScript(ctx, { path, name: "exec", args }, options);
}
