/**
 * The context-budgeted catalog: every namespace and as many full signatures
 * as fit a token budget, in one paste-ready block (`mcpx catalog`).
 *
 * Source of the rule: spec 000, "Context-budgeted catalog": show every
 * namespace and as many full signatures as fit, round-robin, shortest first,
 * in a block whose size is bounded however many servers are configured; and
 * "Search": `--bias` counts a tag hit like a name hit. A bias word naming a
 * namespace or `namespace.tool` counts like a name hit too (the setting's help
 * says "Tags or namespaces").
 *
 * @module
 */

import { FIELD_SCORES, matchTerm, type SearchField } from "./search.ts";
import { countTokens } from "./tokens.ts";
import { fold } from "./words.ts";
import { entryDeclaration, parsedDeclarations, shareNamespace } from "./typescript.ts";
import type { NamespaceEntry, ToolEntry } from "./types.ts";
import { jsdoc } from "./_ts_text.ts";
import { copyDeclaration, type Declaration } from "./_ts_model.ts";

/** Options of {@link buildCatalog}. */
export interface CatalogOptions {
  /** Most tokens the block may cost, as {@link countTokens} counts them (≥ 0). */
  budget: number;
  /**
   * Words whose matching tools (by name or tag, or whose namespace or
   * `namespace.tool` the word is) are shown before the others.
   */
  bias?: string[];
}

/** What {@link buildCatalog} returns. */
export interface Catalog {
  /** The block, lines separated by `\n`, ending in a newline unless empty. */
  text: string;
  /** `countTokens(text)`; never more than the budget. */
  tokens: number;
  /** Full signatures included. */
  shown: number;
  /** Tools across all namespaces. */
  total: number;
}

/** Fields a bias word may hit: names and tags, as search scores them. */
const BIAS_FIELDS: ReadonlySet<SearchField> = new Set([
  "name",
  "name-prefix",
  "tag",
  "name-substring",
  "name-word",
]);

/** Longest namespace description in the list, in characters. */
const DESCRIPTION_CHARS = 60;

interface Candidate {
  entry: ToolEntry;
  ns: number;
  /** Its declaration parsed: only once it is chosen (parsing all of them grew with the config). */
  decl?: Declaration;
  /** What its declaration alone costs at one indentation level, at most ({@link declarationTokens}). */
  tokens: number;
  bias: number;
}

/**
 * What a tool scores for the bias words: each word's name or tag hit as
 * search scores it, and a name hit's score for a word that is the tool's
 * namespace (or server) or `namespace.tool`, so `--bias browser` favours the
 * whole `browser` namespace.
 */
function biasScore(entry: ToolEntry, words: string[]): number {
  if (words.length === 0) return 0;
  const namespaces = [entry.namespace, entry.server].map(fold);
  const names = namespaces.flatMap((ns) => [ns, `${ns}.${entry.fn}`, `${ns}.${entry.tool}`]);
  let score = 0;
  for (const word of words) {
    if (names.includes(fold(word))) {
      score += FIELD_SCORES.name;
      continue;
    }
    const m = matchTerm(entry, word);
    if (m && BIAS_FIELDS.has(m.field)) score += m.score;
  }
  return score;
}

function truncate(text: string, max: number): string {
  const line = text.replace(/\s+/g, " ").trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

/** Tokens of a line with its newline, counted alone (≥ its share of the whole). */
const lineTokens = (line: string) => countTokens(`${line}\n`);

/** {@link declarationTokens}' answers, by declaration text (bounded: cleared when full). */
const sizes = new Map<string, number>();

/**
 * What a declaration costs in the block, at most: its text at one indentation
 * level and a blank line. Remembered by text, so a process that builds many
 * catalogs (the front, decision 0068) sizes each declaration once: the texts
 * come from the cache it keeps, the same strings each time.
 */
function declarationTokens(source: string): number {
  let tokens = sizes.get(source);
  if (tokens === undefined) {
    tokens = lineTokens(source.replace(/^(?=.)/gm, "  ")) + lineTokens("");
    if (sizes.size >= 50_000) sizes.clear();
    sizes.set(source, tokens);
  }
  return tokens;
}

/**
 * Builds the catalog: a header line; every namespace as a `//` line (name,
 * tool count, description cut to 60 characters), or as many as fit followed
 * by a `… N more namespaces` line; then full declarations, grouped in
 * `declare namespace` blocks, chosen first for tools whose name or tag
 * matches a `bias` word (highest score first), then round-robin across
 * namespaces, shortest declaration first within each; and a footer saying
 * how many signatures were left out and what to run.
 *
 * Tokens are counted by {@link countTokens} (UTF-8 bytes / 3, rounded up, a
 * conservative estimate). Parts are budgeted by their separate counts, which
 * never undercount the whole, and the finished block is measured again and
 * trimmed until `countTokens(text) <= budget`, so the bound holds for any
 * number of namespaces; a budget too small for even the header yields a
 * shortened header or an empty block.
 *
 * @param namespaces Namespaces from the discovery view, in display order.
 * @param opts `budget` in tokens; `bias` words.
 * @returns The block, its token count, signatures shown and total tools.
 * @throws {RangeError} When `budget` is negative or not a finite number.
 * @example
 * ```ts
 * import { buildCatalog } from "./catalog.ts";
 * const catalog = await buildCatalog([], { budget: 50 });
 * if (catalog.tokens > 50) throw new Error();
 * ```
 */
export async function buildCatalog(
  namespaces: NamespaceEntry[],
  opts: CatalogOptions,
): Promise<Catalog> {
  const budget = opts.budget;
  if (!Number.isFinite(budget) || budget < 0) {
    throw new RangeError(`catalog budget must be a number of tokens ≥ 0, got ${budget}`);
  }
  const words = (opts.bias ?? []).flatMap((w) => w.split(/\s+/)).filter((w) => w.length > 0);
  const total = namespaces.reduce((n, ns) => n + ns.tools.length, 0);

  // Each declaration's size is its printed text's (the schema cache holds it printed); only the
  // declarations chosen are parsed, so the work grows with what the block shows.
  const sources = await Promise.all(namespaces.flatMap((ns) => ns.tools).map(entryDeclaration));
  const candidates: Candidate[] = [];
  const nsBias = namespaces.map(() => 0);
  let k = 0;
  namespaces.forEach((ns, i) => {
    for (const entry of ns.tools) {
      const bias = biasScore(entry, words);
      nsBias[i] = Math.max(nsBias[i], bias);
      candidates.push({ entry, ns: i, tokens: declarationTokens(sources[k++]), bias });
    }
  });
  const input: LayoutInput = { namespaces, total, budget, nsBias, candidates };
  // Full wording, or terse wording when that leaves room for more; never over budget.
  const full = await layout(input, false);
  const terse = await layout(input, true);
  // More signatures wins; on a tie full wording wins unless it lists no namespace.
  const better = (a: Layout, b: Layout) =>
    a.shown !== b.shown
      ? (a.shown > b.shown ? a : b)
      : a.listed > 0 || a.listed >= b.listed
      ? a
      : b;
  const fitting = [full, terse].filter((l) => countTokens(l.text) <= budget);
  const best = fitting.length === 0
    ? { text: shortest(namespaces.length, total, budget), shown: 0, listed: 0 }
    : fitting.reduce(better);
  return { text: best.text, tokens: countTokens(best.text), shown: best.shown, total };
}

interface LayoutInput {
  namespaces: NamespaceEntry[];
  total: number;
  budget: number;
  /** Best bias score of each namespace's tools. */
  nsBias: number[];
  candidates: Candidate[];
}

interface Layout {
  text: string;
  shown: number;
  listed: number;
}

/** Parses the declarations of `chosen` not parsed yet (a cached one that does not parse is generated). */
async function parse(chosen: Candidate[]): Promise<void> {
  const unparsed = chosen.filter((c) => c.decl === undefined);
  const declarations = await parsedDeclarations(unparsed.map((c) => c.entry));
  unparsed.forEach((c, i) => c.decl = declarations[i]);
}

/** One catalog in full or terse wording, trimmed until it fits (or nothing is left to trim). */
async function layout(input: LayoutInput, terse: boolean): Promise<Layout> {
  const { namespaces, total, budget, nsBias, candidates } = input;
  const header = terse
    ? `// mcpx: ${namespaces.length} namespaces, ${total} tools.`
    : `// mcpx catalog: ${namespaces.length} namespaces, ${total} tools. ` +
      `Call one: mcpx call <ns>.<tool> '<args JSON>'. ToolResult is its text or structured output.`;
  const footer = (shown: number) =>
    shown === total
      ? (terse ? "" : `// All ${total} signatures shown.`)
      : terse
      ? `// ${total - shown} more: mcpx types <ns>`
      : `// ${total - shown} of ${total} signatures omitted; run \`mcpx types <ns>\` or ` +
        "`mcpx types <ns>.<tool>` for them.";
  let left = budget - lineTokens(header) -
    Math.max(lineTokens(footer(0)), lineTokens(footer(total)));

  // Namespaces: biased ones first in the list when it must be cut.
  const listOrder = namespaces.map((_, i) => i).sort((a, b) => nsBias[b] - nsBias[a] || a - b);
  const nsLine = (ns: NamespaceEntry) => {
    // A server whose listing failed says so: "0 tools" and "broken" are not the same.
    const description = ns.unavailable?.code === "untrusted"
      ? "untrusted: not started until its configuration is trusted (mcpx ls)"
      : ns.error && ns.tools.length === 0
      ? "unavailable: listing failed (mcpx status)"
      : truncate(ns.description, DESCRIPTION_CHARS);
    return `//   ${ns.namespace} (${ns.tools.length})${description ? ` ${description}` : ""}`;
  };
  const more = (n: number) => `//   … ${n} more namespaces (mcpx ls)`;
  const listed: number[] = [];
  const allListTokens = listOrder.reduce((n, i) => n + lineTokens(nsLine(namespaces[i])), 0);
  if (allListTokens <= left) {
    listed.push(...listOrder);
    left -= allListTokens;
  } else {
    left -= lineTokens(more(namespaces.length));
    for (const i of listOrder) {
      const cost = lineTokens(nsLine(namespaces[i]));
      if (cost > left) break;
      listed.push(i);
      left -= cost;
    }
  }

  // Signatures: biased first, then round-robin, shortest first.
  const chosen: Candidate[] = [];
  const opened = new Set<number>();
  const wrapperTokens = (ns: number) =>
    lineTokens(`declare namespace ${namespaces[ns].namespace} {`) + lineTokens("}") +
    lineTokens("");
  const take = (c: Candidate): boolean => {
    const cost = c.tokens + (opened.has(c.ns) ? 0 : wrapperTokens(c.ns));
    if (cost > left) return false;
    left -= cost;
    opened.add(c.ns);
    chosen.push(c);
    return true;
  };
  const bySize = (a: Candidate, b: Candidate) =>
    a.tokens - b.tokens || (a.entry.fn < b.entry.fn ? -1 : a.entry.fn > b.entry.fn ? 1 : 0);
  const biased = candidates.filter((c) => c.bias > 0).sort((a, b) =>
    b.bias - a.bias || bySize(a, b)
  );
  for (const c of biased) take(c);
  const queues = namespaces.map((_, i) =>
    candidates.filter((c) => c.ns === i && c.bias === 0).sort(bySize)
  );
  let active = queues.map((_, i) => i).filter((i) => queues[i].length > 0);
  while (active.length > 0) {
    active = active.filter((i) => take(queues[i].shift()!) && queues[i].length > 0);
  }

  // Assemble; measure the whole and trim until it fits.
  const assemble = (shownList: Candidate[], nsList: number[]) => {
    const lines = [header];
    for (const i of [...nsList].sort((a, b) => a - b)) lines.push(nsLine(namespaces[i]));
    if (nsList.length < namespaces.length) lines.push(more(namespaces.length - nsList.length));
    // Each namespace's signatures as one block, saying once what they repeat
    // (never longer than the signatures alone, which the budgeting counted).
    const inOrder = [...shownList].sort((a, b) => a.ns - b.ns);
    for (const ns of new Set(inOrder.map((c) => c.ns))) {
      const group = inOrder.filter((c) => c.ns === ns);
      const shared = shareNamespace(
        group.map((c) => copyDeclaration(c.decl!)),
        group.map((c) => c.entry),
      );
      lines.push("", `${jsdoc(shared.doc)}declare namespace ${namespaces[ns].namespace} {`);
      lines.push(shared.body, "}");
    }
    if (inOrder.length > 0) lines.push("");
    const last = footer(shownList.length);
    if (last) lines.push(last);
    return lines.join("\n") + "\n";
  };
  await parse(chosen);
  let text = assemble(chosen, listed);
  while (countTokens(text) > budget && (chosen.length > 0 || listed.length > 0)) {
    if (chosen.length > 0) chosen.pop();
    else listed.pop();
    text = assemble(chosen, listed);
  }
  return { text, shown: chosen.length, listed: listed.length };
}

/** The smallest useful block, cut to the budget when even that is too long. */
function shortest(namespaceCount: number, total: number, budget: number): string {
  const forms = [
    `// mcpx: ${namespaceCount} namespaces, ${total} tools; \`mcpx ls\` lists them.\n`,
    `// mcpx: ${namespaceCount} namespaces; run mcpx ls\n`,
    "// run mcpx ls\n",
  ];
  for (const form of forms) if (countTokens(form) <= budget) return form;
  let text = forms.at(-1)!;
  while (text.length > 0 && countTokens(text) > budget) text = text.slice(0, -1);
  return text;
}
