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
import type { NamespaceEntry, ToolEntry } from "./types.ts";
import { copyDeclaration } from "./_ts_model.ts";
import { groupedDigits } from "../core/number_text.ts";

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
  // Each declaration is parsed once and laid out twice: with the hits alone, and whole.
  const blocks = await Promise.all(whole.map(async (ns) => {
    const decls = await parsedDeclarations(ns.tools);
    const hit = ns.tools.map((t) =>
      tools.some((h) => h.namespace === t.namespace && h.fn === t.fn)
    );
    const pick = <T>(list: T[]) => list.filter((_, i) => hit[i]);
    return {
      some: namespaceBlock(ns, pick(ns.tools), pick(decls).map(copyDeclaration)),
      all: namespaceBlock(ns, ns.tools, decls),
    };
  }));
  // As `mcpx types` prints them (discovery/typescript.ts renderTypes).
  const text = (part: "some" | "all") =>
    [TYPES_PREAMBLE, ...blocks.map((b) => b[part])].join("\n\n") + "\n";
  const [some, all] = [text("some"), text("all")];
  return {
    refs,
    command: `mcpx types ${refs.join(" ")}`,
    tokens: countTokens(some),
    namespaces: names,
    namespaceTokens: countTokens(all),
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
