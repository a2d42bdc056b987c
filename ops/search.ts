/**
 * The `search` op: tools ranked by name, tag and description from the schema
 * cache (spec 000, "Search"), with the `mcpx types` command for exactly the
 * hits and what it costs next to their whole namespaces
 * (discovery/types_hint.ts), and the namespaces whose servers could not be
 * listed, since their tools were not searched. Without words (and without
 * `tag`) it is a usage error: there is nothing to rank by.
 *
 * @module
 */

import type { InputOf, OutputOf } from "./op.ts";
import type { search } from "./discovery_ops.ts";
import type { OpHost } from "./host.ts";

/**
 * What a search reads of its host: `search.limit` and the namespaces view.
 * The CLI's context is one (cli/context.ts); so is the daemon's own view of
 * its cache (ops/daemon_search.ts).
 */
export type SearchHost = {
  setting(name: "search.limit"): Promise<number>;
  namespaces: OpHost["namespaces"];
};
import { searchTools } from "../discovery/search.ts";
import { typesHint } from "../discovery/types_hint.ts";
import type { NamespaceEntry } from "../discovery/types.ts";
import { UsageError } from "../core/errors.ts";
import { truncate } from "../core/truncate.ts";
import { shellWord } from "../config/shell_word.ts";
import type { ListingWait } from "../engine/tool_listing.ts";
import { waitCommand } from "./wait_flag.ts";

/** What `search` answers (ops/discovery_outputs.ts `SearchOutput`). */
export type SearchOutput = OutputOf<typeof search>;

/** Most characters of a hit's description in the output. */
const DESCRIPTION_CHARS = 200;

/** The op's output and what a person's rendering of it adds. */
export interface SearchAnswer {
  output: SearchOutput;
  /**
   * Each hit's whole description, in hit order: a table shows as much as its
   * width allows, where the output cuts at 200 characters.
   */
  descriptions: string[];
  /**
   * Namespaces not searched because a project's configuration has not
   * trusted their servers, and the command that trusts the first (they are
   * among the output's `unlisted` too).
   */
  untrusted?: { namespaces: string[]; trustCommand: string };
}

/**
 * The refusal of a query with nothing to rank by (no words and no tag): an
 * arbitrary page of tools would read as an answer. Undefined when there is
 * something to rank by.
 */
function emptyQuery(input: InputOf<typeof search>): UsageError | undefined {
  if (!input.words.every((w) => w.trim() === "") || input.tag !== undefined) return undefined;
  return new UsageError(
    "say what the tool should do, e.g. `mcpx search screenshot` or `mcpx search read file`; " +
      "`--tag <tag>` alone lists the tools carrying that tag, `mcpx ls` lists the namespaces",
  );
}

/** The refusal of a `search.limit` that is not a whole number ≥ 1; undefined for a good one. */
function badLimit(limit: number): UsageError | undefined {
  if (Number.isInteger(limit) && limit >= 1) return undefined;
  return new UsageError(`-n must be a whole number of at least 1, got ${JSON.stringify(limit)}`);
}

/**
 * Searches the tools of the visible namespaces.
 *
 * @param input `words` to rank by, `tag` to keep only tools carrying it, `explain` for scores.
 * @param host Setting `search.limit` and the namespaces view.
 * @returns The output and what rendering it for a person needs.
 * @throws {UsageError} With no words and no tag, or a limit that is not a whole number ≥ 1.
 */
export async function answer(
  input: InputOf<typeof search>,
  host: SearchHost,
  wait?: ListingWait,
): Promise<SearchAnswer> {
  const { words } = input;
  const empty = emptyQuery(input);
  if (empty) throw empty;
  const limit = await host.setting("search.limit");
  const bad = badLimit(limit);
  if (bad) throw bad;
  // The index holds names, descriptions and search words: no schema is read to rank.
  const { namespaces, starting = [] } = await host.namespaces({ schemas: false, wait });
  const entries = namespaces.flatMap((n) => n.tools);
  const result = searchTools(entries, words, {
    limit,
    tag: input.tag,
    explain: input.explain === true,
  });
  // The hint's cost is that of the hits' namespaces' declarations: those alone are read whole
  // (what was missing was listed above).
  const hitNamespaces = [...new Set(result.hits.map((h) => h.entry.namespace))];
  const hint = result.hits.length > 0
    ? await typesHint(
      (await host.namespaces({ schemas: hitNamespaces, listMissing: false })).namespaces,
      result.hits.map((h) => h.entry),
    )
    : undefined;
  const still = new Set(starting.map((s) => s.namespace));
  const missing = unlisted(namespaces).filter((m) => !still.has(m.namespace));
  const again = waitCommand(
    ["mcpx search", ...words.map(shellWord), ...(input.tag ? ["--tag", shellWord(input.tag)] : [])]
      .join(" "),
  );
  const untrusted = namespaces.filter((ns) => ns.unavailable?.code === "untrusted");
  return {
    output: {
      mode: result.mode,
      // Descriptions are cut: a search answers "which tool", and
      // `mcpx types <ns>.<tool>` has the whole text.
      hits: result.hits.map((h) => ({
        function: `${h.entry.namespace}.${h.entry.fn}`,
        ...(h.entry.tool !== h.entry.fn ? { tool: h.entry.tool } : {}),
        namespace: h.entry.namespace,
        score: h.score,
        description: truncate(h.entry.description, DESCRIPTION_CHARS),
        ...(h.entry.tags.length ? { tags: h.entry.tags } : {}),
        ...(h.explain ? { explain: h.explain } : {}),
      })),
      ...(hint ? { types: hint } : {}),
      ...(missing.length ? { unlisted: missing } : {}),
      ...(starting.length
        ? {
          starting: starting.map(({ server: _server, ...going }) => ({ ...going, wait: again })),
        }
        : {}),
    },
    descriptions: result.hits.map((h) => h.entry.description),
    ...(untrusted.length
      ? {
        untrusted: {
          namespaces: untrusted.map((ns) => ns.namespace),
          trustCommand: untrusted[0].unavailable!.trustCommand!,
        },
      }
      : {}),
  };
}

/** Namespaces whose tools are unknown because listing their server failed. */
function unlisted(namespaces: NamespaceEntry[]): { namespace: string; error: string }[] {
  return namespaces.filter((ns) => ns.error !== undefined && ns.tools.length === 0)
    .map((ns) => ({ namespace: ns.namespace, error: ns.error!.split("\n")[0] }));
}
