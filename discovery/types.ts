/**
 * Shapes of the schema cache and of the tool view discovery works on.
 *
 * The cache is `$XDG_CACHE_HOME/mcpx/schemas-<fingerprint>.json`, an index
 * of every server (names, counts, descriptions, states, search terms), and
 * one file per server beside it in `schemas-<fingerprint>/` holding what the
 * server's `tools/list` returned, unfiltered (spec 000, "Zero-context
 * discovery"; decision 0028). Filtering by the config's `tools`/`excludeTools`
 * happens when it is read.
 *
 * @module
 */

/** One tool as its server listed it (`tools/list`, MCP 2025-11-25 `Tool`). */
export interface CachedTool {
  name: string;
  title?: string;
  description?: string;
  inputSchema: Record<string, unknown>;
  outputSchema?: Record<string, unknown>;
  annotations?: Record<string, unknown>;
  /**
   * How the tool runs as a task (MCP 2025-11-25 `ToolExecution`): absent when
   * the server said nothing, which means `forbidden`.
   */
  execution?: { taskSupport?: TaskSupport };
  /**
   * The TypeScript declaration of this tool's function, generated when the
   * tool was listed (`function name(args: {...}): Promise<...>;`), or absent
   * when generation failed or has not run.
   */
  declaration?: string;
}

/**
 * Whether a tool may be called as a task (MCP 2025-11-25 `Tool.execution.taskSupport`):
 * `forbidden` (the default), `optional`, or `required` (only as a task).
 */
export type TaskSupport = "forbidden" | "optional" | "required";

/** One namespace's whole `mcpx types` block: its key (`blockKey`) and its UTF-8 bytes. */
export interface BlockSize {
  key: string;
  bytes: number;
}

/**
 * One namespace's whole `mcpx types` block as the daemon laid it out when it
 * sized it: its key (`blockKey`, as {@link BlockSize}'s) and its text
 * (discovery/typescript.ts `namespaceBlock`), no trailing newline.
 */
export interface RenderedBlock {
  key: string;
  text: string;
}

/**
 * A tool as the cache's index holds it: no schemas, no declaration, and the
 * words search matches, worked out once when the server was listed.
 */
export interface IndexedTool {
  name: string;
  title?: string;
  description?: string;
  /** Search's words for the tool (discovery/search.ts `toolTerms`); absent: worked out when searched. */
  terms?: ToolTerms;
}

/** The stemmed words of a tool's names and description (discovery/words.ts `stemmedWords`). */
export interface ToolTerms {
  /** Of its real name and its function identifier, without repeats. */
  name: string[];
  /** Of its description (else its title), without repeats. */
  description: string[];
}

/**
 * What the cache's index knows of one server: its entry, the tools without
 * their schemas. A whole {@link CachedServer} is one too.
 */
export interface IndexedServer extends Omit<CachedServer, "tools"> {
  tools: IndexedTool[];
  /**
   * The file holding the whole entry (absolute path), set when read: in this
   * configuration's folder, or a sibling configuration's when the entry was
   * seeded from it. Absent when `tools` are whole already.
   */
  file?: string;
}

/** What the cache knows of one server. */
export interface CachedServer {
  /** ISO time of the last successful listing; absent when it never succeeded. */
  listedAt?: string;
  serverInfo?: { name?: string; version?: string; title?: string };
  /**
   * The protocol revision the server was last listed with (`2025-11-25`,
   * `2026-07-28`, …: engine/protocol_era.ts); absent in entries from an mcpx
   * that did not record it.
   */
  protocol?: string;
  /**
   * The server declares `resources.subscribe` (MCP "Resources"): `mcpx serve
   * --passthrough` offers its client subscriptions then (decision 0048).
   */
  subscribe?: true;
  instructions?: string;
  tools: CachedTool[];
  /**
   * The last listing failure; kept until a listing succeeds. `at` is when it
   * failed, `count` how many listings in a row have failed, `retryAt` (ISO)
   * when discovery may list the server again (discovery/cache_entry.ts).
   */
  error?: { message: string; at: string; stderr?: string; count?: number; retryAt?: string };
  /** Tools the server listed that could not be used, and why (they are left out of `tools`). */
  skipped?: { name: string; reason: string }[];
  /**
   * The size of each namespace's whole `mcpx types` block made from this
   * entry, worked out when it was listed (discovery/types_hint.ts
   * `blockKey`), so search's closing hint does not render every declaration.
   */
  blocks?: BlockSize[];
  /**
   * The same blocks' text, so `mcpx types <namespace>` prints a namespace
   * without parsing and sharing every declaration again (issue 11). Kept in
   * the server's own file only: the index, which every `ls` reads, stays
   * small (engine/schema_cache.ts).
   */
  rendered?: RenderedBlock[];
  /**
   * The server's listing identity when it was listed (config/types.ts
   * `listingOf`: a hash of command, args, env, cwd, url, headers, transport);
   * a mismatch, or none (an entry from an mcpx that recorded `poolId`
   * instead), means stale.
   */
  listingId?: string;
}

/**
 * The whole cache (`S` = {@link CachedServer}), or its index as read
 * (`S` = {@link IndexedServer}: entries whose tools have no schemas yet).
 */
export interface SchemaCacheFile<S extends IndexedServer = CachedServer> {
  /** 2: the index and one file per server (decision 0028); 1 was a single file, read as cold. */
  version: 2;
  /** mcpx version that wrote the file (declarations are regenerated on change). */
  mcpxVersion: string;
  /** Layout of the cached declarations (`DECLARATION_FORMAT`); absent in older files. */
  declarationFormat?: number;
  configPath: string | null;
  /** Keyed by server name (the `mcpServers` key). */
  servers: Record<string, S>;
}

/** The cache's index as the CLI reads it: whole entries only for the servers loaded. */
export type SchemaIndex = SchemaCacheFile<IndexedServer>;

/** One visible tool, as search, catalog and types see it. */
export interface ToolEntry {
  /** Namespace identifier (`chrome_devtools`). */
  namespace: string;
  /** Server name as configured (`chrome-devtools`). */
  server: string;
  /** The tool's real name (`take-screenshot`). */
  tool: string;
  /** The tool's function identifier (`take_screenshot`). */
  fn: string;
  description: string;
  /** Server tags plus this tool's toolTags. */
  tags: string[];
  inputSchema: Record<string, unknown>;
  outputSchema?: Record<string, unknown>;
  /** Cached TypeScript declaration of the function, when present. */
  declaration?: string;
  /** How the tool runs as a task, when its server said (absent: `forbidden`). */
  taskSupport?: TaskSupport;
  /** The server's display title for the tool, when it gave one and the entry is whole. */
  title?: string;
  /** The server's tool annotations (MCP `ToolAnnotations`), when it gave some and the entry is whole. */
  annotations?: Record<string, unknown>;
  /** Search's words for the tool, when the cache's index had them (discovery/search.ts). */
  terms?: ToolTerms;
}

/** One namespace, as ls, catalog and types see it. */
export interface NamespaceEntry {
  namespace: string;
  server: string;
  description: string;
  tools: ToolEntry[];
  /** Tools the configuration hides (`tools`/`excludeTools`), by real name. */
  excluded?: string[];
  /**
   * Why the namespace has no usable server: the configuration keeps it from
   * starting (`unavailable`'s message), else the last listing failure when it
   * is newer than the last success.
   */
  error?: string;
  /**
   * Set when the configuration keeps the server from starting (config/types.ts):
   * an unset `${VAR}` (`unset-variable`, with `variables`), or a project's file
   * that has not trusted it (`untrusted`, with `file`, `trustCommand`, `runs`,
   * `reason`). Written out rather than imported: the generated client inlines
   * this module and must not pull config/ in.
   */
  unavailable?: {
    code: string;
    message: string;
    variables?: string[];
    file?: string;
    trustCommand?: string;
    runs?: string;
    reason?: string;
  };
  /**
   * The directory relative paths in its tools' arguments resolve in, when it
   * is not the caller's working directory (config/server_directory.ts,
   * decision 0060): `mcpx types` says it in the namespace's header.
   */
  pathsIn?: string;
  /** Tools the server listed that mcpx cannot use, and why. */
  skipped?: { name: string; reason: string }[];
  /**
   * True when its tools came from the cache's index alone: no schemas or
   * declarations (`inputSchema` is `{}`). Commands that show schemas ask for
   * the whole entry (cli/context.ts `namespaces({ schemas })`).
   */
  summary?: boolean;
  /** Sizes of its whole `mcpx types` block worked out when listed ({@link CachedServer.blocks}). */
  blocks?: BlockSize[];
  /** Its whole `mcpx types` block as laid out when listed ({@link CachedServer.rendered}). */
  rendered?: RenderedBlock[];
  /**
   * Set by a script run on a namespace whose server's first listing was still
   * in progress when its client was made (runner/script_namespaces.ts,
   * decision 0010): the generated client passes any tool name through to the
   * daemon, which waits for the start. Part of the client's cache key, so the
   * next run after the listing gets the real tools.
   */
  starting?: true;
}

/**
 * A server whose listing was in progress when discovery answered, and not
 * waited for: discovery shows it as starting rather than waiting silently
 * (decision 0010, "Discovery answers at once").
 */
export interface StartingListing {
  /** The `mcpServers` key. */
  server: string;
  namespace: string;
  /** Time since the listing (and the start under it) began, in ms. */
  elapsedMs: number;
  /** How long the start may take, in ms (the listing fails after it). */
  allowanceMs: number;
  /** The setting that sets `allowanceMs`. */
  bound: "startTimeout" | "firstStartTimeout";
  /** `installing` while a package runner (`npx`) is still downloading the server. */
  phase?: "installing" | "starting";
}
