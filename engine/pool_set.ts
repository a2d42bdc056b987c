/**
 * The pools of one configuration: one per `poolId` (config/pool_id.ts), found
 * by namespace, and what the daemon does to all of them at once (count live
 * instances, find a session's, warm `min`, reap).
 *
 * @module
 */

import type { LoadedConfig, ServerSpec } from "../config/types.ts";
import { McpxError, NotFoundError } from "../core/errors.ts";
import { setOwn } from "../core/own.ts";
import type { LeaseBoard } from "./lease_board.ts";
import { Pool, type PoolHooks } from "./pool.ts";
import { type ScopeKey, scopeKeyIn } from "./scope_key.ts";
import type { StatusRow } from "./status_row.ts";

/** Every pool of one configuration. */
export class PoolSet {
  #servers: ServerSpec[];
  #pools = new Map<string, Pool>();
  /** The server each namespace reaches: the first enabled one of that namespace. */
  #byNamespace = new Map<string, ServerSpec>();

  /**
   * Makes a pool for each enabled server that may start (none for one the
   * configuration keeps from starting, such as an unset `${VAR}`: nothing can
   * start it, not even `min`; {@linkcode PoolSet.forNamespace} says why).
   *
   * @param env Environment the servers inherit (under each server's own `env`).
   * @param hooks What each pool tells the daemon.
   * @param board The one board every pool posts its lease waits on.
   */
  constructor(
    config: LoadedConfig,
    env: Record<string, string>,
    hooks: (spec: ServerSpec) => PoolHooks,
    board: LeaseBoard,
  ) {
    this.#servers = config.servers;
    // A stdio server's `cwd` is set when the configuration is parsed (the
    // file's real directory when its entry sets none: config/_process.ts), so
    // its pool identity covers it; the daemon itself runs in `/`.
    for (const spec of config.servers) {
      if (spec.disabled) continue;
      // Two servers of one namespace: the first is the one discovery shows (discovery/view.ts).
      if (!this.#byNamespace.has(spec.namespace)) this.#byNamespace.set(spec.namespace, spec);
      if (spec.unavailable || this.#pools.has(spec.poolId)) continue;
      this.#pools.set(spec.poolId, new Pool(spec, env, hooks(spec), board));
    }
  }

  /** Every pool. */
  get all(): Pool[] {
    return [...this.#pools.values()];
  }

  /** The pool of `spec`, if it has one (not disabled, not kept from starting). */
  of(spec: ServerSpec): Pool | undefined {
    return this.#pools.get(spec.poolId);
  }

  /** The server a namespace reaches, if any. */
  server(namespace: string): ServerSpec | undefined {
    return this.#byNamespace.get(namespace);
  }

  /**
   * The pool serving a namespace.
   * @throws {NotFoundError} with near names; {McpxError} `server-unavailable`
   *   for a server the configuration keeps from starting (config/types.ts `unavailable`).
   */
  forNamespace(namespace: string): Pool {
    const spec = this.#byNamespace.get(namespace);
    if (!spec) {
      throw new NotFoundError(
        `unknown namespace "${namespace}"; run \`mcpx ls\` to see the namespaces`,
        [...this.#byNamespace.keys()],
      );
    }
    if (spec.unavailable) throw new McpxError("server-unavailable", spec.unavailable.message);
    return this.#pools.get(spec.poolId)!;
  }

  /**
   * Per namespace: live instances and, when its last start failed, the
   * message (the daemon's `live`, read by `ls`).
   */
  live(): Record<string, { live: number; failure?: string }> {
    const out: Record<string, { live: number; failure?: string }> = {};
    for (const [namespace, spec] of this.#byNamespace) {
      const pool = this.#pools.get(spec.poolId);
      if (!pool) continue;
      setOwn(out, namespace, {
        live: pool.instances.length,
        ...(pool.failure ? { failure: pool.failure.error.message } : {}),
      });
    }
    return out;
  }

  /** Namespaces (aliases included) with a live instance keyed by one of `keys`. */
  liveNamespaces(keys: readonly ScopeKey[]): string[] {
    const out: string[] = [];
    for (const [namespace, spec] of this.#byNamespace) {
      const pool = this.#pools.get(spec.poolId);
      if (pool?.instances.some((i) => !i.closed && scopeKeyIn(i.scopeKey, keys))) {
        out.push(namespace);
      }
    }
    return out;
  }

  /** The smallest idle timeout of any pool, in ms; Infinity when none has one. */
  get shortestIdleMs(): number {
    let min = Infinity;
    for (const pool of this.#pools.values()) {
      if (pool.spec.pool.idleTimeoutMs > 0) min = Math.min(min, pool.spec.pool.idleTimeoutMs);
    }
    return min;
  }

  /**
   * Starts the instances each pool's `min` keeps warm, for every key known
   * before a call: `global`, and `sessions` for a session-scoped server.
   *
   * @param sessions The keys of the named sessions (`session:<name>`).
   * @param skip Pools whose server may not start now (an untrusted project server).
   */
  async warm(sessions: ScopeKey[], skip: (spec: ServerSpec) => boolean): Promise<void> {
    await Promise.all(this.all.map((pool) => {
      if (skip(pool.spec)) return;
      const { scope } = pool.spec.pool;
      const keys: ScopeKey[] = scope === "global"
        ? [{ kind: "global" }]
        : scope === "session" || scope === "parent-session"
        ? sessions
        : [];
      return pool.warm(keys);
    }));
  }

  /**
   * What the daemon knows of `spec` for its `mcpx status` row: its pool's live
   * instances and its last start failure (none for a server with no pool).
   * @param now Epoch ms.
   */
  status(spec: ServerSpec, now: number): Pick<StatusRow, "instances" | "failure"> {
    const pool = this.#pools.get(spec.poolId);
    const instances = spec.disabled || !pool ? [] : pool.instances.map((i) => ({
      id: i.id,
      pid: i.pid,
      key: i.key,
      holders: pool.holders(i),
      active: i.active,
      uptimeMs: now - i.startedAt,
      calls: i.calls,
      ...(i.protocolRevision ? { protocol: i.protocolRevision } : {}),
      ...(i.lastError ? { lastError: i.lastError } : {}),
      ...(i.stderrTail ? { stderrTail: i.stderrTail } : {}),
    }));
    const failure = pool?.failure;
    if (!failure) return { instances };
    return {
      instances,
      failure: {
        message: failure.error.message,
        count: failure.count,
        retryInMs: Math.max(0, failure.retryAt - now),
        ...(failure.error.stderrTail ? { stderrTail: failure.error.stderrTail } : {}),
      },
    };
  }

  /**
   * The enabled servers `names` (server names or namespaces) name, in that
   * order; every enabled server when `names` is empty. A name both a server
   * and a namespace have is the first in file order that has it as either.
   * @throws {NotFoundError} for a name no enabled server has.
   */
  select(names: string[]): ServerSpec[] {
    const enabled = this.#servers.filter((s) => !s.disabled);
    if (names.length === 0) return enabled;
    // One map, not a search per name: `ls` may ask for thousands of servers at once.
    const byName = new Map<string, ServerSpec>();
    for (const s of enabled) {
      if (!byName.has(s.name)) byName.set(s.name, s);
      if (!byName.has(s.namespace)) byName.set(s.namespace, s);
    }
    return names.map((name) => {
      const spec = byName.get(name);
      if (!spec) {
        throw new NotFoundError(
          `unknown namespace "${name}"; run \`mcpx ls\` to see the namespaces`,
          enabled.map((s) => s.namespace),
        );
      }
      return spec;
    });
  }
}
