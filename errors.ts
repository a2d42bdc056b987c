/**
 * The error classes callers catch. Each has a string `code`, passes `cause`
 * through, and carries a message that names the problem, the value and the
 * fix (CONVENTIONS.md, rule 4). Exit codes are in {@link exitCodeOf}.
 *
 * @module
 */

/** Base of every mcpx error. `code` is stable and machine-readable. */
export class McpxError extends Error {
  /** Machine-readable kind, e.g. `config`, `usage`, `daemon-unavailable`. */
  readonly code: string;
  constructor(code: string, message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = "McpxError";
    this.code = code;
  }
}

/** A command line that cannot be run as written. Exit code 2; help is shown. */
export class UsageError extends McpxError {
  constructor(message: string, options?: ErrorOptions) {
    super("usage", message, options);
    this.name = "UsageError";
  }
}

/**
 * A configuration that cannot be used. `file` and `path` (a JSON path such as
 * `mcpServers.fs.command`) say where; the message says what and how to fix it.
 */
export class ConfigError extends McpxError {
  readonly file: string | null;
  readonly path: string;
  constructor(file: string | null, path: string, message: string, options?: ErrorOptions) {
    super("config", `config ${file ?? "(none)"}${path ? `: ${path}` : ""}: ${message}`, options);
    this.name = "ConfigError";
    this.file = file;
    this.path = path;
  }
}

/** The daemon could not be reached or started. */
export class DaemonUnavailableError extends McpxError {
  constructor(message: string, options?: ErrorOptions) {
    super("daemon-unavailable", message, options);
    this.name = "DaemonUnavailableError";
  }
}

/**
 * The connection to the daemon was lost after the request was written and
 * before its answer arrived (the daemon was killed, crashed or stopped): the
 * operation may or may not have run. Never retried, unlike
 * {@link DaemonUnavailableError}, which only ever means nothing was sent
 * (decision 0007). Exit code 1.
 */
export class DaemonLostError extends McpxError {
  /** The daemon's pid, when known (its record, or what `health` said). */
  readonly pid?: number;
  /** The operation sent (`call`, `list`, …). */
  readonly operation: string;
  /** `namespace.tool` of a lost `call`. */
  readonly tool?: string;
  /** The socket the request was written to. */
  readonly socket: string;
  constructor(
    facts: { operation: string; socket: string; pid?: number; tool?: string },
    message: string,
    options?: ErrorOptions,
  ) {
    super("daemon-lost", message, options);
    this.name = "DaemonLostError";
    this.operation = facts.operation;
    this.socket = facts.socket;
    if (facts.pid !== undefined) this.pid = facts.pid;
    if (facts.tool !== undefined) this.tool = facts.tool;
  }
}

/**
 * The three bounds on a caller's wait (issue 8, "Three bounds on a caller's
 * wait"), each named as its pool key: waiting for an instance others hold
 * (`leaseTimeout`), starting one (`startTimeout`, or `firstStartTimeout` for a
 * server never listed), and the tool call itself (`callTimeout`).
 */
export type TimeoutBound = "leaseTimeout" | "startTimeout" | "firstStartTimeout" | "callTimeout";

/**
 * Something did not finish within its limit. `ms` is the limit that passed;
 * `bound` says which wait it ended and `setting` what set the limit: the pool
 * key (`leaseTimeout`, in the server's `mcpx` block or the top-level `pool`
 * block) or the caller's own (`--timeout`), so callers act on data, never on
 * the message.
 */
export class TimeoutError extends McpxError {
  readonly ms: number;
  readonly bound?: TimeoutBound;
  readonly setting?: string;
  constructor(
    message: string,
    ms: number,
    options?: ErrorOptions & { bound?: TimeoutBound; setting?: string },
  ) {
    super("timeout", message, options);
    this.name = "TimeoutError";
    this.ms = ms;
    if (options?.bound) this.bound = options.bound;
    if (options?.setting ?? options?.bound) this.setting = options?.setting ?? options?.bound;
  }
}

/** A server that could not be started, listed or called. */
export class ServerError extends McpxError {
  readonly server: string;
  /** The last lines the server wrote to stderr, when it is a child process. */
  readonly stderrTail?: string;
  /**
   * Set when the server failed because a time limit passed (it did not start
   * in time): the setting that sets the limit, as on {@link TimeoutError}.
   */
  readonly bound?: TimeoutBound;
  constructor(
    server: string,
    message: string,
    options?: ErrorOptions & { stderrTail?: string; bound?: TimeoutBound },
  ) {
    super("server", message, options);
    this.name = "ServerError";
    this.server = server;
    this.stderrTail = options?.stderrTail;
    if (options?.bound) this.bound = options.bound;
  }
}

/** A namespace or tool name that does not exist; `suggestions` are the nearest names. */
export class NotFoundError extends McpxError {
  readonly suggestions: string[];
  constructor(message: string, suggestions: string[] = [], options?: ErrorOptions) {
    super("not-found", message, options);
    this.name = "NotFoundError";
    this.suggestions = suggestions;
  }
}

/**
 * Process exit codes, documented in one place (CONVENTIONS.md, rule 5;
 * docs/cli.md, "Exit codes"): 0 ok, 1 failure, 2 usage error, 75 waiting for
 * an answer (EX_TEMPFAIL). The daemon process (daemon/main.ts) uses the same
 * codes: 0 when it stopped, 1 when it could not serve (another daemon already
 * serves the configuration, the configuration changed while it started, a
 * setting is invalid).
 */
export const EXIT = { ok: 0, failure: 1, usage: 2, tempfail: 75 } as const;

/** The exit code an error maps to: 2 for {@link UsageError}, else 1. */
export function exitCodeOf(error: unknown): number {
  return error instanceof UsageError ? EXIT.usage : EXIT.failure;
}

/**
 * Any thrown value as JSON, never with a stack: `{ code, message,
 * suggestions?, stderrTail?, ms?, bound?, setting? }` (the last three for a
 * {@link TimeoutError} that names its setting). The daemon answers failed requests with it and
 * `--json` prints it, so a machine sees one shape everywhere.
 *
 * @param redactor Applied to the whole document (core/redact.ts): the
 *   configuration's secrets become their references. Default: none.
 */
export function errorToJson(
  error: unknown,
  redactor?: { json<T>(value: T): T },
): {
  code: string;
  message: string;
  suggestions?: string[];
  stderrTail?: string;
  ms?: number;
  bound?: TimeoutBound;
  setting?: string;
} {
  if (redactor) return redactor.json(errorToJson(error));
  if (error instanceof McpxError) {
    const bound = error instanceof TimeoutError || error instanceof ServerError
      ? error.bound
      : undefined;
    return {
      code: error.code,
      message: error.message,
      // The limit that passed and what set it, whenever the error names a setting.
      ...(error instanceof TimeoutError && (error.bound || error.setting)
        ? { ms: error.ms, ...(error.bound ? { bound: error.bound } : {}), setting: error.setting }
        : {}),
      ...(error instanceof NotFoundError && error.suggestions.length
        ? { suggestions: error.suggestions }
        : {}),
      ...(error instanceof ServerError && error.stderrTail ? { stderrTail: error.stderrTail } : {}),
      ...(bound ? { bound } : {}),
    };
  }
  return { code: "internal", message: error instanceof Error ? error.message : String(error) };
}
