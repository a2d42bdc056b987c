/**
 * The client's index of tools, for a script that looks a tool up without
 * leaving it (spec 000, "Finding a tool without leaving the script"): `search`,
 * ranked as `mcpx search` ranks, and `describe`, a tool's declaration. Both
 * read what the generated part configured (`configureClient`).
 *
 * @module
 */

import { searchTools } from "../discovery/search.ts";
import { rtConfig } from "./client_config.ts";
import { didYouMean, nearest } from "../core/nearest.ts";

/** One hit of {@link search}. */
export interface ScriptSearchHit {
  /** The namespace identifier (`chrome_devtools`). */
  namespace: string;
  /** The function identifier, as called in a script (`take_screenshot`). */
  tool: string;
  /** The tool's real MCP name (`take-screenshot`). */
  name: string;
  /** The tool's description, as the server gave it. */
  description: string;
  /** Names of the required arguments. */
  required: string[];
  /** The rank `mcpx search` gives the hit (discovery/search.ts); higher is better. */
  score: number;
}

/**
 * Finds tools in the client's index, ranked exactly as `mcpx search` ranks
 * them (spec 000, "Finding a tool without leaving the script").
 *
 * @param words Query words, split on whitespace.
 * @param options.limit Most hits (default 20).
 * @returns Hits, best first.
 * @throws {RangeError} when `limit` is negative.
 */
export function search(words: string, options: { limit?: number } = {}): ScriptSearchHit[] {
  return searchTools(rtConfig.tools, words, { limit: options.limit }).hits.map(
    ({ entry, score }) => {
      const required = (entry.inputSchema as { required?: unknown }).required;
      return {
        namespace: entry.namespace,
        tool: entry.fn,
        name: entry.tool,
        description: entry.description,
        required: Array.isArray(required) ? required.map(String) : [],
        score,
      };
    },
  );
}

/**
 * One tool's TypeScript declaration, or a whole namespace's.
 *
 * @param ref `namespace.fn`, `namespace.realName`, or `namespace`.
 * @returns The declaration text.
 * @throws {Error} naming the nearest known names when `ref` is unknown.
 */
export function describe(ref: string): string {
  const { tools, declarations } = rtConfig;
  // Keys are `namespace.fn`: `describe("constructor")` must not find Object's.
  const declared = (key: string) =>
    Object.hasOwn(declarations, key) ? declarations[key] : undefined;
  const direct = declared(ref);
  if (direct !== undefined) return direct;
  const dot = ref.indexOf(".");
  if (dot > 0) {
    const ns = ref.slice(0, dot);
    const name = ref.slice(dot + 1);
    const entry = tools.find((t) => t.namespace === ns && t.tool === name);
    const byReal = entry && declared(`${ns}.${entry.fn}`);
    if (byReal !== undefined) return byReal;
  } else {
    const inNamespace = Object.keys(declarations).filter((k) => k.startsWith(`${ref}.`));
    if (inNamespace.length > 0) return inNamespace.map((k) => declarations[k]).join("\n\n");
  }
  const known = Object.keys(declarations);
  // The CLI's suggester (core/nearest.ts): the same names `mcpx types` would offer.
  throw new Error(
    `describe: no tool "${ref}" in this client` +
      (known.length ? didYouMean(nearest(ref, known)) : "; it knows no tools.") +
      " `mcpx search <words>` finds tools; regenerate the client if a server changed",
  );
}
