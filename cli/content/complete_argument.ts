/**
 * `--complete name=prefix` of `mcpx prompts ns.prompt` and `mcpx resources ns
 * <template>`: asks the server for the values of one argument (MCP
 * `completion/complete`, through the daemon's `complete` route); the terminal
 * shows them one per line, `--json` the whole answer (engine/complete.ts
 * `Completion`). The other `key=value` words go along as context, which a
 * server may use to narrow the values. A server without completion shows
 * nothing and says so on stderr; that is not a failure (exit 0).
 *
 * @module
 */

import type { CliContext } from "../context.ts";
import type { Text } from "../commands.ts";
import { contentFields } from "./content_request.ts";
import { UsageError } from "../../core/errors.ts";
import { parseKeyValues } from "../../core/key_values.ts";
import { terminalText } from "../../core/terminal_text.ts";
import type { Completion, CompletionRef } from "../../engine/complete.ts";

/**
 * Asks for the completions of `spec` (`name=prefix`) for `ref` of `namespace`.
 *
 * @param words The other `key=value` words: context.
 * @returns The server's answer, as the daemon's `complete` route gives it.
 * @throws {UsageError} for a `spec` without `=`, or naming an argument also given in `words`.
 */
export async function completeArgument(
  ctx: CliContext,
  namespace: string,
  ref: CompletionRef,
  spec: string,
  words: string[],
  timeout: string | undefined,
): Promise<Completion> {
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
  return await ctx.request<Completion>("complete", {
    namespace,
    ref,
    argument,
    ...(Object.keys(context).length ? { context } : {}),
    ...(timeoutMs !== undefined ? { timeoutMs } : {}),
  });
}

/**
 * The terminal's rendering of a completion: one value a line on stdout, as
 * the terminal shows text (decision 0023: a line break in one is escaped);
 * on stderr, a note when the server offers no completion or has more values.
 *
 * @param namespace The namespace asked, which the note names.
 * @param spec The `--complete` word (`name=prefix`), whose name the note names.
 */
export function completionText(result: Completion, namespace: string, spec: string): Text {
  if (!result.offered) return { err: `note: ${namespace} offers no completion\n` };
  const lines = result.values.map((v) => terminalText(v).replaceAll("\n", "\\n"));
  const name = spec.slice(0, spec.indexOf("="));
  return {
    out: lines.length ? lines.join("\n") + "\n" : "",
    err: result.hasMore
      ? `note: ${result.total ?? "more"} values in all; type more of ${name} to narrow them\n`
      : "",
  };
}
