/**
 * The `ls` op: one row per configured server of the profile selection —
 * namespace, tools, sharing, scope, live instances, state, description —
 * from the schema cache, never starting a server that is already cached
 * (spec 000, "Zero-context discovery"). Live counts come from a running
 * daemon when one answers; none is started for them. The configuration's and
 * the settings' warnings travel with the rows, so a misspelt key is not
 * silent; servers outside the selected profiles are named apart (spec 000,
 * "Profiles and aliases").
 *
 * @module
 */

import type { InputOf, OutputOf } from "./op.ts";
import type { ls } from "./discovery_ops.ts";
import type { OpHost } from "./host.ts";
import { UnsafeDirectoryError } from "../core/private_fs.ts";
import { lastFailure } from "../discovery/cache_entry.ts";
import type { NamespaceView } from "../discovery/view.ts";
import type { CachedServer, StartingListing } from "../discovery/types.ts";
import type { ListingWait } from "../engine/tool_listing.ts";
import { listingWaitOf, waitCommand } from "./wait_flag.ts";
import { listingOf, type LoadedConfig, type ServerSpec } from "../config/types.ts";
import { requestDaemon } from "../wire/daemon_request.ts";
import { own } from "../core/own.ts";

/** What `ls` answers (ops/discovery_outputs.ts `LsOutput`). */
export type LsOutput = OutputOf<typeof ls>;
/** One row of it. */
export type LsRow = LsOutput["namespaces"][number];

/**
 * Lists the namespaces.
 *
 * @param _input The op's input (none).
 * @param host The configuration, settings and schema cache to read.
 * @returns The rows in configuration order, with `unselected`, `problems` and `warnings`.
 * @throws {ConfigError} When the configuration cannot be read.
 * @throws {UnsafeDirectoryError} When the daemon's socket directory is not mcpx's own (decision 0014).
 */
export async function handle(input: InputOf<typeof ls>, host: OpHost): Promise<LsOutput> {
  const wait = listingWaitOf(input.wait, await host.setting("discovery.wait"));
  return (await answer(input, lsHostOf(host, wait))).output;
}

/** What a server's row reads from its cache entry. */
export type LsEntry = Pick<CachedServer, "listedAt" | "serverInfo" | "error" | "protocol">;

/**
 * What `ls` reads: a command's files (cli/context.ts, through {@link lsHostOf})
 * or a running daemon's memory (ops/daemon_ls.ts, decision 0030).
 */
export interface LsHost {
  /** The configuration. @throws {ConfigError} when it cannot be read. */
  config(): Promise<LoadedConfig>;
  /**
   * The profile selection's namespaces, their servers listed first when the
   * cache has no usable entry, and each server's cache entry (by its listing
   * name: an alias reads its target's).
   * @throws {UsageError} for a profile no server has.
   */
  namespaces(): Promise<NamespaceView & { entry(spec: ServerSpec): LsEntry | undefined }>;
  /** Live instances and the last start failure per namespace; none running: `{}`. */
  live(): Promise<Record<string, { live: number; failure?: string }>>;
  /** The configuration's and the settings' warnings, one sentence each. */
  warnings(): Promise<string[]>;
}

/**
 * An {@link OpHost} as `ls` reads it: the cache's index alone (no server's
 * schemas), live counts from a daemon only if one is running.
 *
 * @param wait How long to wait for listings in progress (ops/wait_flag.ts; absent: to the end).
 */
export function lsHostOf(host: OpHost, wait?: ListingWait): LsHost {
  return {
    config: () => host.config(),
    // Names, counts and states are in the cache's index: no server's schemas are read.
    namespaces: () => host.namespaces({ optional: true, schemas: false, wait }),
    live: () => liveCounts(host),
    warnings: () => host.warnings(),
  };
}

/** What `ls` answers, plus what its table says briefly that the document says whole. */
export interface LsAnswer {
  output: LsOutput;
  /** The tools left out as unusable (discovery/view.ts), whose sentences are in `problems`. */
  unusable: { server: string; tool: string; problem: string }[];
}

/**
 * {@link handle}'s output and the unusable tools as data.
 *
 * @throws As {@link handle}.
 */
export async function answer(_input: InputOf<typeof ls>, host: LsHost): Promise<LsAnswer> {
  const config = await host.config();
  const view = await host.namespaces();
  const { namespaces, problems, unusable, entry: entryOf, disabled } = view;
  const startingOf = startingByListing(config.servers, view.starting);
  const unselected = disabled.filter((d) => d.unselected !== undefined).map((d) => d.namespace);
  const live = await host.live();
  // Sets and maps, not a search per server: a configuration may hold thousands of servers.
  const hidden = new Set(unselected);
  const byServer = new Map(namespaces.map((n) => [n.server, n]));
  const shown = config.servers.filter((spec) => !hidden.has(spec.namespace));
  const rows: LsRow[] = shown.map((spec) => {
    const entry = entryOf(spec);
    const ns = byServer.get(spec.name);
    const running = own(live, spec.namespace);
    const starting = spec.disabled || spec.unavailable
      ? undefined
      : startingOf.get(listingOf(spec).name);
    // A start failure the daemon saw is newer news than the cache's last listing.
    const failed = spec.unavailable
      ? { message: spec.unavailable.message }
      : running?.failure && !running.live
      ? { message: running.failure }
      : lastFailure(entry);
    const state = spec.disabled
      ? "disabled"
      : spec.unavailable?.code === "untrusted"
      ? "untrusted"
      : starting
      ? "starting"
      : failed
      ? "error"
      : entry?.listedAt
      ? "ready"
      : "unlisted";
    return {
      namespace: spec.namespace,
      server: spec.name,
      tools: ns?.tools.length ?? 0,
      sharing: spec.pool.sharing,
      scope: spec.pool.scope,
      live: running?.live ?? 0,
      state,
      description: spec.description ?? entry?.serverInfo?.title ?? entry?.serverInfo?.name ?? "",
      ...(failed && !starting ? { error: failed.message } : {}),
      ...(starting ? { starting: { ...starting, wait: waitCommand("mcpx ls") } } : {}),
      ...(entry?.protocol ? { protocol: entry.protocol } : {}),
      ...(spec.aliasOf ? { aliasOf: spec.aliasOf.server } : {}),
      ...(spec.profiles?.length ? { profiles: spec.profiles } : {}),
      ...(state === "untrusted" && spec.unavailable?.code === "untrusted"
        ? {
          untrusted: {
            file: spec.unavailable.file,
            trustCommand: spec.unavailable.trustCommand,
            runs: spec.unavailable.runs,
            runnable: spec.unavailable.runnable,
            reason: spec.unavailable.reason,
          },
        }
        : {}),
    };
  });
  const output: LsOutput = {
    config: config.path,
    ...(config.path === null ? { searched: config.searched ?? [] } : {}),
    namespaces: rows,
    unselected,
    problems,
    warnings: await host.warnings(),
  };
  return { output, unusable };
}

/**
 * The listings in progress the view names (discovery/types.ts `StartingListing`),
 * by listed server name: an alias shows its target's.
 */
function startingByListing(
  servers: ServerSpec[],
  starting: StartingListing[] = [],
): Map<string, Omit<StartingListing, "server" | "namespace">> {
  const byName = new Map(servers.map((s) => [s.name, s]));
  const out = new Map<string, Omit<StartingListing, "server" | "namespace">>();
  for (const { server, namespace: _namespace, ...going } of starting) {
    const spec = byName.get(server);
    if (spec) out.set(listingOf(spec).name, going);
  }
  return out;
}

/** Live instances and the last start failure per namespace, from a running daemon; none: `{}`. */
async function liveCounts(
  host: OpHost,
): Promise<Record<string, { live: number; failure?: string }>> {
  try {
    return await requestDaemon(await host.existingDaemonSocket(), "live", {}, { timeoutMs: 1000 });
  } catch (error) {
    // A socket directory another user controls is said, not passed over (decision 0014).
    if (error instanceof UnsafeDirectoryError) throw error;
    return {};
  }
}
