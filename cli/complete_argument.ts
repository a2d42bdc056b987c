/**
 * `--complete name=prefix` of `mcpx prompts ns.prompt` and `mcpx resources ns
 * <template>`: asks the server for the values of one argument (MCP
 * `completion/complete`, through the daemon's `complete` route) and prints
 * them one per line; `--json` prints the whole answer (engine/complete.ts
 * `Completion`). The other `key=value` words go along as context, which a
 * server may use to narrow the values. A server without completion prints
 * nothing and says so on stderr; that is not a failure (exit 0).
 *
 * @module
 */

import type { CliContext } from "./context.ts";
import { printJson } from "./json_out.ts";
import { contentFields } from "./content_request.ts";
import { UsageError } from "../core/errors.ts";
import { parseKeyValues } from "../core/key_values.ts";
import { terminalText } from "../core/terminal_text.ts";
import type { Completion, CompletionRef } from "../engine/complete.ts";

/**
 * Prints the completions of `spec` (`name=prefix`) for `ref` of `namespace`.
 *
 * @param words The other `key=value` words: context.
 * @returns The exit status, 0.
 * @throws {UsageError} for a `spec` without `=`, or naming an argument also given in `words`.
 */
export async function completeArgument(
  ctx: CliContext,
  namespace: string,
  ref: CompletionRef,
  spec: string,
  words: string[],
  timeout: string | undefined,
): Promise<number> {
  const eq = spec.indexOf("=");
  if (eq <= 0) {
    throw new UsageError(
      `--complete takes name=prefix, got "${spec}"; e.g. --complete ${
        ref.type === "ref/prompt" ? "city=Pa" : "id=1"
      } (an empty prefix, name=, asks for every value)`,
    );
  }
  const argument = { name: spec.slice(0, eq), value: spec.slice(eq + 1) };
  const context = parseKeyValues(
    words,
    ref.type === "ref/prompt" ? "prompt arguments" : "template variables",
  );
  if (Object.hasOwn(context, argument.name)) {
    throw new UsageError(
      `"${argument.name}" is both completed and given; drop ${argument.name}=… or --complete`,
    );
  }
  const { timeoutMs } = await contentFields(ctx, timeout, namespace);
  const result = await ctx.request<Completion>("complete", {
    namespace,
    ref,
    argument,
    ...(Object.keys(context).length ? { context } : {}),
    ...(timeoutMs !== undefined ? { timeoutMs } : {}),
  });
  if (await ctx.json()) {
    printJson(ctx.io, result);
    return 0;
  }
  if (!result.offered) {
    ctx.io.err(`note: ${namespace} offers no completion\n`);
    return 0;
  }
  // One value a line, as the terminal shows text (decision 0023): a line break in one is escaped.
  const lines = result.values.map((v) => terminalText(v).replaceAll("\n", "\\n"));
  if (lines.length) ctx.io.out(lines.join("\n") + "\n");
  if (result.hasMore) {
    ctx.io.err(
      `note: ${
        result.total ?? "more"
      } values in all; type more of ${argument.name} to narrow them\n`,
    );
  }
  return 0;
}
