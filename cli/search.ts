/**
 * `mcpx search <words…>`: ranked tools from the schema cache (spec 000,
 * "Search"). FUNCTION and a truncated DESCRIPTION per hit, then one line
 * with the `mcpx types` command for exactly the hits and what it costs next
 * to their whole namespaces (discovery/types_hint.ts). With no hits, the
 * namespaces whose servers could not be listed are named, since their tools
 * were not searched. Without words (and without `--tag`) it is a usage error:
 * there is nothing to rank by.
 *
 * @module
 */

import type { CliContext } from "./context.ts";
import { renderTable, truncate } from "./table.ts";
import { searchTools } from "../discovery/search.ts";
import { typesHint, typesHintLine } from "../discovery/types_hint.ts";
import type { NamespaceEntry } from "../discovery/types.ts";
import { UsageError } from "../core/errors.ts";
import type { InputOf } from "../ops/op.ts";
import type { search } from "../ops/discovery_ops.ts";

/** Namespaces whose tools are unknown because listing their server failed. */
function unlisted(namespaces: NamespaceEntry[]): { namespace: string; error: string }[] {
  return namespaces.filter((ns) => ns.error !== undefined && ns.tools.length === 0)
    .map((ns) => ({ namespace: ns.namespace, error: ns.error!.split("\n")[0] }));
}

export async function run(
  ctx: CliContext,
  options: InputOf<typeof search>,
): Promise<number> {
  const { words } = options;
  // Nothing to rank by: an arbitrary page of tools would read as an answer.
  if (words.every((w) => w.trim() === "") && options.tag === undefined) {
    throw new UsageError(
      "say what the tool should do, e.g. `mcpx search screenshot` or `mcpx search read file`; " +
        "`--tag <tag>` alone lists the tools carrying that tag, `mcpx ls` lists the namespaces",
    );
  }
  const limit = Number(await ctx.setting("search.limit"));
  if (!Number.isInteger(limit) || limit < 1) {
    throw new UsageError(
      `-n must be a whole number of at least 1, got ${
        JSON.stringify(await ctx.setting("search.limit"))
      }`,
    );
  }
  const { namespaces } = await ctx.namespaces();
  const entries = namespaces.flatMap((n) => n.tools);
  const result = searchTools(entries, words, {
    limit,
    tag: options.tag,
    explain: options.explain === true,
  });
  const hint = result.hits.length > 0
    ? await typesHint(namespaces, result.hits.map((h) => h.entry))
    : undefined;
  const missing = unlisted(namespaces);
  if (await ctx.json()) {
    ctx.io.out(
      JSON.stringify(
        {
          mode: result.mode,
          // Descriptions are cut like the table's: a search answers "which tool", and
          // `mcpx types <ns>.<tool>` has the whole text.
          hits: result.hits.map((h) => ({
            function: `${h.entry.namespace}.${h.entry.fn}`,
            ...(h.entry.tool !== h.entry.fn ? { tool: h.entry.tool } : {}),
            namespace: h.entry.namespace,
            score: h.score,
            description: truncate(h.entry.description, 200),
            ...(h.entry.tags.length ? { tags: h.entry.tags } : {}),
            ...(h.explain ? { explain: h.explain } : {}),
          })),
          ...(hint ? { types: hint } : {}),
          ...(missing.length ? { unlisted: missing } : {}),
        },
        null,
        2,
      ) + "\n",
    );
    return 0;
  }
  if (result.hits.length === 0) {
    ctx.io.out(
      words.length === 0
        ? "No tools are known. `mcpx ls` shows the servers and whether they listed.\n"
        : `No tool matches ${
          words.map((w) => JSON.stringify(w)).join(" ")
        }. Try fewer or other words, or \`mcpx ls\`.\n`,
    );
    const untrusted = namespaces.filter((ns) => ns.unavailable?.code === "untrusted");
    if (untrusted.length > 0) {
      ctx.io.out(
        `Not searched: ${untrusted.map((ns) => ns.namespace).join(", ")} (not trusted: ` +
          `\`${untrusted[0].unavailable!.trustCommand}\` lets mcpx start ${
            untrusted.length === 1 ? "it" : "them"
          }; an agent should ask its user to run that).\n`,
      );
    }
    const failed = missing.filter((m) => !untrusted.some((ns) => ns.namespace === m.namespace));
    if (failed.length > 0) {
      const names = failed.map((m) => m.namespace).join(", ");
      ctx.io.out(
        `Not searched: ${names} (listing ${
          failed.length === 1 ? "its server" : "their servers"
        } failed; \`mcpx status\` shows why).\n`,
      );
    }
    return 0;
  }
  const fnWidth = Math.max(
    ...result.hits.map((h) => h.entry.namespace.length + h.entry.fn.length + 1),
  );
  const width = Math.max(30, (Number(ctx.env.COLUMNS) || 120) - fnWidth - 2);
  if (options.explain) {
    for (const hit of result.hits) {
      ctx.io.out(`${hit.entry.namespace}.${hit.entry.fn}  score ${hit.score}\n`);
      for (const m of hit.explain ?? []) ctx.io.out(`  ${m.term}: ${m.field} +${m.score}\n`);
    }
    if (result.mode === "any") {
      ctx.io.out("(no tool matched every word; showing tools matching any)\n");
    }
    ctx.io.out(`${typesHintLine(hint!)}\n`);
    return 0;
  }
  ctx.io.out(renderTable(
    ["FUNCTION", "DESCRIPTION"],
    result.hits.map((
      h,
    ) => [`${h.entry.namespace}.${h.entry.fn}`, truncate(h.entry.description, width)]),
  ));
  ctx.io.out(`${typesHintLine(hint!)}\n`);
  return 0;
}
