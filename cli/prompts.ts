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

import type { CliContext } from "./context.ts";
import { renderTable, truncate } from "./table.ts";
import { printJson } from "./json_out.ts";
import { contentFields } from "./content_request.ts";
import { completeArgument } from "./complete_argument.ts";
import { UsageError } from "../core/errors.ts";
import { parseKeyValues } from "../core/key_values.ts";
import { type ContentBlock, describeBlock } from "../client/content_text.ts";
import type { PromptInfo, PromptsOf } from "../engine/content.ts";
import type { InputOf } from "../ops/op.ts";
import type { prompts } from "../ops/content_ops.ts";

export async function run(ctx: CliContext, input: InputOf<typeof prompts>): Promise<number> {
  const { target, arguments: words } = input;
  const dot = target?.indexOf(".") ?? -1;
  if (target !== undefined && dot >= 0) {
    if (dot === 0 || dot === target.length - 1) {
      throw new UsageError(
        `"${target}" is not <namespace>.<prompt>; \`mcpx prompts\` lists the prompts`,
      );
    }
    const [namespace, prompt] = [target.slice(0, dot), target.slice(dot + 1)];
    if (input.complete !== undefined) {
      const ref = { type: "ref/prompt" as const, name: prompt };
      return await completeArgument(ctx, namespace, ref, input.complete, words, input.timeout);
    }
    return await render(ctx, namespace, prompt, words, input.timeout);
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
  if (await ctx.json()) {
    printJson(ctx.io, { namespaces: listed });
  } else {
    const rows = listed.flatMap((ns) =>
      ns.prompts.map((p) => [`${ns.namespace}.${p.name}`, argumentsText(p), about(p)])
    );
    if (rows.length) ctx.io.out(renderTable(["PROMPT", "ARGUMENTS", "DESCRIPTION"], rows));
    const empty = listed.filter((ns) => !ns.error && ns.prompts.length === 0);
    if (target !== undefined && empty.length) {
      ctx.io.out(`${empty[0].namespace} publishes no prompts\n`);
    } else if (rows.length === 0 && !listed.some((ns) => ns.error)) {
      ctx.io.out(`no prompts in ${listed.length} namespaces\n`);
    } else if (rows.length) {
      ctx.io.out(`render one: mcpx prompts <namespace>.<prompt> key=value…\n`);
    }
  }
  for (const ns of listed) if (ns.error) ctx.io.err(`error: ${ns.namespace}: ${ns.error}\n`);
  return listed.some((ns) => ns.error) ? 1 : 0;
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

async function render(
  ctx: CliContext,
  namespace: string,
  prompt: string,
  words: string[],
  timeout: string | undefined,
): Promise<number> {
  const args = parseKeyValues(words, "prompt arguments");
  const result = await ctx.request<{ description?: string; messages?: PromptMessage[] }>(
    "promptGet",
    { namespace, prompt, arguments: args, ...await contentFields(ctx, timeout, namespace) },
  );
  if (await ctx.json()) {
    printJson(ctx.io, result);
    return 0;
  }
  const hint = `\`mcpx --json prompts ${namespace}.${prompt} …\` prints it whole`;
  const parts = (result.messages ?? []).map((m) => {
    const blocks = Array.isArray(m.content) ? m.content : m.content ? [m.content] : [];
    return `${m.role ?? "?"}:\n${blocks.map((b) => blockText(b, hint)).join("\n")}`;
  });
  ctx.io.out(parts.length ? parts.join("\n\n") + "\n" : `${namespace}.${prompt}: no messages\n`);
  return 0;
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
