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

/**
 * The command needs a process of its own, and runs in one other commands
 * share (the front, decision 0068): an inline daemon sets process-wide state
 * (its log, its ledger). Thrown before anything ran; the front then tells the
 * caller to run the command itself. Code `run-in-caller`; never shown to a user.
 */
export class RunInCallerError extends McpxError {
  constructor(message: string) {
    super("run-in-caller", message);
    this.name = "RunInCallerError";
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
 * An input mcpx was asked to read whole (`@file`, `-` on stdin, `--env-file`,
 * a `--prefix` source, a script) that it refuses: past its size limit
 * (`too-large`; `limit` in bytes and the `setting` that sets it) or, where a
 * file was named, not a regular file (`not-a-file`: a device, a pipe, a
 * directory). A usage error: exit code 2 (core/bounded_read.ts).
 */
export class InputError extends UsageError {
  /** The input as the user knows it (`the arguments on stdin`). */
  readonly input: string;
  readonly problem: "too-large" | "not-a-file";
  /** The limit that was passed, in bytes (`too-large`). */
  readonly limit?: number;
  /** The setting that sets the limit (`input.maxBytes`). */
  readonly setting?: string;
  constructor(
    message: string,
    facts: {
      input: string;
      problem: "too-large" | "not-a-file";
      limit?: number;
      setting?: string;
    },
    options?: ErrorOptions,
  ) {
    super(message, options);
    this.name = "InputError";
    this.input = facts.input;
    this.problem = facts.problem;
    if (facts.limit !== undefined) this.limit = facts.limit;
    if (facts.setting !== undefined) this.setting = facts.setting;
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

/**
 * A server that could not be started, listed or called. Its `code` is
 * `server`, unless the failure has a kind of its own that callers act on:
 * `auth-required` when the server wants an OAuth authorization a person has
 * to give (`mcpx auth <server>`, decision 0042), set by whoever wraps the
 * cause (engine/start_failure.ts, engine/request_failure.ts) so `--json`
 * output, the daemon's answers and scripts see it as data.
 */
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
    options?: ErrorOptions & {
      stderrTail?: string;
      bound?: TimeoutBound;
      code?: ServerErrorCode;
    },
  ) {
    super(options?.code ?? "server", message, options);
    this.name = "ServerError";
    this.server = server;
    this.stderrTail = options?.stderrTail;
    if (options?.bound) this.bound = options.bound;
  }
}

/** The codes a {@link ServerError} carries: `server`, or the more specific `auth-required`. */
export type ServerErrorCode = "server" | "auth-required";

/**
 * A namespace or tool name that does not exist; `suggestions` are the nearest
 * names, and `namespace` the name when it is a namespace the configuration
 * does not show (what the CLI explains with the files it reads: cli/discovery/shadow_note.ts).
 */
export class NotFoundError extends McpxError {
  readonly suggestions: string[];
  readonly namespace?: string;
  constructor(
    message: string,
    suggestions: string[] = [],
    options?: ErrorOptions & { namespace?: string },
  ) {
    super("not-found", message, options);
    this.name = "NotFoundError";
    this.suggestions = suggestions;
    if (options?.namespace !== undefined) this.namespace = options.namespace;
  }
}

/**
 * Why the file system refused to store something, read from the error's
 * `code` (the errno name Deno and Node put on file system errors):
 * `ENOSPC` no space left, `EDQUOT` the user's quota is used up, `EROFS` a
 * read-only file system, `EACCES`/`EPERM` no permission.
 */
export type StorageProblem = "no-space" | "quota" | "read-only" | "permission";

/** Errno names (an error's `code`) of the failures {@link StorageError} reports. */
export const STORAGE_CODES: Readonly<Record<string, StorageProblem>> = {
  ENOSPC: "no-space",
  EDQUOT: "quota",
  EROFS: "read-only",
  EACCES: "permission",
  EPERM: "permission",
};

const STORAGE_PHRASES: Record<StorageProblem, string> = {
  "no-space": "no space left on device",
  quota: "disk quota exceeded",
  "read-only": "read-only file system",
  permission: "permission denied",
};

/** Where mcpx can be told to keep its files instead (docs/configuration.md). */
const ELSEWHERE = "or point mcpx elsewhere (settings paths.state, paths.cache, logging.dir)";

function storageFix(problem: StorageProblem, dir: string | undefined): string {
  const at = dir ?? "the file system mcpx writes to";
  switch (problem) {
    case "no-space":
      return `free space on the file system that holds ${at}${
        dir ? ` (\`df -h ${dir}\` shows it)` : ""
      }, ${ELSEWHERE}`;
    case "quota":
      return `free space within your quota on ${at} (\`quota -s\` shows it), ${ELSEWHERE}`;
    case "read-only":
      return `${at} is on a read-only file system: remount it writable, ${ELSEWHERE}`;
    case "permission":
      return `make ${at} writable by you${
        dir ? ` (\`ls -ld ${dir}\` shows who owns it)` : ""
      }, ${ELSEWHERE}`;
  }
}

/**
 * The file system would not store a file mcpx writes (a full disk, a used-up
 * quota, a read-only file system, no permission). `path` is the file (or
 * directory) that could not be written, `problem` why; the message names
 * both and the fix. Exit code 1.
 */
export class StorageError extends McpxError {
  /** The file or directory that could not be written. */
  readonly path: string;
  readonly problem: StorageProblem;
  /**
   * @param path The file (or directory) that could not be written.
   * @param problem Why ({@link storageProblem}).
   * @param options `doing`: what did not happen because of it, said after the
   *   path (`the named session "a" was not made`); `cause`: the original error.
   */
  constructor(
    path: string,
    problem: StorageProblem,
    options?: ErrorOptions & { doing?: string },
  ) {
    const dir = path.slice(0, Math.max(1, path.lastIndexOf("/"))) || path;
    super(
      "storage",
      `${STORAGE_PHRASES[problem]}: cannot write ${path}${
        options?.doing ? ` (${options.doing})` : ""
      }; ${storageFix(problem, dir)}`,
      options,
    );
    this.name = "StorageError";
    this.path = path;
    this.problem = problem;
  }
}

/**
 * The {@link StorageProblem} of a thrown value: a {@link StorageError}'s own
 * `problem` (core/private_fs.ts has already mapped it), else read from its
 * `code` (an errno name, {@link STORAGE_CODES}); undefined for anything else.
 */
export function storageProblem(error: unknown): StorageProblem | undefined {
  if (error instanceof StorageError) return error.problem;
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" ? STORAGE_CODES[code] : undefined;
}

/**
 * A file system error of a write to `path` as a {@link StorageError} naming
 * the path and the fix, or undefined when it is not one of the failures
 * {@link STORAGE_CODES} lists (the caller rethrows it as it was).
 *
 * @param error What the write threw.
 * @param path The file (or directory) being written.
 * @example
 * ```ts
 * import { storageErrorOf } from "./errors.ts";
 * const full = Object.assign(new Error("No space left on device (os error 28)"), { code: "ENOSPC" });
 * if (storageErrorOf(full, "/s/mcpx/x.json")?.problem !== "no-space") throw new Error();
 * ```
 */
export function storageErrorOf(error: unknown, path: string): StorageError | undefined {
  if (error instanceof StorageError) return error;
  const problem = storageProblem(error);
  return problem ? new StorageError(path, problem, { cause: error }) : undefined;
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
 * suggestions?, stderrTail?, ms?, bound?, setting?, limit? }` (`ms`, `bound` and
 * `setting` for a {@link TimeoutError} that names its setting; `limit` and
 * `setting` for an {@link InputError} past its limit). The daemon answers failed requests with it and
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
  namespace?: string;
  stderrTail?: string;
  ms?: number;
  bound?: TimeoutBound;
  setting?: string;
  limit?: number;
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
      // An input past its limit: the bytes allowed and the setting to raise.
      ...(error instanceof InputError && error.limit !== undefined
        ? { limit: error.limit, setting: error.setting }
        : {}),
      ...(error instanceof NotFoundError && error.suggestions.length
        ? { suggestions: error.suggestions }
        : {}),
      // The name is a namespace the configuration lacks: the caller may say which file shadows it.
      ...(error instanceof NotFoundError && error.namespace !== undefined
        ? { namespace: error.namespace }
        : {}),
      ...(error instanceof ServerError && error.stderrTail ? { stderrTail: error.stderrTail } : {}),
      ...(bound ? { bound } : {}),
    };
  }
  const message = error instanceof Error ? error.message : String(error);
  // A file system refusal that no caller mapped to its path ({@link storageErrorOf}):
  // still a storage error, named as such, with the system's own message (which names the path).
  const problem = storageProblem(error);
  if (problem) {
    return {
      code: "storage",
      message: `${STORAGE_PHRASES[problem]} (${message}); ${storageFix(problem, undefined)}`,
    };
  }
  return { code: "internal", message };
}
