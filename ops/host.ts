/**
 * What an op's handler needs from the process it runs in: the configuration,
 * the settings, the directories, the namespaces view, where the daemon would
 * answer. The handlers (ops/ls.ts, ops/search.ts, …) name only this, so they
 * run wherever something provides it; the CLI's `CliContext`
 * (cli/context.ts) has every member and is passed as it is (decision 0021).
 *
 * Output is not here: a handler answers its op's output and the surface
 * prints or sends it.
 *
 * @module
 */

import type { ListingWait } from "../engine/tool_listing.ts";
import type { McpxPaths } from "../config/paths.ts";
import type { SettingName, SettingValueOf } from "../config/settings.ts";
import type { ResolvedSettings } from "../config/resolve_settings.ts";
import type { LoadedConfig, ServerSpec } from "../config/types.ts";
import type { SchemaIndex } from "../discovery/types.ts";
import type { NamespaceView } from "../discovery/view.ts";
import type { ServerFacts } from "../discovery/cache_entry.ts";

/** The world an op runs against, each part resolved at most once by the host. */
export interface OpHost {
  /** The caller's environment (for `$XDG_*` defaults and the configuration's secrets). */
  readonly env: Record<string, string>;
  /** The caller's working directory. */
  readonly cwd: string;

  /**
   * The nearest configuration, validated, untrusted servers marked
   * unavailable (config/trust.ts). @throws {ConfigError}.
   */
  config(): Promise<LoadedConfig>;
  /** Every setting, resolved from defaults, files, environment and flags. @throws {ConfigError}, {UsageError}. */
  settings(): Promise<ResolvedSettings>;
  /** One resolved setting's typed value. @throws {ConfigError}, {UsageError}. */
  setting<N extends SettingName>(name: N): Promise<SettingValueOf<N>>;
  /**
   * The configuration's and the settings' warnings (an unknown key, an
   * unknown setting), one sentence each. @throws {ConfigError}, {UsageError}.
   */
  warnings(): Promise<string[]>;
  /** The state, cache and config directories. */
  paths(): McpxPaths;
  /**
   * The schema cache's index of this configuration (every server's entry, its
   * tools without schemas), or null when cold.
   */
  schemaCache(): Promise<SchemaIndex | null>;
  /**
   * The visible namespaces of the profile selection, servers the cache lacks
   * listed first through the daemon unless `listMissing` is false; with
   * `optional`, no configuration file is an empty view rather than an error.
   * `schemas` says whose tools come whole (true, the default: all; a list of
   * namespaces or server names; false: none, the index alone, `summary`).
   * `wait` bounds the wait for those listings (absent: until each ends); the
   * ones still in progress are the view's `starting` (decision 0010).
   * `entry(spec)` gives the facts of the cache entry `spec` reads, never its
   * tools: a tool reaches a surface only through the view, which applies the
   * configuration's tool filters (issue 24).
   * @throws {UsageError} For a profile no server has.
   * @throws {McpxError} `no-config` when no configuration file was found (and not `optional`).
   */
  namespaces(
    options?: {
      listMissing?: boolean;
      optional?: boolean;
      schemas?: boolean | string[];
      wait?: ListingWait;
    },
  ): Promise<NamespaceView & { entry(spec: ServerSpec): ServerFacts | undefined }>;
  /**
   * The socket a running daemon of this configuration answers on, or the
   * endpoint `daemon.endpoint` names when one is set; starts none.
   */
  existingDaemonSocket(): Promise<string>;
  /** The daemon elsewhere `daemon.endpoint` names, or undefined when none is set. */
  endpoint(): Promise<string | undefined>;
  /** The bearer token sent to {@link endpoint}; undefined without an endpoint or a token. */
  endpointToken(): Promise<string | undefined>;
  /** The places named scripts are searched, nearest first (scripts/resolve.ts). */
  scriptDirs(): Promise<string[]>;
}
