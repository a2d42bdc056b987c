/**
 * The tool view discovery works on: the schema cache, filtered and renamed by
 * the configuration, and lookups of `namespace.tool` in it.
 *
 * Source of the rules: spec 000, "Zero-context discovery" (answer from the
 * cache, never start a server), "Configuration" (`tools`/`excludeTools`,
 * `namespace`), "Search" (`tags`, `toolTags`), "Profiles and aliases" (which
 * servers a command sees; an alias shows its target's tools through its own
 * filter) and `mcpx help results` (docs/topics/results.md: `fancy-name` becomes `fancy_name`).
 *
 * @module
 */

import { compileToolFilter, compileToolPattern } from "../config/tool_filter.ts";
import { toIdentifier } from "../config/identifiers.ts";
import { listingOf, type ServerSpec } from "../config/types.ts";
import { pathsResolveIn } from "../config/server_directory.ts";
import { howToSelect, isSelected, type ProfileSelection } from "../config/profiles.ts";
import { NotFoundError } from "../core/errors.ts";
import { didYouMean, nearest } from "../core/nearest.ts";
import { lastFailure } from "./cache_entry.ts";
import type {
  CachedTool,
  IndexedTool,
  NamespaceEntry,
  SchemaIndex,
  StartingListing,
  ToolEntry,
} from "./types.ts";
import { own } from "../core/own.ts";

/** What {@link namespacesFromCache} returns. */
export interface NamespaceView {
  /** One entry per enabled server, in config order; tools in listing order. */
  namespaces: NamespaceEntry[];
  /**
   * Human-readable problems found while building the view (identifier
   * collisions, invalid filters, duplicate namespaces), one sentence each.
   */
  problems: string[];
  /**
   * The tools left out as unusable (their sentences are also in `problems`),
   * as data: a command that says them briefly needs their names, not a
   * re-reading of the sentences.
   */
  unusable: { server: string; tool: string; problem: string }[];
  /**
   * Servers configured but not shown, so a lookup can say why: those the
   * configuration disables (`disabled: true`), and those outside the profile
   * selection, which carry `unselected` (why, and the flag that selects them).
   */
  disabled: { namespace: string; server: string; unselected?: string }[];
  /**
   * The servers whose listing was still in progress when the view was made,
   * not waited for (decision 0010): their namespaces have no tools yet.
   */
  starting?: StartingListing[];
}

/**
 * Builds the namespaces discovery shows from the configured servers and the
 * schema cache. Disabled servers and servers outside `selection` are skipped;
 * a server the cache does not know yet gets a namespace with no tools. An
 * alias reads its target's cache entry. Each server's cached tools are
 * filtered by its `toolFilter`, named by `toIdentifier(tool.name)` and tagged
 * with the server's `tags` plus its `toolTags[tool.name]`.
 *
 * Two tools of one server whose identifiers collide are never merged: the
 * first is kept and the second is reported in `problems`. A server whose
 * filter does not compile shows no tools (hiding is a safety feature), and
 * says so in `problems`.
 *
 * An entry read from the cache's index alone (engine/schema_cache.ts; its
 * `file` set) gives tools without schemas or declarations (`inputSchema`
 * `{}`), and its namespace says so with `summary`: enough for `ls` and
 * `search`, which ask for no more; `types` and `catalog` load the whole
 * entries of the namespaces they show.
 *
 * @param servers Servers from the loaded configuration, in file order.
 * @param cache The schema cache or its index, or null when none exists yet.
 * @param selection The profiles asked for (config/profiles.ts); absent: every server.
 * @returns The namespaces and any problems.
 * @example
 * ```ts
 * import { namespacesFromCache } from "./view.ts";
 * const { namespaces } = namespacesFromCache([], null);
 * if (namespaces.length !== 0) throw new Error();
 * ```
 */
export function namespacesFromCache(
  servers: ServerSpec[],
  cache: SchemaIndex | null,
  selection?: ProfileSelection,
): NamespaceView {
  const namespaces: NamespaceEntry[] = [];
  const problems: string[] = [];
  const unusable: NamespaceView["unusable"] = [];
  const disabled: NamespaceView["disabled"] = [];
  const taken = new Map<string, string>();
  const pooled = new Map<string, boolean>();
  for (const server of servers) {
    if (server.disabled) {
      disabled.push({ namespace: server.namespace, server: server.name });
      continue;
    }
    if (selection && !isSelected(server, selection)) {
      const unselected = howToSelect(server);
      disabled.push({ namespace: server.namespace, server: server.name, unselected });
      continue;
    }
    const owner = taken.get(server.namespace);
    if (owner !== undefined) {
      problems.push(
        `servers "${owner}" and "${server.name}" both use namespace "${server.namespace}"; ` +
          `"${server.name}" is hidden. Set a distinct "namespace" in its mcpx block.`,
      );
      continue;
    }
    taken.set(server.namespace, server.name);
    const cached = own(cache?.servers, listingOf(server).name);
    const entry: NamespaceEntry = {
      namespace: server.namespace,
      server: server.name,
      // The same fallbacks as `mcpx ls`, so every command describes a server alike.
      description: server.description ?? cached?.serverInfo?.title ?? cached?.serverInfo?.name ??
        "",
      tools: [],
    };
    const pathsIn = pathsResolveIn(server);
    if (pathsIn !== undefined) entry.pathsIn = pathsIn;
    if (cached?.file !== undefined) entry.summary = true;
    if (cached?.blocks?.length) entry.blocks = cached.blocks;
    if (cached?.rendered?.length) entry.rendered = cached.rendered;
    const failure = lastFailure(cached);
    if (failure) entry.error = failure.message;
    if (server.unavailable) {
      entry.error = server.unavailable.message;
      entry.unavailable = server.unavailable;
    }
    // Tools of a server nobody trusted are not shown, even from an older listing:
    // what it would run now is not what was listed (config/trust.ts).
    if (server.unavailable?.code === "untrusted") {
      namespaces.push(entry);
      continue;
    }
    let visible: ((name: string) => boolean) | undefined;
    let filterError: unknown;
    try {
      visible = compileToolFilter(server.toolFilter);
    } catch (error) {
      filterError = error;
    }
    // Only what the filter would show is worth a word (an alias may show two tools of many).
    const skipped = (cached?.skipped ?? []).filter((t) => visible?.(t.name));
    if (skipped.length) entry.skipped = skipped;
    for (const tool of skipped) {
      const problem =
        `server "${server.name}": tool "${tool.name}" is unusable and left out: ${tool.reason}`;
      problems.push(problem);
      unusable.push({ server: server.name, tool: tool.name, problem });
    }
    namespaces.push(entry);
    if (!visible) {
      problems.push(
        `server "${server.name}": ${(filterError as Error).message}; its tools are hidden.`,
      );
      continue;
    }
    if (cached?.tools) {
      const listed = [...cached.tools, ...cached.skipped ?? []].map((t) => t.name);
      problems.push(...unmatchedPatterns(server, listed, pooled));
    }
    const byFn = new Map<string, string>();
    // A tool whose name already is its identifier keeps it (`get_sum` over `get-sum`),
    // so calling a tool by its exact name never reaches another tool.
    for (const tool of cached?.tools ?? []) {
      if (visible(tool.name) && tool.name === toIdentifier(tool.name)) {
        byFn.set(tool.name, tool.name);
      }
    }
    const excluded: string[] = [];
    for (const tool of cached?.tools ?? []) {
      if (!visible(tool.name)) {
        excluded.push(tool.name);
        continue;
      }
      if (tool.name.length === 0) {
        problems.push(`server "${server.name}" lists a tool with an empty name; it is skipped.`);
        continue;
      }
      const fn = toIdentifier(tool.name);
      const first = byFn.get(fn);
      if (first !== undefined && first !== tool.name) {
        problems.push(
          `server "${server.name}": tools "${first}" and "${tool.name}" both become ` +
            `function "${fn}"; "${tool.name}" is skipped. Exclude one with "excludeTools".`,
        );
        continue;
      }
      byFn.set(fn, tool.name);
      const whole = tool as IndexedTool & Partial<CachedTool>;
      const tool_entry: ToolEntry = {
        namespace: server.namespace,
        server: server.name,
        tool: tool.name,
        fn,
        description: tool.description ?? tool.title ?? "",
        tags: [...new Set([...server.tags, ...(own(server.toolTags, tool.name) ?? [])])],
        inputSchema: whole.inputSchema ?? {},
      };
      if (whole.outputSchema) tool_entry.outputSchema = whole.outputSchema;
      if (whole.declaration) tool_entry.declaration = whole.declaration;
      if (whole.execution?.taskSupport) tool_entry.taskSupport = whole.execution.taskSupport;
      if (whole.inputSchema && tool.title) tool_entry.title = tool.title;
      if (whole.annotations) tool_entry.annotations = whole.annotations;
      if (tool.terms) tool_entry.terms = tool.terms;
      entry.tools.push(tool_entry);
    }
    if (excluded.length) entry.excluded = excluded;
  }
  for (const [pattern, matched] of pooled) {
    if (!matched) {
      problems.push(
        `the pool block's tool pattern "${pattern}" matches no tool of any listed server; ` +
          "correct it or remove it.",
      );
    }
  }
  return { namespaces, problems, unusable, disabled };
}

/**
 * The patterns of a server's own tool lists (`tools`, `extraIncludeTools`,
 * `excludeTools`, spec 002's `allowedTools`/`disabledTools`) that match none
 * of the tools it lists, one sentence each with the nearest tool names; a
 * pattern of the pool block is only recorded in `pooled` (matched anywhere or
 * not), since it is meant for servers that may not have the tool.
 */
function unmatchedPatterns(
  server: ServerSpec,
  listed: string[],
  pooled: Map<string, boolean>,
): string[] {
  const { include = [], exclude, pooled: inherited = [] } = server.toolFilter;
  const shared = new Set(inherited);
  const out: string[] = [];
  for (const pattern of new Set([...include, ...exclude])) {
    let matches: (name: string) => boolean;
    try {
      matches = compileToolPattern(pattern);
    } catch {
      continue; // An invalid pattern is said already: the server's tools are hidden.
    }
    const hit = listed.some(matches);
    if (shared.has(pattern)) {
      pooled.set(pattern, (pooled.get(pattern) ?? false) || hit);
      continue;
    }
    if (hit || listed.length === 0) continue;
    // The names mcpx shows; the pattern may be either spelling.
    const names = [...new Set(listed.flatMap((n) => n ? [toIdentifier(n)] : []))];
    const near = nearest(pattern.replace(/^\/|\/[a-z]*$|[*?]/g, ""), names);
    out.push(
      `server "${server.name}": tool pattern "${pattern}" matches none of its ${listed.length} ` +
        `tools${near.length ? ` (nearest: ${near.join(", ")})` : ""}; correct it in its tool ` +
        "lists (mcpx.tools / excludeTools, allowedTools / disabledTools) or remove it.",
    );
  }
  return out;
}

/**
 * Finds a namespace by its identifier or by its server's configured name.
 *
 * @param namespaces The view from {@link namespacesFromCache}.
 * @param name `chrome_devtools` or `chrome-devtools`.
 * @returns The namespace.
 * @throws {NotFoundError} When no namespace matches; `suggestions` holds the nearest names.
 */
export function findNamespace(
  namespaces: NamespaceEntry[],
  name: string,
  disabled: NamespaceView["disabled"] = [],
): NamespaceEntry {
  const found = namespaces.find((ns) => ns.namespace === name) ??
    namespaces.find((ns) => ns.server === name);
  if (found) return found;
  const off = disabled.find((d) => d.namespace === name || d.server === name);
  if (off?.unselected) {
    throw new NotFoundError(
      `namespace "${off.namespace}" is outside the selected profiles: ${off.unselected}.`,
    );
  }
  if (off) {
    throw new NotFoundError(
      `namespace "${off.namespace}" is disabled in the configuration: ` +
        `mcpServers.${off.server} is disabled ("disabled": true); remove that to use it.`,
    );
  }
  const suggestions = nearest(name, namespaces.map((ns) => ns.namespace));
  throw new NotFoundError(
    `unknown namespace "${name}"${didYouMean(suggestions)} Run \`mcpx ls\` to list namespaces.`,
    suggestions,
    { namespace: name },
  );
}

/**
 * Finds one tool by `namespace.tool`, where the namespace is an identifier or
 * a server name and the tool is its function identifier (`take_screenshot`)
 * or its real name (`take-screenshot`). The reference is split at its first
 * `.`, since namespaces never contain one and tool names may.
 *
 * @param namespaces The view from {@link namespacesFromCache}.
 * @param ref `everything.echo`, `chrome-devtools.take-screenshot`.
 * @returns The tool's entry.
 * @throws {NotFoundError} When the namespace or tool is unknown, or `ref` has
 *   no `.`; the message names the nearest `namespace.fn` candidates and
 *   `suggestions` holds them.
 * @example
 * ```ts
 * import { findTool } from "./view.ts";
 * try {
 *   findTool([], "everything.echo");
 * } catch (error) {
 *   if ((error as Error).name !== "NotFoundError") throw error;
 * }
 * ```
 */
export function findTool(
  namespaces: NamespaceEntry[],
  ref: string,
  disabled: NamespaceView["disabled"] = [],
): ToolEntry {
  const dot = ref.indexOf(".");
  if (dot < 0) {
    const all = namespaces.flatMap((ns) => ns.tools);
    const suggestions = [
      ...all.filter((t) => t.fn === ref || t.tool === ref),
      ...all.filter((t) => nearest(ref, [t.fn]).length > 0),
    ].map((t) => `${t.namespace}.${t.fn}`);
    const unique = [...new Set(suggestions)].slice(0, 3);
    throw new NotFoundError(
      `"${ref}" is not a tool reference: write <namespace>.<tool>${didYouMean(unique)} ` +
        "Run `mcpx search <words>` to find a tool.",
      unique,
    );
  }
  const ns = findNamespace(namespaces, ref.slice(0, dot), disabled);
  const name = ref.slice(dot + 1);
  const tool = ns.tools.find((t) => t.tool === name) ?? ns.tools.find((t) => t.fn === name);
  if (tool) return tool;
  const unusable = ns.skipped?.find((t) => t.name === name || toIdentifier(t.name) === name);
  if (unusable) {
    throw new NotFoundError(
      `tool "${ns.namespace}.${name}" is left out: ${unusable.reason}.`,
    );
  }
  const hidden = ns.excluded?.find((t) => t === name || toIdentifier(t) === name);
  if (hidden) throw hiddenToolError(ns, name);
  const empty = noToolsError(ns);
  if (empty) throw empty;
  const suggestions = nearest(name, ns.tools.map((t) => t.fn)).map((fn) => `${ns.namespace}.${fn}`);
  throw new NotFoundError(
    `unknown tool "${ns.namespace}.${name}"${didYouMean(suggestions)} ` +
      "Run `mcpx search <words>` to find a tool.",
    suggestions,
  );
}

/**
 * The refusal of a tool the configuration's tool lists hide, the same from
 * every path that finds it hidden (a lookup in the view, or the filter
 * itself when no listing says what the server has: engine/call_target.ts).
 *
 * @param ns The namespace and its server's name.
 * @param name The tool as the caller spelled it.
 * @returns A `not-found` error naming the lists to change.
 */
export function hiddenToolError(
  ns: Pick<NamespaceEntry, "namespace" | "server">,
  name: string,
): NotFoundError {
  return new NotFoundError(
    `tool "${ns.namespace}.${name}" is hidden by the configuration ` +
      `(mcpServers.${ns.server}.mcpx.tools / excludeTools); change those lists to use it.`,
  );
}

/**
 * Why a namespace has no tools, when that is not simply an empty server: the
 * configuration keeps its server from starting (an unset `${VAR}`), or
 * listing it failed. Every command that finds a namespace empty says it the
 * same way, instead of answering as if the server had no tools.
 *
 * @param ns A namespace from {@link namespacesFromCache}.
 * @returns The error to throw, or undefined when the namespace has tools or no failure.
 * @example
 * ```ts
 * import { noToolsError } from "./view.ts";
 * const ns = { namespace: "m", server: "m", description: "", tools: [], error: "boom" };
 * if (!noToolsError(ns)?.message.includes("listing its server failed: boom")) throw new Error();
 * ```
 */
export function noToolsError(ns: NamespaceEntry): NotFoundError | undefined {
  if (ns.tools.length > 0 || !ns.error) return undefined;
  if (ns.unavailable?.code === "untrusted") {
    return new NotFoundError(`namespace "${ns.namespace}" has no tools: ${ns.unavailable.message}`);
  }
  if (ns.unavailable) {
    return new NotFoundError(
      `namespace "${ns.namespace}" has no tools: its server cannot start: ${ns.unavailable.message}`,
    );
  }
  return new NotFoundError(
    `namespace "${ns.namespace}" has no tools because listing its server failed: ${
      ns.error.split("\n")[0]
    } (\`mcpx status\` shows why; \`mcpx refresh ${ns.namespace}\` lists it again).`,
  );
}
