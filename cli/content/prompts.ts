/**
 * `mcpx prompts [namespace | namespace.prompt [key=value…]]`: the prompts
 * servers publish, or one rendered (spec 000, "The half of MCP that is not
 * tools"). A listing shows each prompt's arguments with the required ones
 * marked; rendering checks the arguments against the prompt's declaration in
 * the daemon (engine/named_arguments.ts) and prints each message as its role
 * and its text, other content described rather than inlined. `--json` prints
 * the listing, or the server's whole `GetPromptResult`.
 *
 * @module
 */

import type { CliContext } from "../context.ts";
import { renderTable, truncate } from "../table.ts";
import { contentFields } from "./content_request.ts";
import { completeArgument, completionText } from "./complete_argument.ts";
import type { Text, TextView } from "../commands.ts";
import { type Answered, failed, ok } from "../../ops/outcome.ts";
import type { Completion } from "../../engine/complete.ts";
import { UsageError } from "../../core/errors.ts";
import { parseKeyValues } from "../../core/key_values.ts";
import { type ContentBlock, describeBlock } from "../../client/content_text.ts";
import type { PromptInfo, PromptsOf } from "../../engine/content.ts";
import type { InputOf } from "../../ops/op.ts";
import type { prompts } from "../../ops/content_ops.ts";

/** What `mcpx prompts` lists: each namespace's prompts, or why it could not list them. */
export interface PromptsListing {
  namespaces: PromptsOf[];
}

/** A rendered prompt, the server's `GetPromptResult`. */
export interface RenderedPrompt {
  description?: string;
  messages?: PromptMessage[];
  [key: string]: unknown;
}

/**
 * Runs `mcpx prompts`: lists the prompts, renders one, or completes one of
 * its arguments (`--complete`).
 *
 * @returns `ok` with `{ namespaces }` (`failed` when a namespace could not
 *   list, its `error` set), the server's `GetPromptResult`, or the
 *   server's completion (engine/complete.ts `Completion`).
 * @throws {UsageError} For a malformed name, or flags and words that do not go together.
 */
export async function handle(
  ctx: CliContext,
  input: InputOf<typeof prompts>,
): Promise<Answered<PromptsListing | RenderedPrompt | Completion>> {
  const { target, arguments: words } = input;
  const named = promptOf(target);
  if (named) {
    const [namespace, prompt] = named;
    if (input.complete !== undefined) {
      const ref = { type: "ref/prompt" as const, name: prompt };
      return ok(await completeArgument(ctx, namespace, ref, input.complete, words, input.timeout));
    }
    const args = parseKeyValues(words, "prompt arguments");
    return ok(
      await ctx.request<RenderedPrompt>("promptGet", {
        namespace,
        prompt,
        arguments: args,
        ...await contentFields(ctx, input.timeout, namespace),
      }),
    );
  }
  if (input.complete !== undefined) {
    throw new UsageError(
      `--complete completes an argument of one prompt: \`mcpx prompts ${
        target ?? "<namespace>"
      }.<prompt> --complete ${input.complete}\``,
    );
  }
  if (words.length) {
    throw new UsageError(
      `key=value arguments render a prompt: name it as <namespace>.<prompt>, e.g. ` +
        `\`mcpx prompts ${target ?? "<namespace>"}.<prompt> ${words[0]}\``,
    );
  }
  const listed = await ctx.request<PromptsOf[]>("prompts", {
    ...(target !== undefined ? { namespace: target } : {}),
    ...await contentFields(ctx, input.timeout, target),
  });
  return (listed.some((ns) => ns.error) ? failed : ok)({ namespaces: listed });
}

/**
 * `[namespace, prompt]` of a `<namespace>.<prompt>` target; undefined for a
 * namespace alone or none.
 *
 * @throws {UsageError} For a dot at either end.
 */
function promptOf(target: string | undefined): [string, string] | undefined {
  const dot = target?.indexOf(".") ?? -1;
  if (target === undefined || dot < 0) return undefined;
  if (dot === 0 || dot === target.length - 1) {
    throw new UsageError(
      `"${target}" is not <namespace>.<prompt>; \`mcpx prompts\` lists the prompts`,
    );
  }
  return [target.slice(0, dot), target.slice(dot + 1)];
}

/**
 * The terminal's rendering: the listing as a table (or why it is empty) with
 * how to render one; a rendered prompt as each message's role and text; a
 * completion one value a line.
 */
export function text(value: PromptsListing | RenderedPrompt | Completion, view: TextView): Text {
  const input = view.input as InputOf<typeof prompts>;
  const named = promptOf(input.target);
  if (named && input.complete !== undefined) {
    return completionText(value as Completion, named[0], input.complete);
  }
  if (named) return renderedText(value as RenderedPrompt, named[0], named[1]);
  return listingText((value as PromptsListing).namespaces, input.target);
}

/** Each namespace that could not list its prompts, as an `error:` line, in either mode. */
export function errorLines(value: PromptsListing | RenderedPrompt | Completion): string {
  const listed = (value as Partial<PromptsListing>).namespaces;
  if (!Array.isArray(listed)) return "";
  return listed.filter((ns) => ns.error).map((ns) => `error: ${ns.namespace}: ${ns.error}\n`)
    .join("");
}

function listingText(listed: PromptsOf[], target: string | undefined): string {
  const rows = listed.flatMap((ns) =>
    ns.prompts.map((p) => [`${ns.namespace}.${p.name}`, argumentsText(p), about(p)])
  );
  let out = rows.length ? renderTable(["PROMPT", "ARGUMENTS", "DESCRIPTION"], rows) : "";
  const empty = listed.filter((ns) => !ns.error && ns.prompts.length === 0);
  if (target !== undefined && empty.length) {
    out += `${empty[0].namespace} publishes no prompts\n`;
  } else if (rows.length === 0 && !listed.some((ns) => ns.error)) {
    out += `no prompts in ${listed.length} namespaces\n`;
  } else if (rows.length) {
    out += `render one: mcpx prompts <namespace>.<prompt> key=value…\n`;
  }
  return out;
}

/** `city (required), state`, or `-`. */
function argumentsText(prompt: PromptInfo): string {
  const args = prompt.arguments ?? [];
  return args.length
    ? args.map((a) => `${a.name}${a.required ? " (required)" : ""}`).join(", ")
    : "-";
}

function about(prompt: PromptInfo): string {
  return truncate(prompt.description ?? prompt.title ?? "", 100);
}

/** A rendered prompt's message, as the server sent it. */
interface PromptMessage {
  role?: string;
  content?: ContentBlock | ContentBlock[];
}

function renderedText(result: RenderedPrompt, namespace: string, prompt: string): string {
  const hint = `\`mcpx --json prompts ${namespace}.${prompt} …\` prints it whole`;
  const parts = (result.messages ?? []).map((m) => {
    const blocks = Array.isArray(m.content) ? m.content : m.content ? [m.content] : [];
    return `${m.role ?? "?"}:\n${blocks.map((b) => blockText(b, hint)).join("\n")}`;
  });
  return parts.length ? parts.join("\n\n") + "\n" : `${namespace}.${prompt}: no messages\n`;
}

/** Text as text; anything else (an embedded resource too) described with where to get it. */
function blockText(block: ContentBlock, hint: string): string {
  if (block.type === "text") return block.text ?? "";
  if (block.type === "resource" && typeof block.resource?.text === "string") {
    const r = block.resource;
    const bytes = new TextEncoder().encode(r.text!).length;
    return `[resource ${r.uri ?? ""}: ${r.mimeType ?? "text"}, ${bytes} bytes of text; ${hint}]`;
  }
  return describeBlock(block, hint);
}
