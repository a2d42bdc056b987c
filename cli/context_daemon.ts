/**
 * The daemon side of a command's context: finding, starting or replacing the
 * daemon of this configuration, sending it operations with the caller context,
 * and ending the servers a dead daemon left. Its inputs come from the
 * configuration side (cli/context_settings.ts); cli/context.ts joins the two.
 *
 * @module
 */

import { callerBody } from "../wire/caller.ts";
import { WIRE_REFUSALS } from "../wire/answer.ts";
import { settingValues } from "../engine/daemon_settings.ts";
import { selectionFromSettings } from "../config/profiles.ts";
import { settingOf } from "../config/settings.ts";
import { connectDaemon, type DaemonHealth } from "./daemon_connect.ts";
import { endpointUnavailable, requestDaemon, type RequestOptions } from "../wire/daemon_request.ts";
import { traceLine, type WireNotification } from "../wire/wire.ts";
import { wireEndpoint } from "../wire/endpoint.ts";
import { daemonFiles, recordedDaemonPid } from "../wire/locate.ts";
import {
  awaitProcessEnd,
  LOST_DAEMON_EXIT_MS,
  processStart,
  sweepOrphanGroups,
} from "../engine/process_groups.ts";
import {
  DaemonLostError,
  DaemonUnavailableError,
  McpxError,
  RunInCallerError,
} from "../core/errors.ts";
import { VERSION } from "../core/version.ts";
import { withStartProgress } from "./discovery/start_progress.ts";
import type { StartingRow } from "../engine/starting.ts";
import type { SettingsContext } from "./context_settings.ts";
import type { InlineDaemon, startInlineDaemon as StartInline } from "../daemon/inline.ts";

/** What the daemon side reads from the configuration side of the context. */
export type DaemonLinkSource = Pick<
  SettingsContext,
  | "io"
  | "env"
  | "cwd"
  | "session"
  | "owner"
  | "signal"
  | "config"
  | "settings"
  | "setting"
  | "paths"
  | "trustChecked"
  | "traceIds"
  | "callerPid"
  | "shared"
>;

/**
 * One command's connection to its configuration's daemon. Remembers the pid
 * of the daemon last found answering, for messages and for
 * {@link sweepIfDaemonDied}.
 */
export class DaemonLink {
  #source: DaemonLinkSource;
  /** The pid of the daemon last found answering (health), for messages. */
  #daemonPid?: number;
  /** The daemon inside this command (`daemon.inline`), once a request needed it. */
  #inline?: Promise<InlineDaemon>;

  /** @param source The configuration, settings and caller this link sends for. */
  constructor(source: DaemonLinkSource) {
    this.#source = source;
  }

  /** The caller's environment (a relayed command line's, not this process's). */
  #envLookup = (name: string): string | undefined => this.#source.env[name];

  /**
   * The daemon's socket path, starting the daemon when none runs. With
   * `daemon.endpoint` set, that endpoint once it answers `health`; nothing is
   * started (spec 000, "One daemon, many clients").
   *
   * @throws {DaemonUnavailableError} naming the endpoint and the setting when
   *   an endpoint is set and does not answer.
   */
  async daemonSocket(): Promise<string> {
    const endpoint = await this.endpoint();
    if (endpoint) {
      await this.#send(endpoint, "health", {}, { version: VERSION });
      return endpoint;
    }
    const inline = await this.#inlineSocket();
    if (inline) return inline;
    const config = await this.#source.config();
    const settings = await this.#source.settings();
    const { socket, pid } = await connectDaemon({
      stateDir: this.#source.paths().stateDir,
      cacheDir: this.#source.paths().cacheDir,
      fingerprint: config.fingerprint,
      configPath: config.path,
      startWaitMs: settingOf(settings, "daemon.startWait"),
      settings: settingValues(settings),
      env: this.#source.env,
      trustCheck: await this.#source.trustChecked(),
    });
    this.#daemonPid = pid;
    return socket;
  }

  /**
   * The daemon's socket, checked with one `health` request (no timer: arming
   * one costs a CLI ~6 ms the first time); only when that fails is the daemon
   * found, started or replaced as {@link daemonSocket} does.
   */
  async liveDaemonSocket(): Promise<string> {
    if (await this.endpoint() || await this.#inlineOn()) return await this.daemonSocket();
    const socket = await this.existingDaemonSocket();
    try {
      const health = await requestDaemon<DaemonHealth>(socket, "health", {}, {
        version: VERSION,
        daemonPid: await this.#lostDaemonPid(),
      });
      // A daemon that checks trust otherwise than this command would is replaced.
      if (!health.stopping && (health.trustCheck ?? false) === await this.#source.trustChecked()) {
        this.#daemonPid = health.pid;
        return socket;
      }
    } catch (error) {
      // `health` changes nothing, so one lost to a dying daemon is no reason to stop: its
      // servers are ended once it has died, and another daemon is found or started.
      if (error instanceof DaemonLostError) await this.sweepOrphans(error.pid);
      else if (!needsOtherDaemon(error)) throw error;
    }
    return await this.daemonSocket();
  }

  /**
   * The pid of the daemon {@link liveDaemonSocket} or {@link daemonSocket}
   * found, once one has (a script's client names it when its connection is lost).
   */
  get daemonPid(): number | undefined {
    return this.#daemonPid;
  }

  /** `MCPX_TRACE_IDS` as the daemon takes it: the text as written, checked first. */
  #traceIds(): { traceIds?: string } {
    const text = this.#source.env.MCPX_TRACE_IDS;
    if (!text) return {};
    this.#source.traceIds();
    return { traceIds: text };
  }

  /**
   * The endpoint `daemon.endpoint` (`MCPX_DAEMON_ENDPOINT`) names, checked,
   * or undefined when it is not set.
   *
   * @throws {McpxError} code `config`, naming the setting and the value, when it is no daemon
   *   address.
   */
  async endpoint(): Promise<string | undefined> {
    const value = String(await this.#source.setting("daemon.endpoint") ?? "").trim();
    if (!value) return undefined;
    try {
      wireEndpoint(value);
    } catch (error) {
      throw new McpxError(
        "config",
        `daemon.endpoint (MCPX_DAEMON_ENDPOINT): ${(error as Error).message}`,
      );
    }
    return value;
  }

  /** `transport.bearerToken`, sent to a TCP endpoint; undefined when unset. */
  async #token(): Promise<string | undefined> {
    return String(await this.#source.setting("transport.bearerToken") ?? "") || undefined;
  }

  /**
   * {@link requestDaemon} with the bearer token; to a configured endpoint, a
   * request that never reached it fails naming the endpoint and the setting.
   */
  async #send<T>(
    socket: string,
    operation: string,
    params: Record<string, unknown>,
    options: RequestOptions,
  ): Promise<T> {
    const endpoint = await this.endpoint();
    try {
      return await requestDaemon<T>(socket, operation, params, {
        ...options,
        ...(endpoint ? { token: await this.#token() } : {}),
      });
    } catch (error) {
      if (!endpoint || !(error instanceof DaemonUnavailableError)) throw error;
      throw endpointUnavailable(endpoint, error);
    }
  }

  /** The socket of a running daemon for this configuration (or the endpoint), without starting one. */
  async existingDaemonSocket(): Promise<string> {
    const endpoint = await this.endpoint();
    if (endpoint) return endpoint;
    // The daemon inside this command once it runs; none is started here.
    if (this.#inline) return (await this.#inline).socket;
    const config = await this.#source.config();
    return daemonFiles(this.#source.paths().stateDir, config.fingerprint, this.#envLookup).socket;
  }

  /**
   * Sends an operation to the daemon (started on demand), adding the caller
   * context. Sent again (to a daemon found, started or replaced) only when it
   * provably never ran: nothing answered and nothing was written, or the
   * daemon refused it unrun (`version-mismatch`, `daemon-stopping`). On a
   * terminal, a request still pending after a second shows which servers are
   * starting (cli/discovery/start_progress.ts).
   *
   * @throws {DaemonLostError} when the daemon was lost after the request was
   *   written (it may have run): the daemon's orphaned servers are ended first.
   * @throws the daemon's own errors ({@link McpxError} with its `code`).
   */
  request<T = unknown>(
    operation: string,
    params: Record<string, unknown> = {},
    options: DaemonRequestOptions = {},
  ): Promise<T> {
    const { io } = this.#source;
    const sent = this.#request<T>(operation, params, true, options);
    if (!io.errIsTerminal?.()) return sent;
    return withStartProgress(sent, {
      poll: async () =>
        this.#send<StartingRow[]>(await this.existingDaemonSocket(), "starting", {}, {
          version: VERSION,
          timeoutMs: 2000,
        }),
      write: (text) => io.errRaw ? io.errRaw(text) : io.err(text),
      columns: terminalColumns() - 1,
    });
  }

  /**
   * Sends an operation, with the caller context, to this configuration's
   * daemon only if one of this version is running: never starts, replaces or
   * waits for one. Undefined when none answered or it refused the request
   * unrun; the caller then does the work itself.
   *
   * @throws {DaemonLostError} when the daemon was lost after the request was written.
   * @throws the daemon's own errors ({@link McpxError} with its `code`).
   */
  async requestRunning<T>(
    operation: string,
    params: Record<string, unknown> = {},
    options: Pick<DaemonRequestOptions, "onExtra"> = {},
  ): Promise<T | undefined> {
    // Inline, "running" is this command's own daemon, once something started it.
    if (!this.#inline && await this.#inlineOn()) return undefined;
    try {
      return await this.#request<T>(operation, params, false, options);
    } catch (error) {
      // With an endpoint there is no local answer to fall back to.
      if (needsOtherDaemon(error) && !(await this.endpoint())) return undefined;
      throw error;
    }
  }

  async #request<T>(
    operation: string,
    params: Record<string, unknown>,
    start = true,
    { beforeStart, onExtra, onNotification, signal: own }: DaemonRequestOptions = {},
  ): Promise<T> {
    const source = this.#source;
    const { env, io } = source;
    // The caller's part is encoded by the wire's one declaration (wire/caller.ts); what the
    // operation's own parameters say wins (`endSession` names the session it ends).
    const body = {
      ...callerBody({
        session: source.session,
        owner: source.owner,
        parentSession: env.MCPX_PARENT_SESSION_ID,
        attach: env.MCPX_ATTACH,
        // The caller's git variables, not the daemon's (an autostarted daemon
        // inherits whoever ran mcpx first): spec 000, "Finding the repository
        // without git".
        gitDir: env.GIT_DIR,
        gitWorkTree: env.GIT_WORK_TREE,
        ...this.#traceIds(),
        // What may start servers says whether it checks trust; a daemon that
        // checks otherwise refuses it unrun (`trust-mismatch`) and is replaced.
        ...(STARTS_SERVERS.has(operation) ? { trustCheck: await source.trustChecked() } : {}),
        cwd: source.cwd,
        pid: source.callerPid ?? Deno.ppid,
        // What the daemon could not say on its own (records it could not write, damaged state).
        notices: true,
        // What it says about this request (a wait for an instance others hold), as it happens.
        live: true,
        // The daemon refuses a call outside the caller's profiles (decision 0015).
        selection: selectionFromSettings((await source.settings()).values),
        // A caller that hears a call's notifications carries a token: the daemon says them then.
        ...(onNotification ? { notify: crypto.randomUUID() } : {}),
      }),
      ...params,
    };
    const remote = await this.endpoint();
    const options: RequestOptions = {
      version: VERSION,
      ...(source.signal || own
        ? {
          signal: own && source.signal
            ? AbortSignal.any([own, source.signal])
            : own ?? source.signal,
        }
        : {}),
      // A remote daemon's pid is on another machine: neither a record here nor a local process.
      ...(remote ? {} : { daemonPid: await this.#lostDaemonPid() }),
      onTrace: (t) => io.err(traceLine(t) + "\n"),
      onNote: (text) => io.err(`note: ${text}\n`),
      ...(onExtra ? { onExtra } : {}),
      ...(onNotification ? { onNotification } : {}),
      onNotices: (notices) => {
        for (const notice of notices) io.err(`warning: ${notice.message}\n`);
      },
    };
    const send = async (socket: string) => {
      try {
        return await this.#send<T>(socket, operation, body, options);
      } catch (error) {
        // Its servers would otherwise keep running (and writing) with no daemon to stop them.
        if (error instanceof DaemonLostError && !remote) await this.sweepOrphans(error.pid);
        throw error;
      }
    };
    // A named endpoint is the only daemon: never found, started or replaced here.
    if (remote) return await send(remote);
    // Inline, the daemon is this command's own (started on first need): no other is tried.
    if (await this.#inlineOn()) {
      if (!this.#inline) await beforeStart?.();
      return await send(await this.daemonSocket());
    }
    // Straight to the socket, stating our version: a daemon of another version
    // refuses without running anything, and only then (or when none answers)
    // is the daemon found, started or replaced. Saves a round trip per call.
    try {
      return await send(await this.existingDaemonSocket());
    } catch (error) {
      if (!needsOtherDaemon(error) || !start) throw error;
    }
    await beforeStart?.();
    return await send(await this.daemonSocket());
  }

  /**
   * The pid a lost request names and waits for (wire/daemon_request.ts
   * `RequestOptions.daemonPid`), asked only once one is lost: the local daemon
   * last found answering, else the one its record names.
   */
  async #lostDaemonPid(): Promise<() => number | undefined> {
    const { stateDir } = this.#source.paths();
    const { fingerprint } = await this.#source.config();
    return () => this.#daemonPid ?? recordedDaemonPid(stateDir, fingerprint);
  }

  /** Whether `daemon.inline` is set (and no endpoint, which always wins: decision 0051). */
  async #inlineOn(): Promise<boolean> {
    return (await this.#source.setting("daemon.inline")) === true && !(await this.endpoint());
  }

  /**
   * The socket of the daemon inside this command, started on first use, when
   * `daemon.inline` is set; undefined otherwise. It lives until {@link close}.
   */
  async #inlineSocket(): Promise<string | undefined> {
    if (!(await this.#inlineOn())) return undefined;
    if (this.#source.shared) {
      // Its log, ledger and question desk are the process's: not a process others share.
      throw new RunInCallerError("daemon.inline runs the daemon in the caller's own process");
    }
    this.#inline ??= (async () => {
      const config = await this.#source.config();
      // Computed: the daemon's modules (zod, the MCP SDK, LogTape) stay off every other
      // command's module graph, as `mcpx daemon`'s are (cli/commands.ts).
      const { startInlineDaemon } = await import(
        new URL("../daemon/inline.ts", import.meta.url).href
      ) as { startInlineDaemon: typeof StartInline };
      return await startInlineDaemon({
        configPath: config.path,
        fingerprint: config.fingerprint,
        settings: settingValues(await this.#source.settings()),
        env: this.#source.env,
        cwd: this.#source.cwd,
        trustCheck: await this.#source.trustChecked(),
      });
    })();
    this.#daemonPid = Deno.pid;
    return (await this.#inline).socket;
  }

  /**
   * Stops the daemon inside this command, and every server it started, when
   * one was started (`daemon.inline`); nothing otherwise. Called when the command ends.
   */
  async close(): Promise<void> {
    const inline = this.#inline;
    this.#inline = undefined;
    if (inline) await (await inline)[Symbol.asyncDispose]();
  }

  /**
   * Ends the process groups of this configuration's dead daemons
   * (engine/process_groups.ts, decision 0006); live daemons' are left alone.
   *
   * @param lostPid The daemon a request was just lost to: first waited for,
   *   up to {@link LOST_DAEMON_EXIT_MS}, since a killed daemon drops its
   *   connections before it is seen dead.
   */
  async sweepOrphans(lostPid?: number): Promise<void> {
    if (lostPid !== undefined) await awaitProcessEnd(lostPid, LOST_DAEMON_EXIT_MS);
    const config = await this.#source.config();
    const { groups } = daemonFiles(
      this.#source.paths().stateDir,
      config.fingerprint,
      this.#envLookup,
    );
    await sweepOrphanGroups([groups]);
  }

  /**
   * After work that talked to the daemon behind this CLI's back (a script's
   * calls): when that daemon has died meanwhile, ends the servers it left
   * ({@link sweepOrphans}). Costs one process lookup when it lives.
   */
  async sweepIfDaemonDied(): Promise<void> {
    if (this.#daemonPid === undefined) return;
    const now = processStart(this.#daemonPid);
    if (now === undefined || now.zombie) await this.sweepOrphans();
  }
}

/** The terminal's width in columns, or 80 when it cannot be read. */
function terminalColumns(): number {
  try {
    return Deno.consoleSize().columns || 80;
  } catch {
    return 80;
  }
}

/**
 * True when a request failed without running because no daemon of this
 * version answers (none runs, one of another version refused, or one is
 * stopping): the daemon is then found, started or replaced, and the request
 * sent again. Never true once a request may have run ({@link DaemonLostError}).
 */
function needsOtherDaemon(error: unknown): boolean {
  return error instanceof DaemonUnavailableError ||
    (error instanceof McpxError && WIRE_REFUSALS.includes(error.code));
}

/** Daemon error codes that mean the request was refused before anything ran (daemon/http.ts). */

/** Operations that may start a server, so carry the caller's `trustCheck` (decision 0018). */
const STARTS_SERVERS = new Set(["call", "list", "relay"]);

/** Options of {@link DaemonLink.request}. */
export interface DaemonRequestOptions {
  /**
   * Run only when no daemon answered and one is about to be started (or
   * found, or replaced): a check that throws to refuse the request there, so
   * a request that cannot succeed starts no daemon (issue 24), while a
   * running daemon decides it alone.
   */
  beforeStart?: () => Promise<unknown>;
  /** Told what a person's rendering of the result adds (wire/wire.ts `WireAnswer.extra`). */
  onExtra?: (extra: Record<string, unknown>) => void;
  /**
   * Told each notification of a call's server (its progress and log
   * messages), in order and before the request resolves: the call carries a
   * `notify` token (one is made unless `params` names one), and the daemon
   * says them on the request's own connection (decision 0078).
   */
  onNotification?: (notification: WireNotification) => void;
  /** Aborts this request alone (the command's own signal aborts it too). */
  signal?: AbortSignal;
}
