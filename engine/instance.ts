/**
 * One live connection to an upstream MCP server: a stdio child in its own
 * process group, or a Streamable HTTP / SSE remote, spoken through the
 * official SDK's `Client`.
 *
 * @module
 */

import {
  type CallToolResult,
  type Client,
  StreamableHTTPClientTransport,
  type Tool,
  type Transport,
} from "@modelcontextprotocol/client";
import type { ProtocolMode, ServerSpec } from "../config/types.ts";
import type { CachedTool } from "../discovery/types.ts";
import { ServerError, TimeoutError } from "../core/errors.ts";
import { type Handshake, readHandshake, restoreHandshake } from "./handshake.ts";
import { clientMaker } from "./instance_client.ts";
import { brokenPipe, EXIT_AFTER_BROKEN_PIPE_MS, exitedBeforeInitialize } from "./exit_text.ts";
import { notificationsBeforeResponse } from "./notification_order.ts";
import { ProcessGroupStdioTransport } from "./stdio_transport.ts";
import type { Handed } from "./handed.ts";

export type { Handed } from "./handed.ts";
import { settlesWithin, type TimerId } from "../core/deadline.ts";
import { ANY_RESULT, readToolsPage, type SkippedTool } from "./tool_listing.ts";
import { paginate } from "./pagination.ts";
import type { StartAllowance, StartingInstances } from "./starting.ts";
import { failureCode, startFailure, startTimeoutText } from "./start_failure.ts";
import { formatScopeKey, type ScopeKey } from "./scope_key.ts";
import { connectInEra, effectiveMode, isModernRevision } from "./protocol_era.ts";
import { invalidParamHeaders } from "./param_headers.ts";
import { requestFailure } from "./request_failure.ts";
import {
  adoptTransport,
  credentialsFor,
  makeTransport,
  NO_CREDENTIALS,
} from "./server_transport.ts";
import type { ServerAsked } from "./client_handlers.ts";
import { type InputRelay, relayed } from "./input_relay.ts";
import { askForLogMessages, logLevelMeta, type NotificationHooks } from "./server_notifications.ts";
import type { Progress } from "./progress_log.ts";

export { describe } from "./error_text.ts";
export { SessionLostError } from "./request_failure.ts";
export { serverEnvironment } from "./server_transport.ts";

/** Why an instance stopped (recorded in status and, later, the log). */
export type StopReason = "idle" | "crash" | "stop" | "restart" | "start-failed";

/**
 * How long a server that failed to start gets between SIGTERM and SIGKILL,
 * in ms. Long on purpose: a package runner cut off mid-install (npm under
 * `npx -y`) rolls the install back on SIGTERM, which takes seconds on a
 * loaded machine; SIGKILL instead leaves a broken `_npx/<hash>` folder that
 * fails every later start.
 */
export const START_TERM_GRACE_MS = 10_000;

/** How a start runs; the pool passes what the daemon decided (engine/pool.ts `startOptions`). */
export interface StartOptions {
  /** The time `initialize` may take; default `spec.pool.startTimeoutMs` (`startTimeout`). */
  allowance?: StartAllowance;
  /** Where the start is listed while it runs (the `starting` operation). */
  starting?: StartingInstances;
  /**
   * Called with each stdout line of a stdio server that is not JSON-RPC (at
   * most 500 characters), `count` numbering them per instance.
   */
  onStrayLine?: (instance: Instance, line: string, count: number) => void;
  /**
   * The protocol mode when the server's entry sets none (the `protocol.default`
   * setting); default `auto`. engine/protocol_era.ts says what each does.
   */
  protocolDefault?: ProtocolMode;
  /** Told of each question the server asks mcpx (`roots/list`, …; engine/client_handlers.ts). */
  onAsked?: (instance: Instance, question: ServerAsked) => void;
  /** Where the server's log messages, list changes and cancellations go (engine/server_records.ts). */
  notifications?: NotificationHooks<Instance>;
  /** The configuration file the server is of: a remote's OAuth tokens are scoped to it. */
  configPath?: string | null;
}

/** What {@link Instance.callTool} takes besides the tool and its arguments. */
export interface CallToolOptions {
  /** Overrides `spec.pool.callTimeoutMs`. */
  timeoutMs?: number;
  signal?: AbortSignal;
  /** Called with each progress notification the server sends for the call. */
  onprogress?: (progress: Progress) => void;
  /** Each progress notification starts `timeoutMs` again (the SDK's option of that name). */
  resetTimeoutOnProgress?: boolean;
  /** The hard bound over the whole call however much progress arrives, in ms. */
  maxTotalTimeoutMs?: number;
  /**
   * The tool's listed input schema: lets the SDK mirror `x-mcp-header` parameters into
   * `Mcp-Param-*` headers (2026-07-28, SEP-2243), since mcpx lists tools itself.
   */
  inputSchema?: Record<string, unknown>;
  /** Sent for a client mcpx serves: its `input_required` result is answered as is (engine/input_relay.ts). */
  relay?: InputRelay;
}

let nextId = 1;

/** A started, initialized server. Dispose with `close()` or `await using`. */
export class Instance implements AsyncDisposable {
  /** Unique within the daemon, e.g. `i7`. */
  readonly id: string = `i${nextId++}`;
  readonly spec: ServerSpec;
  /** The scope key this instance serves. */
  readonly scopeKey: ScopeKey;
  /** Its text (`global`, `session:abc`, …: `formatScopeKey`), as status, logs and errors show it. */
  readonly key: string;
  readonly startedAt: number = Date.now();
  lastUsedAt: number = Date.now();
  /** The time `initialize` was allowed, and the setting that allowed it. */
  readonly startAllowance: StartAllowance;
  /** Calls answered (successfully or not). */
  calls = 0;
  /** Calls in flight now. */
  active = 0;
  lastError?: string;
  /** What its requests carry to authorize them: what a 401 is about (engine/http_status.ts). */
  credentials = NO_CREDENTIALS;
  /** Set once the connection is gone; `exit` says how. */
  closed = false;
  exit?: { reason: StopReason; code?: number | null; signal?: string | null };
  /**
   * The protocol revision agreed with the server (`2025-11-25`, `2026-07-28`,
   * …), set once connected: what `mcpx status` shows.
   */
  protocolRevision?: string;
  /** The protocol mode the instance was started in (the entry's, else `protocol.default`). */
  readonly protocolMode: ProtocolMode;
  #client: Client;
  #transport: Transport;
  #onClose: (instance: Instance) => void;

  private constructor(
    spec: ServerSpec,
    key: ScopeKey,
    client: Client,
    transport: Transport,
    onClose: (i: Instance) => void,
    allowance: StartAllowance,
    mode: ProtocolMode,
  ) {
    this.spec = spec;
    this.scopeKey = key;
    this.key = formatScopeKey(key);
    this.startAllowance = allowance;
    this.protocolMode = mode;
    this.#client = client;
    this.#transport = transport;
    this.#onClose = onClose;
  }

  /** The SDK client connected to the server, in the era it agreed. */
  get client(): Client {
    return this.#client;
  }

  /** The child's pid (stdio only). */
  get pid(): number | undefined {
    return this.#transport instanceof ProcessGroupStdioTransport ? this.#transport.pid : undefined;
  }

  /** The child's recent stderr (stdio only), or "". */
  get stderrTail(): string {
    return this.#transport instanceof ProcessGroupStdioTransport
      ? this.#transport.stderrTail.toString()
      : "";
  }

  /**
   * Starts the server and completes the MCP handshake within the start
   * allowance (`options.allowance`, else `spec.pool.startTimeoutMs`). A
   * stdio server that fails to start is stopped with SIGTERM and
   * {@link START_TERM_GRACE_MS} before SIGKILL.
   *
   * @param env The daemon's environment, under the server's own `env`.
   * @param onClose Called once when the connection ends for any reason.
   * @throws {ServerError} naming the server and the reason: command not
   *   found, exited before answering (with exit code and stderr tail, and
   *   the fix when npm's cache is broken), `initialize` failed (with the
   *   HTTP status and URL of a remote), or did not answer in time (`bound`
   *   names the setting that raises the allowance), or shares no protocol
   *   era or revision with mcpx under its mode (the message of
   *   engine/protocol_era.ts's `ProtocolMismatchError`, which is its `cause`).
   */
  static async start(
    spec: ServerSpec,
    key: ScopeKey,
    env: Record<string, string>,
    onClose: (i: Instance) => void = () => {},
    options: StartOptions = {},
  ): Promise<Instance> {
    const allowance = options.allowance ??
      { ms: spec.pool.startTimeoutMs, bound: "startTimeout" as const };
    const mode = spec.protocol ?? options.protocolDefault ?? "auto";
    // What `auto` means for this server's transport, and for one already found modern.
    const asked = effectiveMode(mode, spec.transport, spec.name);
    const newClient = clientMaker(spec, options, (): Instance => instance);
    const first = makeTransport(spec, env, options.configPath);
    const instance: Instance = new Instance(
      spec,
      key,
      newClient(),
      first,
      onClose,
      allowance,
      mode,
    );
    watchStrayLines(first, options, instance);
    instance.credentials = credentialsFor(spec, env, options.configPath);
    const timeoutMs = allowance.ms;
    const abort = new AbortController();
    const shown = options.starting?.add(instance);
    let timer: TimerId | undefined;
    try {
      const connected = connectInEra({
        server: spec.name,
        mode: asked,
        // The instance holds the client and transport of the attempt under way, to close them.
        client: (negotiation) => instance.#client = newClient(negotiation),
        transport: first,
        freshTransport: () => {
          const fresh = instance.#transport = makeTransport(spec, env, options.configPath);
          watchStrayLines(fresh, options, instance);
          return fresh;
        },
        connect: { signal: abort.signal, timeout: timeoutMs },
      }).then((era) => {
        instance.protocolRevision = era.revision;
        askForLogMessages(era.client, spec.logLevel, options.notifications, instance);
      });
      const races: Promise<unknown>[] = [
        connected,
        new Promise((_, reject) =>
          timer = setTimeout(
            () =>
              reject(
                new TimeoutError(startTimeoutText(spec, allowance), timeoutMs, {
                  bound: allowance.bound,
                }),
              ),
            timeoutMs,
          )
        ),
      ];
      if (first instanceof ProcessGroupStdioTransport && first.exited) {
        const exitedEarly = first.exited.then((status) => {
          // An exit the connect caused (the SDK stops a server it refused) is not the reason,
          // nor, under preferModern, one on server/discover, which starts it again (protocol_era.ts).
          if (first.stopRequested || asked === "preferModern") return new Promise<never>(() => {});
          throw new Error(exitedBeforeInitialize(status));
        });
        exitedEarly.catch(() => {}); // a later, ordinary exit is not an error here
        races.push(exitedEarly);
      }
      await Promise.race(races);
    } catch (caught) {
      const transport = instance.#transport;
      let error = caught;
      // A write that met a server already gone (a broken pipe) can fail before its exit is
      // seen: the exit, once seen, is the reason to give.
      if (
        transport instanceof ProcessGroupStdioTransport && transport.exited &&
        !transport.stopRequested && brokenPipe(caught) &&
        await settlesWithin(transport.exited, EXIT_AFTER_BROKEN_PIPE_MS)
      ) {
        error = new Error(exitedBeforeInitialize(await transport.exited), { cause: caught });
      }
      // Stop first, with the long grace, so the SDK's own close (on abort) joins it.
      const stopped = transport instanceof ProcessGroupStdioTransport
        ? transport.stop(START_TERM_GRACE_MS)
        : Promise.resolve();
      abort.abort();
      await stopped;
      // An exited child may still have stderr in the pipe: read it to the end first.
      if (transport instanceof ProcessGroupStdioTransport && transport.stderrDone) {
        await settlesWithin(transport.stderrDone, 500);
      }
      const stderr = instance.stderrTail;
      await instance.#closeQuietly();
      throw startFailure(spec, error, stderr, instance.credentials);
    } finally {
      clearTimeout(timer);
      shown?.();
    }
    instance.#watchTransport();
    return instance;
  }

  /**
   * Takes over a stdio server another daemon started and handed over
   * (`mcpx daemon upgrade`, engine/handoff.ts) without a new handshake: the
   * SDK's `Client` connects without `initialize` to a transport with a
   * `sessionId` (client 2.4.0 `connect`), and what the server answered the
   * first daemon's handshake is restored from `handshake`.
   *
   * @param handed The adopted process and its FIFOs (engine/stdio_transport.ts), or the
   *   Streamable HTTP session to resume.
   * @param onClose Called once when the connection ends for any reason.
   * @throws {Error} when its FIFOs cannot be opened (the server has exited).
   */
  static async adopt(
    spec: ServerSpec,
    key: ScopeKey,
    env: Record<string, string>,
    handed: Handed,
    handshake: Handshake,
    onClose: (i: Instance) => void,
    options: StartOptions = {},
  ): Promise<Instance> {
    const mode = spec.protocol ?? options.protocolDefault ?? "auto";
    const transport = adoptTransport(spec, env, handed, options.configPath);
    const client = clientMaker(spec, options, (): Instance => instance)();
    restoreHandshake(client, handshake);
    const allowance = options.allowance ??
      { ms: spec.pool.startTimeoutMs, bound: "startTimeout" as const };
    const instance: Instance = new Instance(spec, key, client, transport, onClose, allowance, mode);
    watchStrayLines(transport, options, instance);
    instance.credentials = credentialsFor(spec, env, options.configPath);
    instance.protocolRevision = handshake.protocolVersion;
    await client.connect(transport);
    instance.#watchTransport();
    return instance;
  }

  /** Once connected (started or adopted): its end closes this instance; notices go before results. */
  #watchTransport(): void {
    const transport = this.#transport;
    // Chain, never replace: the SDK's own onclose fails the requests in flight.
    const sdkOnClose = transport.onclose;
    transport.onclose = () => {
      sdkOnClose?.();
      this.#closed("crash");
    };
    // In the server's order (engine/notification_order.ts).
    notificationsBeforeResponse(transport);
  }

  /** What the server answered the handshake, for the next daemon ({@link adopt}). */
  get handshake(): Handshake {
    return readHandshake(this.#client);
  }

  /**
   * Lets go of the server without stopping it, for the next daemon to
   * {@link adopt}: a stdio server on FIFOs keeps running, a Streamable HTTP
   * session is left open (no DELETE). The instance counts as closed here, and
   * its `onClose` is not called (the pool released it: engine/pool.ts `release`).
   *
   * @returns What the next daemon adopts, or undefined for an instance that
   *   cannot be handed over (SSE, a server not on FIFOs, a remote without a
   *   session), which the caller stops as usual.
   */
  async detach(): Promise<Handed | undefined> {
    const transport = this.#transport;
    if (this.closed) return undefined;
    if (transport instanceof ProcessGroupStdioTransport) {
      if (!transport.fifoDir) return undefined;
      const process = await transport.detach();
      this.closed = true;
      this.exit = { reason: "stop" };
      return { process };
    }
    if (!(transport instanceof StreamableHTTPClientTransport) || !transport.sessionId) {
      return undefined;
    }
    const session = { sessionId: transport.sessionId, protocolVersion: this.protocolRevision };
    this.closed = true;
    this.exit = { reason: "stop" };
    // Closes the client's streams only: the session stays the server's until the next daemon's use.
    await this.client.close().catch(() => {});
    return { session };
  }

  /**
   * Lists every tool (all pages, within the default bounds of
   * engine/pagination.ts), as the cache stores them. A malformed tool is
   * skipped and named in `skipped` rather than failing the listing.
   * @throws {ServerError} when `tools/list` fails (whole message kept) or
   *   passes a pagination bound.
   */
  async listTools(): Promise<{ tools: CachedTool[]; skipped: SkippedTool[] }> {
    const skipped: SkippedTool[] = [];
    try {
      const tools = await paginate(
        { server: this.spec.name, method: "tools/list" },
        (cursor) =>
          this.client.request(
            { method: "tools/list", params: cursor ? { cursor } : {} },
            ANY_RESULT,
            { timeout: this.spec.pool.callTimeoutMs },
          ),
        (raw) => {
          const read = readToolsPage(raw);
          skipped.push(...read.skipped);
          return { items: read.tools, nextCursor: read.nextCursor };
        },
      );
      if (!this.#mirrorsParamHeaders()) return { tools, skipped };
      // A client must not call a tool whose Mcp-Param-* declarations are invalid (SEP-2243).
      const usable: CachedTool[] = [];
      for (const tool of tools) {
        const fault = invalidParamHeaders(tool.inputSchema);
        if (fault === undefined) usable.push(tool);
        else {
          skipped.push({
            name: tool.name,
            reason: `its x-mcp-header declaration is invalid (MCP 2026-07-28, SEP-2243), so ` +
              `no client may call it: ${fault}`,
          });
        }
      }
      return { tools: usable, skipped };
    } catch (error) {
      if (error instanceof ServerError) throw error; // a pagination bound, already worded
      const message = error instanceof Error ? error.message : String(error);
      throw new ServerError(
        this.spec.name,
        `server "${this.spec.name}": tools/list: ${message.slice(0, 2000)}`,
        { cause: error, stderrTail: this.stderrTail, code: failureCode(error) },
      );
    }
  }

  /**
   * Whether calls to this server mirror `x-mcp-header` arguments into
   * `Mcp-Param-*` headers: a 2026-07-28 connection over Streamable HTTP
   * (stdio carries no headers).
   */
  #mirrorsParamHeaders(): boolean {
    return this.protocolRevision !== undefined && isModernRevision(this.protocolRevision) &&
      !(this.#transport instanceof ProcessGroupStdioTransport);
  }

  /**
   * Calls one tool, with a progress token (the SDK sends one when
   * `onprogress` is given; mcpx always gives one: engine/call.ts).
   * Cancellation (`signal` or the timeout) sends `notifications/cancelled`
   * through the SDK.
   *
   * @returns The MCP `CallToolResult` envelope, `isError` included.
   * @throws {TimeoutError} when the SDK's timer passes `timeoutMs` (its
   *   `SdkErrorCode.RequestTimeout`, not the caller's signal); {SessionLostError}
   *   (the instance closed) when a remote answers that it no longer knows the
   *   session the request carried; {ServerError} when the server fails the
   *   request or the connection drops (with its stderr tail).
   */
  async callTool(
    tool: string,
    args: Record<string, unknown>,
    options: CallToolOptions = {},
  ): Promise<CallToolResult> {
    const meta = logLevelMeta(this.client, this.spec.logLevel);
    // No output schema is given, so the SDK validates no result it did not before.
    const toolDefinition = options.inputSchema
      ? { name: tool, inputSchema: options.inputSchema } as Tool
      : undefined;
    const sent = relayed(this.client, {
      name: tool,
      arguments: args,
      ...(Object.keys(meta).length ? { _meta: meta } : {}),
    }, options.relay);
    return await this.#send(
      `${this.spec.namespace}.${tool}`,
      (timeout) =>
        this.client.callTool(sent.params as { name: string }, {
          ...sent.options,
          timeout,
          signal: options.signal,
          ...(toolDefinition ? { toolDefinition } : {}),
          ...(options.onprogress ? { onprogress: options.onprogress } : {}),
          ...(options.resetTimeoutOnProgress ? { resetTimeoutOnProgress: true } : {}),
          ...(options.maxTotalTimeoutMs !== undefined
            ? { maxTotalTimeout: options.maxTotalTimeoutMs }
            : {}),
        }) as Promise<CallToolResult>,
      options,
    );
  }

  /**
   * Sends one MCP request other than `tools/call` (`prompts/get`,
   * `resources/read`, a page of `prompts/list`, …) and answers the result
   * unvalidated, failing as {@link callTool} fails.
   *
   * @param method The MCP method, as the specification writes it.
   * @param params Its params.
   * @param options.timeoutMs Overrides `spec.pool.callTimeoutMs`.
   * @param options.relay Sent for a client mcpx serves (engine/input_relay.ts).
   * @returns The result as the server sent it.
   * @throws What {@link callTool} throws; a JSON-RPC error answer is a
   *   {ServerError} whose `cause` is the SDK's `ProtocolError` (with its `code`).
   */
  async request(
    method: string,
    params: Record<string, unknown>,
    options: { timeoutMs?: number; signal?: AbortSignal; relay?: InputRelay } = {},
  ): Promise<unknown> {
    const sent = relayed(this.client, params, options.relay);
    return await this.#send(
      `${this.spec.namespace} ${method}`,
      (timeout) =>
        this.client.request({ method, params: sent.params }, ANY_RESULT, {
          ...sent.options,
          timeout,
          signal: options.signal,
        }),
      options,
    );
  }

  /** Runs one request with {@link callTool}'s bookkeeping and error wording; `what` begins errors. */
  async #send<T>(
    what: string,
    send: (timeoutMs: number) => Promise<T>,
    options: { timeoutMs?: number; signal?: AbortSignal },
  ): Promise<T> {
    const timeoutMs = options.timeoutMs ?? this.spec.pool.callTimeoutMs;
    this.active++;
    this.lastUsedAt = Date.now();
    try {
      return await send(timeoutMs);
    } catch (error) {
      throw await requestFailure(this, what, error, timeoutMs, options.signal);
    } finally {
      this.active--;
      this.calls++;
      this.lastUsedAt = Date.now();
    }
  }

  /**
   * Resolves once a closed instance's exit status is in `exit` (a stdio child's
   * code or signal arrives a moment after its pipes close), or after `ms`.
   */
  async exitSettled(ms = 2000): Promise<void> {
    const transport = this.#transport;
    if (transport instanceof ProcessGroupStdioTransport && transport.exited) {
      await settlesWithin(transport.exited, ms);
    }
  }

  /** Stops the server (process group for stdio) and records why. */
  async close(reason: StopReason): Promise<void> {
    if (this.closed) return;
    this.exit = { reason };
    await this.#closeQuietly();
    this.#closed(reason);
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.close("stop");
  }

  async #closeQuietly(): Promise<void> {
    // Streamable HTTP: release the server's session (Mcp-Session-Id) with a DELETE.
    if (this.#transport instanceof StreamableHTTPClientTransport && this.#transport.sessionId) {
      try {
        await this.#transport.terminateSession();
      } catch { /* the server may not support it (405) or be gone */ }
    }
    // Either may be gone already.
    await this.client.close().catch(() => {});
    await this.#transport.close().catch(() => {});
  }

  #closed(reason: StopReason): void {
    if (this.closed) return;
    this.closed = true;
    this.exit ??= { reason };
    const transport = this.#transport;
    if (transport instanceof ProcessGroupStdioTransport && transport.exited) {
      transport.exited.then((status) => {
        if (this.exit) {
          this.exit.code = status.code;
          this.exit.signal = status.signal;
        }
      });
    }
    this.#onClose(this);
  }
}

/** Hands a stdio transport's stray stdout lines to `options.onStrayLine`, for `instance`. */
function watchStrayLines(transport: Transport, options: StartOptions, instance: Instance): void {
  const report = options.onStrayLine;
  if (transport instanceof ProcessGroupStdioTransport && report) {
    transport.onstrayline = (line, count) => report(instance, line, count);
  }
}
