/**
 * The shapes a loaded configuration resolves to. Shared by the CLI (which
 * validates and reads the schema cache) and the daemon (which starts servers).
 *
 * Source of the rules: spec 000, "Configuration" and "Sharing and scope".
 *
 * @module
 */

import type { Runnable } from "./runs_of.ts";
import { canonicalJson } from "./_canonical_json.ts";
import { fnv1a64 } from "../core/fnv1a64.ts";
import type { ServerAuth } from "./auth.ts";
import type { Secret } from "../core/redact.ts";

/** How mcpx reaches a server: a child process over stdio, or a remote URL. */
export type TransportKind = "stdio" | "http" | "sse";

/**
 * Whether one process serves several callers at once (`shared`) or one caller
 * holds a lease at a time (`exclusive`). Spec 000, "Sharing and scope".
 */
export type Sharing = typeof SHARINGS[number];

/** What an instance is keyed by ({@link SCOPES}). Spec 000, "Sharing and scope". */
export type Scope = typeof SCOPES[number];

/**
 * What a pool at `max` does when a caller with a new key needs an instance:
 * stop the least recently used instance nobody holds (`evict-idle`), or wait
 * for one to be released or reaped (`wait`). Issue 8, "A full pool makes room".
 */
export type WhenFull = "evict-idle" | "wait";

/**
 * Which protocol era mcpx speaks to a server, and in what order it tries them
 * (spec 000, "Two protocol eras"; issue 12):
 *
 * - `legacy`: the 2025-era `initialize` handshake only;
 * - `auto`: `initialize` first, then 2026-07-28 when the server's answer says
 *   it speaks only the modern era (the default: nearly every server is legacy);
 * - `preferModern`: `server/discover` first, then `initialize`;
 * - `modern`: 2026-07-28 only, never downgraded.
 */
export type ProtocolMode = "legacy" | "auto" | "preferModern" | "modern";

/** Every protocol mode, default (`auto`) second, in the order of the eras they try first. */
export const PROTOCOL_MODES: readonly ProtocolMode[] = ["legacy", "auto", "preferModern", "modern"];

/**
 * The severities of a server's log messages, least severe first (MCP
 * 2025-11-25, "Logging": the syslog levels of RFC 5424).
 */
export const SERVER_LOG_LEVELS = [
  "debug",
  "info",
  "notice",
  "warning",
  "error",
  "critical",
  "alert",
  "emergency",
] as const;

/** One of {@link SERVER_LOG_LEVELS}. */
export type ServerLogLevel = (typeof SERVER_LOG_LEVELS)[number];

/** Every `whenFull` value, default first. */
export const WHEN_FULLS: readonly WhenFull[] = ["evict-idle", "wait"];

/** Every sharing value, in documentation order: the one list the type, the parser and the schemas read. */
export const SHARINGS = ["shared", "exclusive"] as const;

/** Every scope value, in documentation order: the one list the type, the parser and the schemas read. */
export const SCOPES = [
  "global",
  "session",
  "parent-session",
  "repo",
  "worktree",
  "cwd",
  "call",
  "pid",
] as const;

/** Per-server pool settings after defaults and the top-level `pool` block apply. */
export interface PoolSettings {
  sharing: Sharing;
  scope: Scope;
  /** Most live instances of this server at once (≥ 1). */
  max: number;
  /** Instances kept warm even when idle (≥ 0, ≤ max). */
  min: number;
  /** An instance unused this long is stopped, in ms (0 = never). */
  idleTimeoutMs: number;
  /** A tool call that has not answered after this long is cancelled, in ms. */
  callTimeoutMs: number;
  /** A server that has not answered `initialize` after this long failed to start, in ms. */
  startTimeoutMs: number;
  /**
   * The start allowance of a server never listed yet (no schema-cache entry
   * for its `poolId`), in ms: its first start may include a package runner
   * (`npx -y`, `uvx`) downloading it. The larger of this and `startTimeoutMs` applies.
   */
  firstStartTimeoutMs: number;
  /**
   * The longest a caller waits for an instance others hold (an exclusive
   * instance's holder, or a free slot of a pool at `max`), in ms; the start
   * of an instance is bounded by `startTimeoutMs` instead. 0: do not wait.
   */
  leaseTimeoutMs: number;
  /** What a pool at `max` does for a caller with a new key ({@link WhenFull}). */
  whenFull: WhenFull;
  /**
   * True when a call's `callTimeoutMs` starts again at each progress
   * notification the server sends for it (the SDK's `resetTimeoutOnProgress`).
   * A parsed spec holds it only when true, so a pool that never sets it keeps
   * the `poolId` it had.
   */
  resetTimeoutOnProgress?: boolean;
}

/** The pool defaults that describe a stateless server: one shared global process. */
export const DEFAULT_POOL: Readonly<PoolSettings> = {
  sharing: "shared",
  scope: "global",
  max: 1,
  min: 0,
  idleTimeoutMs: 30 * 60_000,
  callTimeoutMs: 60_000,
  startTimeoutMs: 30_000,
  firstStartTimeoutMs: 5 * 60_000,
  leaseTimeoutMs: 30_000,
  whenFull: "evict-idle",
};

/**
 * The `max` of a server whose scope is not `global` when neither its own
 * block nor the `pool` block sets one: one instance per key, for up to this
 * many keys at once (a global server's default stays 1).
 */
export const DEFAULT_SCOPED_MAX = 8;

/**
 * A tool filter: patterns are exact names, globs (`delete_*`, `?`), or
 * `/regex/flags`. A tool is visible when it matches `include` (or `include`
 * is absent) and matches no `exclude` pattern.
 */
export interface ToolFilter {
  include?: string[];
  exclude: string[];
  /**
   * Those of the patterns above that come from the top-level `pool` block
   * alone (absent: none). They are meant for every server, so one matching no
   * tool of a particular server is not worth a warning (discovery/view.ts).
   */
  pooled?: string[];
}

/** One server from `mcpServers`, validated, with `${VAR}` already expanded. */
export interface ServerSpec {
  /** The key under `mcpServers`, as written (`chrome-devtools`). */
  name: string;
  /** A valid identifier (`chrome_devtools`), from `mcpx.namespace` or derived from `name`. */
  namespace: string;
  description?: string;
  disabled: boolean;
  /** Tags every tool of this server inherits (for `search --tag`, `catalog --bias`). */
  tags: string[];
  /** Extra tags per tool name. */
  toolTags: Record<string, string[]>;
  toolFilter: ToolFilter;
  transport: TransportKind;
  /** stdio only. */
  command?: string;
  args: string[];
  env: Record<string, string>;
  cwd?: string;
  /**
   * True when the entry sets no `cwd`, so `cwd` is the configuration file's
   * directory: a `cwd`-scoped pool then starts each instance in its caller's
   * directory instead (config/server_directory.ts, decision 0060).
   */
  cwdDefaulted?: true;
  /** http/sse only. */
  url?: string;
  headers: Record<string, string>;
  /**
   * The entry's `auth` block, validated and `${VAR}` expanded (config/auth.ts):
   * static credentials applied to each request or the child's environment,
   * or OAuth settings read through `oauthOf()`. Part of `poolId` and
   * `listingId` only when set, so an entry without one keeps its identities,
   * and two entries differing only in their credentials are two pools.
   */
  auth?: ServerAuth;
  pool: PoolSettings;
  /**
   * The protocol mode its own entry sets (`mcpx.protocol`, or spec 002's
   * `protocol.mode` read as a mode); absent: the `protocol.default` setting
   * applies. Part of `poolId` and `listingId` only when set, so an entry
   * that never names a mode keeps the identities it had.
   */
  protocol?: ProtocolMode;
  /**
   * The directories offered to the server as its roots (`mcpx.roots`:
   * absolute, `${VAR}` expanded, a relative one resolved against the
   * configuration file's real directory; config/_roots.ts). Absent: none,
   * and mcpx does not declare the roots capability (engine/client_handlers.ts).
   * Part of `poolId` when set: an instance keeps the roots it started with.
   */
  roots?: string[];
  /**
   * The least severe log message mcpx asks the server for (`mcpx.logLevel`),
   * sent as `logging/setLevel` once connected when the server declares the
   * `logging` capability; absent: mcpx asks for none (engine/server_notifications.ts).
   */
  logLevel?: ServerLogLevel;
  /**
   * The profiles this server belongs to (`mcpx.profiles`); `--profile <name>`
   * adds it to what commands see. Spec 000, "Profiles and aliases".
   */
  profiles?: string[];
  /**
   * Whether commands see this server without naming one of its profiles
   * (`mcpx.default`, else the top-level `pool.default`, else true). Always
   * set by the parser; absent (a spec built by hand) means true, as absent
   * `profiles` means none.
   */
  default?: boolean;
  /**
   * Set on an alias (`"aliasOf": "<server>"`): the server whose process it
   * exposes again under this namespace, and that server's `poolId` and
   * `listingId`. The alias took its command, args, env, cwd, url, headers and
   * transport from it, and reads that server's schema cache entry instead of
   * listing on its own.
   */
  aliasOf?: { server: string; poolId: string; listingId: string };
  /**
   * Set when the configuration keeps this one server from starting while the
   * others work: today, variables its process keys name (`${VAR}`) that are
   * unset. Discovery shows it as `error` with `message`; a call fails with it;
   * the daemon never starts it. An alias whose target is unavailable is too.
   */
  unavailable?: ServerUnavailable;
  /**
   * Set on a server derived from a declaration (config/derived_servers.ts,
   * decision 0052): its kind and declaration file. Such a server is not the
   * configuration file's, so the file's trust record does not cover it.
   */
  derived?: { kind: "adapters" | "apis"; file: string };
  /**
   * Hash of everything that changes the process or how it is handed out
   * (command, args, env, cwd, url, headers, transport, pool settings) and
   * not tool filtering or descriptions. 16 hex chars.
   */
  poolId: string;
  /**
   * Hash of what changes the server's answer to `tools/list` (command, args,
   * env, cwd, url, headers, transport; {@link listingIdOf}): the schema cache
   * entry of a server listed under another one is stale. 16 hex chars.
   */
  listingId: string;
}

/** What decides a server's answer to `tools/list`: the process it runs, not how it is pooled. */
export type ListingIdentity = Pick<
  ServerSpec,
  "transport" | "command" | "args" | "env" | "cwd" | "url" | "headers" | "protocol" | "auth"
>;

/**
 * Hashes a server's listing identity: what changes its answer to `tools/list`
 * (command, args, env, cwd, url, headers, transport, after `${VAR}`
 * expansion, and the entry's own protocol mode when it sets one: the era a
 * server answers in is part of its answer, decision 0031; its `auth` block
 * when it has one: what a server lists may depend on who asks, decision 0041), not the pool settings (`sharing`, `scope`, `callTimeout`, …)
 * that `poolId` also covers, so editing how a server is pooled does not start
 * it again to list the same tools (decision 0025). Taken when the entry is
 * parsed ({@link ServerSpec.listingId}), before the daemon gives a stdio
 * server without `cwd` its file's directory.
 *
 * @param identity The identity fields; other properties are ignored.
 * @returns 16 hex chars (FNV-1a, as config/pool_id.ts).
 * @example
 * ```ts
 * import { listingIdOf } from "./types.ts";
 * const fields = { transport: "stdio" as const, command: "x", args: [], env: {}, headers: {} };
 * const pooled = { ...fields, pool: { sharing: "exclusive" } };
 * if (listingIdOf(fields) !== listingIdOf(pooled)) throw new Error();
 * if (listingIdOf(fields) === listingIdOf({ ...fields, args: ["-v"] })) throw new Error();
 * ```
 */
export function listingIdOf(identity: ListingIdentity): string {
  return fnv1a64(canonicalJson(listingFields(identity)));
}

/**
 * The fields {@link listingIdOf} hashes, as one object: config/pool_id.ts
 * `poolId` hashes them too, with the pool settings and roots beside them.
 */
export function listingFields(identity: ListingIdentity): Record<string, unknown> {
  const { transport, command, args, env, cwd, url, headers, protocol, auth } = identity;
  return {
    transport,
    command,
    args,
    env,
    cwd,
    url,
    headers,
    ...(protocol ? { protocol } : {}),
    ...(auth ? { auth } : {}),
  };
}

/**
 * The schema cache entry a server's tools come from, and the identity it must
 * have been listed under to be current: the server's own (`name`,
 * `listingId`), or for an alias its target's, since an alias runs the same
 * program and so lists the same tools.
 *
 * @param spec A server.
 * @returns The entry's key in the cache's `servers` and its listing identity (16 hex).
 * @example
 * ```ts
 * import { listingOf } from "./types.ts";
 * const alias = { server: "chrome", poolId: "b", listingId: "c" };
 * const peek = listingOf({ name: "peek", listingId: "a", aliasOf: alias });
 * if (peek.name !== "chrome" || peek.listingId !== "c") throw new Error();
 * ```
 */
export function listingOf(
  spec: Pick<ServerSpec, "name" | "listingId" | "aliasOf">,
): { name: string; listingId: string } {
  return spec.aliasOf
    ? { name: spec.aliasOf.server, listingId: spec.aliasOf.listingId }
    : { name: spec.name, listingId: spec.listingId };
}

/** Why a configured server cannot be used: {@link ServerSpec.unavailable}. */
export type ServerUnavailable = UnsetVariables | UntrustedServer;

/** A `${VAR}` without a default names an unset variable. */
export interface UnsetVariables {
  code: "unset-variable";
  /** One sentence naming the variables, the server and the fix (config/expand.ts). */
  message: string;
  /** The unset variables, in the order written. */
  variables: string[];
}

/**
 * The server belongs to a project's configuration file that has not been
 * trusted with what the server runs (config/trust.ts; decision 0018): mcpx
 * starts none of it until the user runs {@link UntrustedServer.trustCommand}.
 */
export interface UntrustedServer {
  code: "untrusted";
  /** One sentence: the server, the file, what it would run, the command that trusts it. */
  message: string;
  /** The configuration file as found (absolute). */
  file: string;
  /** The command that trusts it, e.g. `mcpx trust /p/.mcp.json`. */
  trustCommand: string;
  /**
   * What it would run, one line (config/runs_of.ts `runsOf`): the directory it
   * starts in, its `env`, command and args, or its URL, transport and header
   * names; a literal secret shown as its reference.
   */
  runs: string;
  /** The same as data: every field the trust hash covers (config/runs_of.ts `Runnable`). */
  runnable: Runnable;
  /**
   * Why: the file was never trusted (`new-file`), it was but this server was
   * added since (`new-server`), or what this server runs changed since (`changed`).
   */
  reason: "new-file" | "new-server" | "changed";
  /** Never set: only {@link UnsetVariables} names variables (so `unavailable?.variables` reads either). */
  variables?: undefined;
}

/** The result of loading one configuration file. */
export interface LoadedConfig {
  /** The file as found (absolute), or null when no configuration exists. */
  path: string | null;
  /**
   * When `path` is null: every candidate the search looked at, in order
   * (config/discover.ts `describeSearch()` says it in a sentence).
   */
  searched?: string[];
  /** `path` with symlinks resolved, or null. */
  realPath: string | null;
  /**
   * Fingerprint of the real path, the file's bytes and the values of the
   * variables the file names in `${…}`, 16 hex chars. Keys the daemon's socket
   * and the schema cache ("One daemon per config"), so a changed token gets its
   * own daemon. See config/fingerprint.ts `fingerprintOf()`.
   */
  fingerprint: string;
  /**
   * 16 hex chars of SHA-256 of the real path and the file's bytes only, without
   * the environment (config/fingerprint.ts `contentHashOf()`): two fingerprints
   * with one `contentHash` are the same file under different variable values,
   * and a different `contentHash` means the file was edited. Set by
   * `loadConfig()`; the no-config value is `NO_CONFIG_FINGERPRINT`.
   */
  contentHash?: string;
  /** Enabled and disabled servers, in file order. */
  servers: ServerSpec[];
  /**
   * Server name → the hash the trust store records for it (config/runnable_hash.ts),
   * when the file's compiled entry keeps them; absent: the trust gate computes them.
   */
  runnableHashes?: Record<string, string>;
  /** The parsed document (for settings lookups), JSONC already parsed. */
  document: Record<string, unknown>;
  /**
   * The secrets the declaration files of `paths.apis` and `paths.adapters` give
   * their derived servers (config/secrets.ts `declarationSecrets`), set by
   * config/derived_servers.ts `withDerivedServers`; config/secrets.ts
   * `configRedactor` replaces them as it does the document's own.
   */
  declaredSecrets?: Secret[];
  /**
   * Things allowed but probably not meant (unknown keys other hosts write, no
   * `mcpServers`), one sentence each naming the file and JSON path. Always set by
   * `loadConfig()`.
   */
  warnings?: string[];
}
