/**
 * `mcpx registry search <words…>`, `mcpx registry show <name>`, `mcpx
 * registry add <name> [--as ns] [--write]`: what an MCP registry
 * (`registry.url`) has, and a server from it added to the nearest
 * configuration (spec 000, "Finding servers that are not configured yet";
 * decision 0054). `add` without `--write` prints the diff it would make.
 *
 * @module
 */

import type { CliContext } from "../context.ts";
import type { InputOf, OutputOf } from "../../ops/op.ts";
import type { registry } from "../../ops/reach_ops.ts";
import { UsageError } from "../../core/errors.ts";
import { isPlainServerName } from "../../config/identifiers.ts";
import type { Text, TextView } from "../commands.ts";
import { type Answered, failed, ok } from "../../ops/outcome.ts";
import { renderTable, truncate } from "../table.ts";
import { type RegistryRecord, searchRegistry, showRegistryServer } from "./registry_client.ts";
import {
  registryShortName,
  translateRegistryServer,
  type Translation,
} from "../../config/registry_entry.ts";
import { addToConfig, writeText } from "./config_write.ts";

type Output = OutputOf<typeof registry>;

const USAGE = "mcpx registry search <words…> | show <name> | add <name> [--as NS] [--write]";

/** `search`'s document. */
type SearchOutput = Extract<Output, { servers: unknown }>;
/** `show`'s and `add`'s document. */
type ServerOutput = Extract<Output, { server: unknown }>;

/**
 * Runs `mcpx registry`: searches the registry, shows one server, or adds it
 * to the nearest configuration (a preview without `--write`).
 *
 * @returns `ok` with `{ registry, servers }` (search) or `{ registry, server,
 *   translation?, untranslatable?, write? }` (show, add); `failed` when
 *   `add` could add nothing. The extra is the registry's record, for the text.
 * @throws {UsageError} For an unknown verb, a missing name, or flags of another verb.
 */
export async function handle(
  ctx: CliContext,
  input: InputOf<typeof registry>,
): Promise<Answered<Output>> {
  const [verb, ...rest] = input.words;
  const url = await ctx.setting("registry.url");
  if (verb === "search") {
    if (rest.length === 0) throw new UsageError(`say what to look for: ${USAGE}`);
    const limit = input.limit === undefined ? 20 : Number(input.limit);
    if (!Number.isSafeInteger(limit) || limit < 1 || limit > 100) {
      throw new UsageError(`-n must be a whole number from 1 to 100, got ${input.limit}`);
    }
    return ok(await search(ctx, url, rest, limit));
  }
  if (verb !== "show" && verb !== "add") {
    throw new UsageError(
      verb === undefined ? `say what to do: ${USAGE}` : `no registry command ${verb}: ${USAGE}`,
    );
  }
  if (rest.length !== 1) throw new UsageError(`name one server: ${USAGE}`);
  if (input.as !== undefined && (verb !== "add" || !isPlainServerName(input.as))) {
    throw new UsageError(
      verb !== "add"
        ? "--as goes with `mcpx registry add`"
        : `--as must be a server name (letters, digits, _ and -; not starting with a digit or -), ` +
          `got ${JSON.stringify(input.as)}`,
    );
  }
  if (input.write && verb !== "add") throw new UsageError("--write goes with `mcpx registry add`");
  const record = await showRegistryServer(url, rest[0], ctx.signal);
  let translation: Translation | undefined;
  let untranslatable: string | undefined;
  try {
    translation = translateRegistryServer(record.server, { as: input.as });
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    untranslatable = error.message;
  }
  const output: ServerOutput = {
    registry: url,
    server: record.server as unknown as Record<string, unknown>,
    ...(record.official?.status ? { status: record.official.status } : {}),
    ...(translation ? { translation } : {}),
    ...(untranslatable ? { untranslatable } : {}),
  };
  if (verb === "add" && translation) {
    output.write = await addToConfig(
      ctx,
      [{ name: translation.name, entry: translation.entry }],
      Boolean(input.write),
    );
  }
  const nothingAdded = verb === "add" &&
    (!translation || (output.write!.added.length === 0 && output.write!.skipped.length > 0));
  return { ...(nothingAdded ? failed : ok)<Output>(output), extra: record };
}

/**
 * The terminal's rendering: a table of hits (or that none matched); a
 * server's description, how it runs and what it needs; for `add`, the diff
 * and what was written, on stderr.
 */
export function text(value: Output, view: TextView): Text {
  const verb = (view.input as InputOf<typeof registry>).words[0];
  if (verb === "search") return searchText(value as SearchOutput, view.input.words.slice(1));
  const output = value as ServerOutput;
  const record = view.extra as RegistryRecord;
  const shown = showText(record, output.translation, output.untranslatable, verb === "add");
  if (verb !== "add" || !output.write) return shown;
  const { out, err } = writeText(output.write);
  const refused = output.write.added.length === 0 && output.write.skipped.length > 0;
  return { out: shown + out, err: err + (refused ? "choose another name with --as\n" : "") };
}

async function search(
  ctx: CliContext,
  url: string,
  words: string[],
  limit: number,
): Promise<SearchOutput> {
  let hits = await searchRegistry(url, words.join(" "), limit, ctx.signal);
  if (hits.length === 0 && words.length > 1) {
    // The registry matches one substring of the name: ask for the first word, keep all-word hits.
    const all = await searchRegistry(url, words[0], 100, ctx.signal);
    const text = (r: RegistryRecord) =>
      `${r.server.name} ${r.server.title ?? ""} ${r.server.description ?? ""}`.toLowerCase();
    hits = all.filter((r) => words.every((w) => text(r).includes(w.toLowerCase())))
      .slice(0, limit);
  }
  const servers = hits.map((r) => {
    let via: string;
    try {
      via = translateRegistryServer(r.server).via;
    } catch {
      via = "none";
    }
    return {
      name: r.server.name,
      namespace: registryShortName(r.server.name),
      ...(r.server.version ? { version: r.server.version } : {}),
      ...(r.server.title ? { title: r.server.title } : {}),
      ...(r.server.description ? { description: r.server.description } : {}),
      ...(r.official?.status ? { status: r.official.status } : {}),
      via,
    };
  });
  return { registry: url, servers } as SearchOutput;
}

function searchText({ registry: url, servers }: SearchOutput, words: string[]): string {
  if (servers.length === 0) return `no server in ${url} matches ${words.join(" ")}\n`;
  return renderTable(
    ["NAME", "VERSION", "RUNS", "DESCRIPTION"],
    servers.map((s) => [
      s.name + (s.status && s.status !== "active" ? ` (${s.status})` : ""),
      s.version ?? "",
      s.via,
      truncate(s.description ?? "", 60),
    ]),
  ) + `\nmcpx registry show <name> describes one; mcpx registry add <name> adds it\n`;
}

function showText(
  record: RegistryRecord,
  t: Translation | undefined,
  untranslatable: string | undefined,
  adding: boolean,
): string {
  const s = record.server;
  const lines = [`${s.name}${s.version ? ` ${s.version}` : ""}`];
  if (record.official?.status && record.official.status !== "active") {
    lines.push(`status: ${record.official.status}`);
  }
  if (s.description) lines.push(s.description);
  if (s.repository?.url) lines.push(`repository: ${s.repository.url}`);
  if (s.websiteUrl) lines.push(`website: ${s.websiteUrl}`);
  if (!t) {
    lines.push(`cannot be added: ${untranslatable}`);
    return lines.join("\n") + "\n";
  }
  lines.push(`runs: ${t.summary}${t.via === "remote" ? " (remote)" : ""}`);
  if (!adding) {
    lines.push(`as "${t.name}": ${JSON.stringify(t.entry)}`);
  }
  for (const n of t.needs) {
    lines.push(
      `set ${n.variable}${n.secret ? " (secret)" : ""} for ${n.usedBy}` +
        (n.description ? `: ${n.description}` : ""),
    );
  }
  for (const o of t.optional) {
    lines.push(`optional: ${o.name}${o.description ? ` (${o.description})` : ""}`);
  }
  for (const note of t.notes) lines.push(`note: ${note}`);
  if (!adding) lines.push(`add it: mcpx registry add ${s.name} --write`);
  return lines.join("\n") + "\n";
}
