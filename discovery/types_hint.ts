/**
 * What loading the signatures of some tools costs, next to loading their
 * whole namespaces: the line `mcpx search` ends with, so an agent loads only
 * the signatures it needs.
 *
 * Source of the rule: issue 8, "Token economy of `types`" (search ends with
 * the `mcpx types` command for exactly its hits and its token cost next to
 * the whole namespace's). Tokens are counted as discovery/tokens.ts counts
 * them, the same count `mcpx catalog --budget` uses.
 *
 * @module
 */

import { countTokens } from "./tokens.ts";
import { namespaceBlock, parsedDeclarations, TYPES_PREAMBLE } from "./typescript.ts";
import type { BlockSize, NamespaceEntry, RenderedBlock, ToolEntry } from "./types.ts";
import { copyDeclaration, type Declaration } from "./_ts_model.ts";
import { groupedDigits } from "../core/number_text.ts";
import { blockKey } from "./block_key.ts";

const encoder = new TextEncoder();

/**
 * A namespace's whole `mcpx types` block, laid out: what the daemon stores
 * with the server's entry, beside its size ({@link sizeOf}), when it lists
 * the server (engine/block_sizes.ts), so a search's hint need not lay out
 * every declaration of a namespace of 1,000 tools, nor `mcpx types` parse them.
 *
 * @param ns A namespace of the discovery view, with its tools' declarations.
 * @param decls Its tools' declarations, parsed, in tool order, when the
 *   caller has them already; absent: parsed (or made) here.
 * @returns Its key and its text (discovery/typescript.ts `namespaceBlock`).
 */
export async function wholeBlock(
  ns: NamespaceEntry,
  decls?: Declaration[],
): Promise<RenderedBlock> {
  const text = namespaceBlock(ns, ns.tools, decls ?? await parsedDeclarations(ns.tools));
  return { key: blockKey(ns), text };
}

/** The size of a laid-out block ({@link wholeBlock}), in UTF-8 bytes. */
export function sizeOf(block: RenderedBlock): BlockSize {
  return { key: block.key, bytes: encoder.encode(block.text).length };
}

/** What {@link typesHint} returns. */
export interface TypesHint {
  /** `namespace.fn` of each tool, in the order given. */
  refs: string[];
  /** The command that prints their signatures: `mcpx types <refs…>`. */
  command: string;
  /** Tokens of that command's output. */
  tokens: number;
  /** The namespaces the tools belong to, in first-seen order. */
  namespaces: string[];
  /** Tokens of `mcpx types <namespaces…>`: loading them whole. */
  namespaceTokens: number;
}

/**
 * The `mcpx types` command for exactly `tools`, and what its output and the
 * output for their whole namespaces cost, rendered as `mcpx types` renders
 * them.
 *
 * @param namespaces The discovery view's namespaces (the tools' own among them).
 * @param tools Tools to load, e.g. search hits; at least one.
 * @returns The hint; `tokens` ≤ `namespaceTokens` up to rounding.
 * @throws {RangeError} When `tools` is empty.
 */
export async function typesHint(
  namespaces: NamespaceEntry[],
  tools: ToolEntry[],
): Promise<TypesHint> {
  if (tools.length === 0) throw new RangeError("typesHint needs at least one tool");
  const refs = tools.map((t) => `${t.namespace}.${t.fn}`);
  const names = [...new Set(tools.map((t) => t.namespace))];
  const whole = names.map((n) => namespaces.find((ns) => ns.namespace === n)).filter(
    (ns): ns is NamespaceEntry => ns !== undefined,
  );
  const hits = new Set(tools.map((t) => `${t.namespace}.${t.fn}`));
  // A whole block's size worked out when listed is used while its key holds; else each
  // declaration is parsed once and laid out twice: with the hits alone, and whole.
  const blocks = await Promise.all(whole.map(async (ns) => {
    const known = ns.blocks?.find((b) => b.key === blockKey(ns))?.bytes;
    const picked = ns.tools.filter((t) => hits.has(`${t.namespace}.${t.fn}`));
    if (known !== undefined) {
      return { some: namespaceBlock(ns, picked, await parsedDeclarations(picked)), all: known };
    }
    const decls = await parsedDeclarations(ns.tools);
    const pick = decls.filter((_, i) => hits.has(`${ns.tools[i].namespace}.${ns.tools[i].fn}`));
    return {
      some: namespaceBlock(ns, picked, pick.map(copyDeclaration)),
      all: encoder.encode(namespaceBlock(ns, ns.tools, decls)).length,
    };
  }));
  // As `mcpx types` prints them (discovery/typescript.ts renderTypes): the preamble and the
  // blocks joined by blank lines, ending in a newline; tokens count UTF-8 bytes (tokens.ts).
  const some = [TYPES_PREAMBLE, ...blocks.map((b) => b.some)].join("\n\n") + "\n";
  const all = encoder.encode(TYPES_PREAMBLE).length + 1 +
    blocks.reduce((sum, b) => sum + 2 + b.all, 0);
  return {
    refs,
    command: `mcpx types ${refs.join(" ")}`,
    tokens: countTokens(some),
    namespaces: names,
    namespaceTokens: Math.ceil(all / 3),
  };
}

/**
 * The hint as one line: `types for these 4: mcpx types a.x a.y a.z a.w
 * (~610 tokens); whole namespace ~7,200`.
 */
export function typesHintLine(hint: TypesHint): string {
  const n = hint.refs.length;
  const what = n === 1 ? "types for this one" : `types for these ${n}`;
  const whole = hint.namespaces.length === 1 ? "whole namespace" : "whole namespaces";
  return `${what}: ${hint.command} (~${groupedDigits(hint.tokens)} tokens); ` +
    `${whole} ~${groupedDigits(hint.namespaceTokens)}`;
}
