/**
 * Shapes of the schema cache and of the tool view discovery works on.
 *
 * The cache file is `$XDG_CACHE_HOME/mcpx/schemas-<fingerprint>.json`
 * (spec 000, "Zero-context discovery"). It stores what each server's
 * `tools/list` returned, unfiltered; filtering by the config's
 * `tools`/`excludeTools` happens when it is read.
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
   * The TypeScript declaration of this tool's function, generated when the
   * tool was listed (`function name(args: {...}): Promise<...>;`), or absent
   * when generation failed or has not run.
   */
  declaration?: string;
}

/** What the cache knows of one server. */
export interface CachedServer {
  /** ISO time of the last successful listing; absent when it never succeeded. */
  listedAt?: string;
  serverInfo?: { name?: string; version?: string; title?: string };
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
   * The server's listing identity when it was listed (config/types.ts
   * `listingOf`: a hash of command, args, env, cwd, url, headers, transport);
   * a mismatch, or none (an entry from an mcpx that recorded `poolId`
   * instead), means stale.
   */
  listingId?: string;
}

/** The whole cache file. */
export interface SchemaCacheFile {
  version: 1;
  /** mcpx version that wrote the file (declarations are regenerated on change). */
  mcpxVersion: string;
  /** Layout of the cached declarations (`DECLARATION_FORMAT`); absent in older files. */
  declarationFormat?: number;
  configPath: string | null;
  /** Keyed by server name (the `mcpServers` key). */
  servers: Record<string, CachedServer>;
}

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
  /** Tools the server listed that mcpx cannot use, and why. */
  skipped?: { name: string; reason: string }[];
}
