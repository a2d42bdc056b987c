/**
 * The daemon's declared-hook runner (issue 28, "Hooks"; decision 0081): for
 * every event on the bus that a hook of `hooks.observe` asks for, it runs the
 * hook's command (engine/hook_process.ts) with the event as JSON on stdin and
 * the variables of engine/hook_env.ts `observeHookEnv`.
 *
 * Nothing a hook does reaches the daemon's work:
 *
 * - The bus's listener only appends to a queue (it runs inside `publish`);
 *   hooks start from a microtask after it, at most `concurrency` at once.
 * - The queue holds at most `queueLimit` runs; one more is dropped and
 *   counted, and the count is logged once the queue has drained
 *   (`hook.dropped`), never once per drop.
 * - Each run is bounded by its hook's `timeout` or `hooks.timeout`; a hook
 *   that fails, hangs or cannot be found is logged (`hook.failed`: its name,
 *   the event's seq and kind, the exit code or reason, its stderr's tail).
 * - A project configuration's hooks run only while the trust store holds the
 *   file's settings (config/trust.ts `TrustGate.settingsProblem`), checked as
 *   each run is about to start; a refusal is logged once per reason
 *   (`hook.untrusted`), with how many runs it skipped.
 *
 * One event runs each hook at most once: the listener is called once per
 * publish, and a hook matching the event by several of its kinds is one run.
 *
 * @module
 */

import type { HookDeclaration } from "../config/hooks.ts";
import { kindMatches } from "../core/event_kinds.ts";
import type { BusEvent, EventBus } from "./event_bus.ts";
import { observeHookEnv } from "./hook_env.ts";
import { type HookProcessResult, runHookProcess } from "./hook_process.ts";
import { log } from "./log.ts";

/** Runs waiting for a free slot, at most; one more is dropped. */
export const HOOK_QUEUE_LIMIT = 1000;

/** Lines of a failed hook's stderr its log record keeps. */
const STDERR_LINES = 10;

/** What a {@link HookRunner} needs. */
export interface HookRunnerOptions {
  /** The configuration's hooks (config/hooks.ts `hookDeclarations`). */
  hooks: readonly HookDeclaration[];
  /** A hook's bound when it sets none, in ms (`hooks.timeout`). */
  timeoutMs: number;
  /** Most hooks running at once (`hooks.concurrency`, ≥ 1). */
  concurrency: number;
  /** Most runs waiting; default {@link HOOK_QUEUE_LIMIT}. */
  queueLimit?: number;
  /** The environment hooks start from (the daemon's); their variables go on top. */
  env: Record<string, string>;
  /** Where hooks run: the configuration file's real directory. */
  cwd?: string;
  /**
   * Why hooks may not run now (an untrusted project file), asked before each
   * run; undefined: they may. Absent: always.
   */
  refused?: () => string | undefined;
  /** How a hook is run (a test seam); default engine/hook_process.ts `runHookProcess`. */
  run?: typeof runHookProcess;
}

/** One hook to run for one event. */
interface HookJob {
  hook: HookDeclaration;
  event: BusEvent;
}

/** Counts since the runner started, for `status` and tests. */
export interface HookCounts {
  /** Runs started. */
  started: number;
  /** Runs that ended other than `ok` (failed, timed out, not found). */
  failed: number;
  /** Runs dropped because the queue was full. */
  dropped: number;
  /** Runs not started because the configuration was not trusted. */
  refused: number;
}

/** Runs a configuration's declared hooks for the events of one bus. */
export class HookRunner {
  #o: HookRunnerOptions;
  #run: typeof runHookProcess;
  #queue: HookJob[] = [];
  #running = new Set<Promise<void>>();
  #scheduled = false;
  #closed = false;
  #stop = new AbortController();
  /** Drops not logged yet. */
  #unreported = 0;
  /** The refusal last logged, and the runs it skipped since. */
  #refusal?: string;
  #idle = new Set<() => void>();
  readonly counts: HookCounts = { started: 0, failed: 0, dropped: 0, refused: 0 };

  /** @throws {RangeError} For a concurrency or queue limit below 1. */
  constructor(options: HookRunnerOptions) {
    if (!Number.isSafeInteger(options.concurrency) || options.concurrency < 1) {
      throw new RangeError(`hooks.concurrency must be at least 1, got ${options.concurrency}`);
    }
    if ((options.queueLimit ?? HOOK_QUEUE_LIMIT) < 1) {
      throw new RangeError(`a hook queue needs room for 1 run, got ${options.queueLimit}`);
    }
    this.#o = options;
    this.#run = options.run ?? runHookProcess;
  }

  /** Whether any hook is declared (a runner without hooks need not listen). */
  get declared(): boolean {
    return this.#o.hooks.length > 0;
  }

  /** Runs running now. */
  get running(): number {
    return this.#running.size;
  }

  /** Runs waiting for a slot now. */
  get queued(): number {
    return this.#queue.length;
  }

  /**
   * Listens to `bus` until the returned function is called (or {@link close}).
   *
   * @param bus The daemon's event bus.
   * @returns Stops listening.
   */
  attach(bus: EventBus): () => void {
    return bus.listen((event) => this.enqueue(event));
  }

  /**
   * Queues a run of every hook `event` matches. Called inside `publish`:
   * appends, schedules, and returns; never throws, never waits.
   */
  enqueue(event: BusEvent): void {
    if (this.#closed) return;
    for (const hook of this.#o.hooks) {
      if (!matches(hook, event)) continue;
      if (this.#queue.length >= (this.#o.queueLimit ?? HOOK_QUEUE_LIMIT)) {
        this.counts.dropped++;
        this.#unreported++;
        continue;
      }
      this.#queue.push({ hook, event });
    }
    if (!this.#scheduled && (this.#queue.length > 0 || this.#unreported > 0)) {
      this.#scheduled = true;
      queueMicrotask(() => {
        this.#scheduled = false;
        this.#pump();
      });
    }
  }

  /** Resolves once no hook runs and none waits. */
  idle(): Promise<void> {
    if (this.#running.size === 0 && this.#queue.length === 0 && !this.#scheduled) {
      return Promise.resolve();
    }
    return new Promise((resolve) => this.#idle.add(resolve));
  }

  /**
   * Stops: nothing more is queued, what waits is dropped unrun, and running
   * hooks are ended (their process groups killed) and waited for.
   */
  async close(): Promise<void> {
    this.#closed = true;
    this.#queue.length = 0;
    this.#stop.abort();
    await Promise.all(this.#running);
    this.#reportDrops();
    this.#settle();
  }

  #pump(): void {
    const concurrency = this.#o.concurrency;
    while (!this.#closed && this.#running.size < concurrency && this.#queue.length > 0) {
      const job = this.#queue.shift()!;
      const refused = this.#o.refused?.();
      if (refused !== undefined) {
        this.#refuse(refused);
        continue;
      }
      this.#refusal = undefined;
      const running = this.#start(job).finally(() => {
        this.#running.delete(running);
        this.#pump();
      });
      this.#running.add(running);
    }
    if (this.#queue.length === 0) this.#reportDrops();
    this.#settle();
  }

  async #start({ hook, event }: HookJob): Promise<void> {
    this.counts.started++;
    let result: HookProcessResult;
    try {
      result = await this.#run({
        command: hook.command,
        env: { ...this.#o.env, ...observeHookEnv(hook.name, event) },
        ...(this.#o.cwd ? { cwd: this.#o.cwd } : {}),
        stdin: `${JSON.stringify(event)}\n`,
        timeoutMs: hook.timeoutMs ?? this.#o.timeoutMs,
        signal: this.#stop.signal,
      });
    } catch (error) {
      // runHookProcess never throws; a seam that does is a failed run, not the daemon's end.
      result = {
        outcome: "failed",
        durationMs: 0,
        stderrTail: "",
        stdoutTail: "",
        reason: (error as Error).message,
      };
    }
    const facts = {
      hook: hook.name,
      seq: event.seq,
      kind: event.kind,
      ...(event.server ? { server: event.server } : {}),
      ms: result.durationMs,
    };
    if (result.outcome === "ok") {
      log("debug", "hook.ran", "hook {hook} ran for event {seq} ({kind}) in {ms} ms", facts);
      return;
    }
    if (result.outcome === "cancelled") return;
    this.counts.failed++;
    const stderr = result.stderrTail.split("\n").filter((l) => l.trim() !== "")
      .slice(-STDERR_LINES).join("\n");
    log("warn", "hook.failed", "hook {hook} failed for event {seq} ({kind}): {reason}", {
      ...facts,
      outcome: result.outcome,
      reason: result.reason ?? result.outcome,
      ...(result.exitCode !== undefined && result.exitCode !== null
        ? { exitCode: result.exitCode }
        : {}),
      ...(result.signal ? { signal: result.signal } : {}),
      ...(result.pid ? { pid: result.pid } : {}),
      ...(stderr ? { stderr } : {}),
    });
  }

  #refuse(reason: string): void {
    this.counts.refused++;
    if (this.#refusal === reason) return;
    this.#refusal = reason;
    log("warn", "hook.untrusted", "hooks not run: {reason}", { reason });
  }

  #reportDrops(): void {
    if (this.#unreported === 0) return;
    const count = this.#unreported;
    this.#unreported = 0;
    log(
      "warn",
      "hook.dropped",
      "{count} hook runs were dropped: {limit} were already waiting for one of {concurrency} slots",
      {
        count,
        limit: this.#o.queueLimit ?? HOOK_QUEUE_LIMIT,
        concurrency: this.#o.concurrency,
        total: this.counts.dropped,
      },
    );
  }

  #settle(): void {
    if (this.#running.size > 0 || this.#queue.length > 0 || this.#scheduled) return;
    const waiting = [...this.#idle];
    this.#idle.clear();
    for (const resolve of waiting) resolve();
  }
}

/** Whether `hook` runs for `event`: one of its kinds, and one of its servers when it names any. */
export function matches(hook: HookDeclaration, event: BusEvent): boolean {
  if (event.kind === "gap") return false;
  if (!hook.on.some((pattern) => kindMatches(pattern, event.kind))) return false;
  if (!hook.servers) return true;
  return event.server !== undefined && hook.servers.includes(event.server);
}
