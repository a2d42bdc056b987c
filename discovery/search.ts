/**
 * Ranked tool search over the discovery view.
 *
 * Source of the rules: spec 000, "Search": exact name 100, prefix 60, config
 * tag 50, substring 40, split/stemmed name word 40, function path 30,
 * namespace 20, description 10; all terms first, any-term fallback; `--tag`
 * filters exactly; `--explain` shows the per-term, per-field breakdown;
 * `-n` caps results, default 20. Case and diacritics are folded alike on
 * both sides (`hello` finds `héllo`; discovery/words.ts `fold`).
 *
 * @module
 */

import { stem } from "./stem.ts";
import type { IndexedTool, ToolEntry, ToolTerms } from "./types.ts";
import { fold, stemmedWords } from "./words.ts";
import { toIdentifier } from "../config/identifiers.ts";

/** Which field of a tool a term matched, for `--explain`. */
export type SearchField =
  | "name"
  | "name-prefix"
  | "tag"
  | "name-substring"
  | "name-word"
  | "path"
  | "namespace"
  | "description";

/** Points per field (spec 000, "Search"). */
export const FIELD_SCORES: Readonly<Record<SearchField, number>> = {
  name: 100,
  "name-prefix": 60,
  tag: 50,
  "name-substring": 40,
  "name-word": 40,
  path: 30,
  namespace: 20,
  description: 10,
};

/** One term's best match on one tool. */
export interface TermMatch {
  term: string;
  field: SearchField;
  score: number;
}

/** One ranked result. */
export interface SearchHit {
  entry: ToolEntry;
  /** Sum of each matching term's best field score (0 for an empty query). */
  score: number;
  /** Per-term best matches, in query order; present when `explain` was asked. */
  explain?: TermMatch[];
}

/** Options of {@link searchTools}. */
export interface SearchOptions {
  /** Most hits returned (default 20). */
  limit?: number;
  /** Keep only tools carrying exactly this tag (server `tags` or `toolTags`). */
  tag?: string;
  /** Attach the per-term breakdown to each hit. */
  explain?: boolean;
}

/** What {@link searchTools} returns. */
export interface SearchResult {
  /** `all` when every term had to match; `any` after the fallback. */
  mode: "all" | "any";
  /** Hits by score descending, then namespace, then function name. */
  hits: SearchHit[];
}

/** The parts of a tool that terms are matched against, lowercased and split once. */
// Word lists are arrays, not sets: a tool has a few dozen words at most, and a search builds
// this for every tool of every namespace, where making a set each costs more than it saves.
interface Indexed {
  entry: ToolEntry;
  names: string[];
  nameWords: readonly string[];
  tags: readonly string[];
  path: string;
  namespaces: string[];
  namespaceWords: readonly string[];
  descriptionWords: readonly string[];
}

/**
 * The words search matches a tool's names and description against, worked
 * out once: the daemon stores them in the cache's index when it lists a
 * server (engine/schema_cache.ts), so a search does not split and stem every
 * description of the configuration each time.
 *
 * @param tool A tool as listed: its real name, and its description (else its title).
 * @returns Stemmed words of its real name and function identifier, and of its description.
 * @example
 * ```ts
 * import { toolTerms } from "./search.ts";
 * const terms = toolTerms({ name: "take-screenshot", description: "Takes screenshots" });
 * if (!terms.name.includes("screenshot") || !terms.description.includes("take")) throw new Error();
 * ```
 */
export function toolTerms(tool: IndexedTool): ToolTerms {
  return {
    name: [...new Set([...stemmedWords(toIdentifier(tool.name)), ...stemmedWords(tool.name)])],
    description: [...new Set(stemmedWords(tool.description ?? tool.title ?? ""))],
  };
}

/** A namespace's folded names and words, worked out once per namespace, not per tool. */
interface NamespaceWords {
  namespaces: string[];
  namespaceWords: readonly string[];
}

function index(entry: ToolEntry, memo?: Map<string, NamespaceWords>): Indexed {
  const names = [...new Set([fold(entry.fn), fold(entry.tool)])];
  const key = `${entry.namespace}\0${entry.server}`;
  let ns = memo?.get(key);
  if (!ns) {
    const namespaces = [...new Set([fold(entry.namespace), fold(entry.server)])];
    ns = { namespaces, namespaceWords: namespaces.flatMap(stemmedWords) };
    memo?.set(key, ns);
  }
  const terms = entry.terms ?? {
    name: [...stemmedWords(entry.fn), ...stemmedWords(entry.tool)],
    description: stemmedWords(entry.description),
  };
  return {
    entry,
    names,
    nameWords: terms.name,
    tags: entry.tags.length ? entry.tags.flatMap((t) => [fold(t), stem(fold(t))]) : [],
    path: fold(`${entry.namespace}.${entry.fn}`),
    namespaces: ns.namespaces,
    namespaceWords: ns.namespaceWords,
    descriptionWords: terms.description,
  };
}

/** A query word, folded and split once for every tool it is matched against. */
interface Term {
  term: string;
  folded: string;
  stemmed: string;
  words: string[];
}

function termOf(term: string): Term {
  const folded = fold(term);
  return { term, folded, stemmed: stem(folded), words: stemmedWords(term) };
}

function matchIndexed(tool: Indexed, query: Term): TermMatch | null {
  const { term, folded: t, words } = query;
  const all = (list: readonly string[]) => words.length > 0 && words.every((w) => list.includes(w));
  let field: SearchField | null = null;
  if (tool.names.some((n) => n === t)) field = "name";
  else if (tool.names.some((n) => n.startsWith(t))) field = "name-prefix";
  else if (tool.tags.includes(t) || tool.tags.includes(query.stemmed)) field = "tag";
  else if (tool.names.some((n) => n.includes(t)) || all(tool.nameWords)) field = "name-substring";
  else if (t.includes(".") && tool.path.includes(t)) field = "path";
  else if (tool.namespaces.some((n) => n.includes(t)) || all(tool.namespaceWords)) {
    field = "namespace";
  } else if (all(tool.descriptionWords)) field = "description";
  if (field === null) return null;
  // A stemmed-word hit is worth the same as a substring; say which it was.
  if (field === "name-substring" && !tool.names.some((n) => n.includes(t))) field = "name-word";
  return { term, field, score: FIELD_SCORES[field] };
}

/**
 * The best field a single term matches on one tool, or null. Used by search
 * and by the catalog's `--bias`.
 *
 * @param entry The tool.
 * @param term One query word (case and diacritics are ignored; it is split and stemmed like names).
 * @returns The best match, or null when the term matches nothing.
 * @example
 * ```ts
 * import { matchTerm } from "./search.ts";
 * const entry = { namespace: "cd", server: "cd", tool: "take_screenshot", fn: "take_screenshot",
 *   description: "", tags: [], inputSchema: {} };
 * if (matchTerm(entry, "screenshots")?.score !== 40) throw new Error();
 * ```
 */
export function matchTerm(entry: ToolEntry, term: string): TermMatch | null {
  return matchIndexed(index(entry), termOf(term));
}

/** Query words: strings split on whitespace, empties dropped. */
function termsOf(query: string | string[]): string[] {
  const parts = typeof query === "string" ? [query] : query;
  return parts.flatMap((p) => p.split(/\s+/)).filter((p) => p.length > 0);
}

function compareHits(a: SearchHit, b: SearchHit): number {
  return b.score - a.score ||
    cmp(a.entry.namespace, b.entry.namespace) ||
    cmp(a.entry.fn, b.entry.fn);
}

function cmp(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Ranks tools against a query. A term's score on a tool is its best field
 * ({@link FIELD_SCORES}); a hit's score is the sum over terms. Every term must
 * match (`mode: "all"`); when no tool matches them all, any matching term is
 * enough (`mode: "any"`). An empty query returns every tool, score 0.
 *
 * @param entries Tools from the discovery view.
 * @param query Words, as one string or argv-style; each is split on whitespace.
 * @param opts Limit (default 20), exact tag filter, explain.
 * @returns The mode used and the hits, best first, at most `limit`.
 * @throws {RangeError} When `limit` is negative or not a number.
 * @example
 * ```ts
 * import { searchTools } from "./search.ts";
 * const { hits } = searchTools([], "screenshot");
 * if (hits.length !== 0) throw new Error();
 * ```
 */
export function searchTools(
  entries: ToolEntry[],
  query: string | string[],
  opts: SearchOptions = {},
): SearchResult {
  const limit = opts.limit ?? 20;
  if (!(limit >= 0)) throw new RangeError(`search limit must be 0 or more, got ${limit}`);
  const pool = opts.tag === undefined ? entries : entries.filter((e) => e.tags.includes(opts.tag!));
  const terms = termsOf(query);
  if (terms.length === 0) {
    const hits = pool.map((entry): SearchHit => ({
      entry,
      score: 0,
      ...(opts.explain ? { explain: [] } : {}),
    }));
    return { mode: "all", hits: hits.sort(compareHits).slice(0, limit) };
  }
  const queries = terms.map(termOf);
  const memo = new Map<string, NamespaceWords>();
  const matched = pool.map((entry) => {
    const tool = index(entry, memo);
    return { entry, matches: queries.map((query) => matchIndexed(tool, query)) };
  });
  const rank = (keep: (m: (TermMatch | null)[]) => boolean): SearchHit[] =>
    matched.filter((m) => keep(m.matches)).map(({ entry, matches }) => {
      const found = matches.filter((m): m is TermMatch => m !== null);
      const hit: SearchHit = { entry, score: found.reduce((sum, m) => sum + m.score, 0) };
      if (opts.explain) hit.explain = found;
      return hit;
    }).sort(compareHits);
  const all = rank((m) => m.every((x) => x !== null));
  if (all.length > 0 || terms.length === 1) return { mode: "all", hits: all.slice(0, limit) };
  return { mode: "any", hits: rank((m) => m.some((x) => x !== null)).slice(0, limit) };
}
