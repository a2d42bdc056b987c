/**
 * `mcpx search <words…>`: ranked tools from the schema cache (spec 000,
 * "Search"; the op is ops/search.ts). FUNCTION and a truncated DESCRIPTION
 * per hit, then one line with the `mcpx types` command for exactly the hits
 * and what it costs next to their whole namespaces (discovery/types_hint.ts).
 * With no hits, the namespaces whose servers could not be listed are named,
 * since their tools were not searched.
 *
 * @module
 */

import type { CliContext } from "../context.ts";
import { renderTable, truncate } from "../table.ts";
import { shadowedNote } from "./shadow_note.ts";
import type { TextView } from "../commands.ts";
import type { Answered } from "../../ops/outcome.ts";
import { typesHintLine } from "../../discovery/types_hint.ts";
import { answer, type SearchAnswer, type SearchOutput } from "../../ops/search.ts";
import { requestRunningOp } from "../op_request.ts";
import { listingWaitOf } from "../../ops/wait_flag.ts";
import { startingSentence } from "../../discovery/starting_note.ts";
import { checkSelection, selectionFromSettings } from "../../config/profiles.ts";
import type { InputOf } from "../../ops/op.ts";
import type { search } from "../../ops/discovery_ops.ts";

/**
 * Runs `mcpx search`: from the running daemon when there is one, else from
 * the cache's files (the same answer either way).
 *
 * @returns The search's document; its extra is the hits' whole descriptions
 *   and the untrusted namespaces, for the terminal.
 * @throws {UsageError} With no words and no `--tag`, or a bad `-n`.
 */
export async function handle(
  ctx: CliContext,
  options: InputOf<typeof search>,
): Promise<Answered<SearchOutput>> {
  const { output, descriptions, untrusted } = await fromDaemon(ctx, options) ??
    await answer(options, ctx, listingWaitOf(options.wait, await ctx.setting("discovery.wait")));
  // A nearer file's servers win: say whose were not searched, and how to search them.
  const shadowed = await shadowedNote(ctx);
  return {
    kind: "ok",
    value: output,
    ...(shadowed ? { notes: [shadowed] } : {}),
    extra: { descriptions, untrusted },
  };
}

/** The hits as a table, or why there are none, then the `mcpx types` line. */
export function text(output: SearchOutput, view: TextView): string {
  const { words, explain, tag } = view.input as InputOf<typeof search>;
  const { descriptions, untrusted } = (view.extra ?? { descriptions: [] }) as Pick<
    SearchAnswer,
    "descriptions" | "untrusted"
  >;
  const { hits, types: hint } = output;
  // Said on stdout, terminal or not, after the answer: it did not wait for them (decision 0010).
  const starting = output.starting ?? [];
  const stillStarting = starting.length
    ? `${hits.length ? "Not searched yet: " : ""}${startingSentence(starting, starting[0].wait)}\n`
    : "";
  if (hits.length === 0) {
    const query = words.map((w) => JSON.stringify(w)).join(" ");
    // A tag narrows before words rank: say so, or the answer reads as "no such words".
    const tagged = tag === undefined
      ? ""
      : `carrying the tag ${JSON.stringify(tag)} (tags match exactly, case included) `;
    let out = tag !== undefined
      ? `No tool ${tagged}${query ? `matches ${query}` : "is known"}. ` +
        "Without --tag, `mcpx search --json <words>` shows each hit's tags.\n"
      : words.length === 0
      ? "No tools are known. `mcpx ls` shows the servers and whether they listed.\n"
      : `No tool matches ${query}. Try fewer or other words, or \`mcpx ls\`.\n`;
    if (untrusted) {
      out += `Not searched: ${untrusted.namespaces.join(", ")} (not trusted: ` +
        `\`${untrusted.trustCommand}\` lets mcpx start ${
          untrusted.namespaces.length === 1 ? "it" : "them"
        }; an agent should ask its user to run that).\n`;
    }
    const failed = (output.unlisted ?? []).filter((m) =>
      !untrusted?.namespaces.includes(m.namespace)
    );
    if (failed.length > 0) {
      const names = failed.map((m) => m.namespace).join(", ");
      out += `Not searched: ${names} (listing ${
        failed.length === 1 ? "its server" : "their servers"
      } failed; \`mcpx status\` shows why).\n`;
    }
    return out + stillStarting;
  }
  if (explain) {
    let out = "";
    for (const hit of hits) {
      out += `${hit.function}  score ${hit.score}\n`;
      for (const m of hit.explain ?? []) out += `  ${m.term}: ${m.field} +${m.score}\n`;
    }
    if (output.mode === "any") out += "(no tool matched every word; showing tools matching any)\n";
    return out + `${typesHintLine(hint!)}\n${stillStarting}`;
  }
  const fnWidth = Math.max(...hits.map((h) => h.function.length));
  const width = Math.max(30, view.columns - fnWidth - 2);
  return renderTable(
    ["FUNCTION", "DESCRIPTION"],
    hits.map((h, i) => [h.function, truncate(descriptions[i] ?? h.description ?? "", width)]),
  ) + `${typesHintLine(hint!)}\n${stillStarting}`;
}

/**
 * The search answered by this configuration's daemon when one is running:
 * it holds the cache parsed and its code warm, so the answer costs the same
 * however many servers there are (decision 0030). The op's input goes as
 * parsed (cli/op_request.ts), the daemon runs the op's handler. Undefined,
 * and the CLI runs that handler on the cache's files, when no daemon runs,
 * or when a server the configuration keeps from starting (untrusted, an
 * unset variable) must be named as the files name it.
 *
 * @throws {UsageError} For a profile no server has.
 */
async function fromDaemon(
  ctx: CliContext,
  input: InputOf<typeof search>,
): Promise<SearchAnswer | undefined> {
  const config = await ctx.config();
  // A daemon elsewhere (daemon.endpoint) is the only answer: this machine's files are not its.
  const remote = await ctx.endpoint();
  if (!remote && (config.path === null || config.servers.some((s) => s.unavailable))) {
    return undefined;
  }
  checkSelection(config.servers, selectionFromSettings((await ctx.settings()).values));
  let extra: Omit<SearchAnswer, "output"> = { descriptions: [] };
  const output = await requestRunningOp<SearchOutput>(ctx, "search", input, {
    onExtra: (sent) => extra = sent as typeof extra,
  });
  return output && { output, ...extra };
}
