/**
 * What the daemon records about its instances as their pools report them:
 * started, failed to start, wrote a stray stdout line, stopped to make room,
 * lost the pid or run they served, exited. Each is a log record in the
 * instance's own span (`ins-…`), and some are facts a later call needs: why
 * an instance stopped, and whether a session's new instance replaces an
 * earlier one (engine/rebuilt_note.ts).
 *
 * The lives are also published on the daemon's event bus (engine/event_bus.ts,
 * decision 0080), beside their records: `server.started` at each start,
 * `server.restarted` after it when the instance replaces one of its pool and
 * key that crashed or was restarted (`why`: the earlier one's end),
 * `server.stopped` at an exit mcpx chose (`why`: idle, stop, restart,
 * session-end, evicted, …), and `server.crashed` at an exit it did not choose
 * (with the code or signal) or a start that failed (`during: "start"`).
 *
 * @module
 */

import type { ServerSpec } from "../config/types.ts";
import type { ServerError } from "../core/errors.ts";
import type { Instance } from "./instance.ts";
import type { RebuiltWhy } from "./rebuilt_note.ts";
import type { ServerAsked } from "./client_handlers.ts";
import { formatScopeKey, type ScopeKey, sessionOf } from "./scope_key.ts";
import type { SessionStore } from "./sessions.ts";
import { daemonSpan, log, newSpan } from "./log.ts";
import type { NotificationHooks } from "./server_notifications.ts";
import { serverRecords, type ServerRecordsOptions } from "./server_records.ts";
import type { EventBus } from "./event_bus.ts";

/** How many non-JSON stdout lines of one instance reach the log (`server.stdout`). */
export const STRAY_LINES_LOGGED = 20;

/** The daemon's record of its instances' lives. */
export class InstanceEvents {
  #sessions: SessionStore;
  /** The log span of each live instance (`ins-…`). */
  #spans = new WeakMap<Instance, string>();
  /** `server.exit` records waiting for their exit status (awaited by `settled`). */
  #exitRecords = new Set<Promise<void>>();
  /** Why an instance stopped when the instance's own reason is not the whole story. */
  #why = new WeakMap<Instance, string>();
  /** Instances that replace a session's earlier one, not yet reported to a call, with why. */
  #rebuilt = new WeakMap<Instance, RebuiltWhy>();
  /** `<poolId>\0<key text>` of instances stopped to make room, whose key's next instance is a rebuild. */
  #evictedKeys = new Set<string>();
  #heard?: NotificationHooks<Instance>;
  /**
   * `<poolId>\0<key text>` of instances that crashed or were restarted, with
   * why: the key's next start is published as `server.restarted`.
   */
  #ended = new Map<string, string>();
  /** The daemon's event bus: every life above is published on it. */
  readonly bus: EventBus;

  /**
   * @param sessions The named sessions, whose instances are kept and reported as rebuilt.
   * @param bus The daemon's event bus.
   */
  constructor(sessions: SessionStore, bus: EventBus) {
    this.#sessions = sessions;
    this.bus = bus;
  }

  /** The log span of `instance`, or the daemon's when it has none (not started through a pool). */
  span(instance: Instance): string {
    return this.#spans.get(instance) ?? daemonSpan();
  }

  /** Records why `instance` stops (`session-end`, `session-ttl`, …), for its `server.exit` record. */
  stopping(instance: Instance, why: string): void {
    this.#why.set(instance, why);
  }

  /**
   * Whether `instance` replaces a session's earlier one, told once: the first
   * call on it gets the answer, later calls undefined.
   */
  takeRebuilt(instance: Instance): RebuiltWhy | undefined {
    const why = this.#rebuilt.get(instance);
    this.#rebuilt.delete(instance);
    return why;
  }

  /**
   * The hooks that record what instances' servers tell mcpx (log messages,
   * cancellations) in their spans, and hand list changes to `listings`
   * (engine/server_records.ts).
   */
  serverRecords(listings: Pick<ServerRecordsOptions, "relist">): NotificationHooks<Instance> {
    this.#heard ??= serverRecords({
      span: (instance) => this.span(instance),
      relist: (instance, list) => listings.relist(instance, list),
      bus: this.bus,
    });
    return this.#heard;
  }

  /** Resolves once every `server.exit` record is written. */
  async settled(): Promise<void> {
    await Promise.all(this.#exitRecords);
  }

  /**
   * An instance finished `initialize`: opens its span, logs `server.start`,
   * and notes when it replaces an earlier instance of its key (evicted, or a
   * named session's that an earlier daemon, a restart or a reap stopped).
   */
  started(instance: Instance): void {
    const span = newSpan("instance");
    this.#spans.set(instance, span);
    const spec = instance.spec;
    const template = instance.pid
      ? "server {server} started as pid {pid} for {key} in {startMs} ms"
      : "server {server} connected to {command} for {key} in {startMs} ms";
    log("info", "server.start", template, {
      server: spec.name,
      namespace: spec.namespace,
      localId: instance.id,
      ...(instance.pid ? { pid: instance.pid } : {}),
      key: instance.key,
      transport: spec.transport,
      command: spec.transport === "stdio"
        ? [spec.command, ...(spec.args ?? [])].join(" ")
        : spec.url,
      startMs: Date.now() - instance.startedAt,
    }, { span, parent: daemonSpan() });
    const named = sessionOf(instance.scopeKey);
    const about = instanceAbout(instance, span);
    this.bus.publish("server.started", {
      ...about,
      data: { ...about.data, startMs: Date.now() - instance.startedAt },
    });
    const endedKey = `${spec.poolId}\0${instance.key}`;
    const ended = this.#ended.get(endedKey);
    if (ended !== undefined) {
      this.#ended.delete(endedKey);
      this.bus.publish("server.restarted", { ...about, data: { ...about.data, why: ended } });
    }
    if (this.#evictedKeys.delete(`${spec.poolId}\0${instance.key}`)) {
      // Its earlier instance was stopped to make room for another key (`evicted`).
      this.#rebuilt.set(instance, "evicted");
    } else if (named && this.#sessions.get(named) && this.#sessions.served(named, spec.namespace)) {
      // The session had an instance here before (an earlier daemon, a restart, a reap).
      this.#rebuilt.set(instance, "rebuilt");
      log(
        "info",
        "session.rebuild",
        "named session {session} got a new instance of {server}; the earlier one and its state are gone",
        { session: named, server: spec.name, namespace: spec.namespace, localId: instance.id },
        { span },
      );
    }
  }

  /** Starting an instance of `spec` for `key` failed, `count` times in a row. */
  failed(spec: ServerSpec, error: ServerError, key: ScopeKey, count: number): void {
    const facts = {
      server: spec.name,
      key: formatScopeKey(key),
      count,
      error: error.message.split("\n")[0],
    };
    log("warn", "server.fail", "server {server} failed to start: {error}", facts);
    const session = sessionOf(key);
    this.bus.publish("server.crashed", {
      server: spec.namespace,
      ...(session ? { session } : {}),
      data: { ...facts, during: "start" },
    });
  }

  /**
   * Records a stdio server's stdout line that is not JSON-RPC as a warning
   * (the line also stays in its stderr tail). The first
   * {@link STRAY_LINES_LOGGED} per instance are logged; the last of them says so.
   */
  strayLine(instance: Instance, line: string, count: number): void {
    if (count > STRAY_LINES_LOGGED) return;
    log(
      "warn",
      "server.stdout",
      "server {server} wrote a line that is not JSON-RPC on stdout: {line}",
      {
        server: instance.spec.name,
        localId: instance.id,
        ...(instance.pid ? { pid: instance.pid } : {}),
        line,
        count,
        ...(count === STRAY_LINES_LOGGED ? { more: "later lines go only to its stderr tail" } : {}),
      },
      { span: this.span(instance), server: instance.spec.name },
    );
  }

  /**
   * The server asked mcpx something (engine/client_handlers.ts): `server.asked`,
   * at info for roots mcpx gave, at warn for a question it could not answer
   * (elicitation cancelled, sampling refused, an unknown method).
   */
  asked(instance: Instance, question: ServerAsked): void {
    const answered = question.answer === "roots";
    log(
      answered ? "info" : "warn",
      "server.asked",
      answered
        ? "server {server} asked {method}: answered {roots} roots"
        : "server {server} asked {method}: answered {answer} (mcpx cannot serve it yet)",
      {
        server: instance.spec.name,
        namespace: instance.spec.namespace,
        localId: instance.id,
        ...question,
      },
      { span: this.span(instance), server: instance.spec.name },
    );
  }

  /** Whether `key`'s instance must not be stopped to make room: a named session within its ttl. */
  keep(key: ScopeKey): boolean {
    const name = sessionOf(key);
    if (!name || !this.#sessions.get(name)) return false;
    return !this.#sessions.expired().some((s) => s.name === name);
  }

  /** An idle instance is stopped to make room in a full pool: logged, and its key's next call told. */
  evicted(instance: Instance, forKey: ScopeKey): void {
    this.#why.set(instance, "evicted");
    if (instance.scopeKey.kind !== "call") {
      this.#evictedKeys.add(`${instance.spec.poolId}\0${instance.key}`);
    }
    log(
      "info",
      "pool.evict",
      "{server} is at max {max}: its least recently used idle instance ({key}) stops to make room for {forKey}",
      {
        server: instance.spec.name,
        max: instance.spec.pool.max,
        localId: instance.id,
        key: instance.key,
        forKey: formatScopeKey(forKey),
        idleMs: Date.now() - instance.lastUsedAt,
      },
      { span: this.span(instance) },
    );
  }

  /** The process a `pid` key names exited, so its instance stops. */
  pidExited(instance: Instance, pid: number): void {
    log(
      "info",
      "scope.pid-exit",
      "process {pid} exited, so {server}'s instance for {key} stops",
      { server: instance.spec.name, localId: instance.id, pid, key: instance.key },
      { span: this.span(instance) },
    );
  }

  /** The process of run `run` (pid `pid`), which held `instance`, is gone. */
  runGone(instance: Instance, run: string, pid: number): void {
    log(
      "info",
      "lease.run-gone",
      "run {run} (pid {pid}) is gone, so its hold on {server} ({key}) is dropped",
      { server: instance.spec.name, localId: instance.id, run, pid, key: instance.key },
      { span: this.span(instance) },
    );
  }

  /** An instance is gone: its `server.exit` record is written once its exit status is known. */
  exited(instance: Instance): void {
    const span = this.span(instance);
    const record = instance.exitSettled().then(() => {
      const exit = instance.exit;
      const why = this.#why.get(instance) ?? exit?.reason ?? "crash";
      const facts = {
        why,
        ...(exit?.code !== undefined && exit.code !== null ? { code: exit.code } : {}),
        ...(exit?.signal ? { signal: exit.signal } : {}),
        uptimeMs: Date.now() - instance.startedAt,
        calls: instance.calls,
      };
      log(why === "crash" ? "warn" : "info", "server.exit", "server {server} exited ({why})", {
        server: instance.spec.name,
        localId: instance.id,
        ...(instance.pid ? { pid: instance.pid } : {}),
        key: instance.key,
        ...facts,
      }, { span });
      // The key's next instance is a restart when this one crashed or was restarted.
      if ((why === "crash" || why === "restart") && instance.scopeKey.kind !== "call") {
        this.#ended.set(`${instance.spec.poolId}\0${instance.key}`, why);
      }
      const about = instanceAbout(instance, span);
      this.bus.publish(why === "crash" ? "server.crashed" : "server.stopped", {
        ...about,
        data: { ...about.data, ...facts },
      });
    }).finally(() => this.#exitRecords.delete(record));
    this.#exitRecords.add(record);
  }
}

/** What every `server.*` event of `instance` says: its namespace, session and identity. */
function instanceAbout(
  instance: Instance,
  span: string,
): { server: string; session?: string; traceIds: string[]; data: Record<string, unknown> } {
  const session = sessionOf(instance.scopeKey);
  return {
    server: instance.spec.namespace,
    ...(session ? { session } : {}),
    traceIds: [span],
    data: {
      name: instance.spec.name,
      localId: instance.id,
      ...(instance.pid ? { pid: instance.pid } : {}),
      key: instance.key,
      transport: instance.spec.transport,
    },
  };
}
