/**
 * The caller context, declared once: what a caller tells the daemon about
 * itself with each request (its session, working directory, pid, git
 * variables, run, profile selection, …). The engine keys instances by it
 * (engine/scope_key.ts re-exports {@link CallerContext}); the daemon's routes
 * validate it with a zod schema built from {@link CALLER_FIELDS}
 * (ops/caller_schema.ts, whose test holds the two together); and each client
 * (the CLI, the generated client of a script) sends it with
 * {@link callerBody}.
 *
 * Portable like wire/wire.ts: imports nothing, so the generated client can
 * inline it (client/bundle.ts).
 *
 * @module
 */

/**
 * The profiles a caller sees (config/profiles.ts `ProfileSelection`, the same
 * shape): `--profile`, `--skip-default`, `--all-profiles` or their settings.
 * On the wire `skipDefault` and `all` may be left out (false).
 */
export interface WireSelection {
  /** Profiles whose servers join the selection. */
  profiles: string[];
  /** Leave the default set out. */
  skipDefault: boolean;
  /** Every server, whatever its profiles. */
  all: boolean;
}

/** What a caller tells the daemon about itself with each request. */
export interface CallerContext {
  /** `--session <key>`, else `MCPX_SESSION_ID`. */
  session?: string;
  /** `MCPX_PARENT_SESSION_ID`. */
  parentSession?: string;
  /**
   * `MCPX_ATTACH`: the attachment to the session the caller holds
   * (engine/session_attach.ts, decision 0085). A session taken over runs only
   * its writer's calls; a read-only attachment's calls are refused. Not a key.
   */
  attach?: string;
  /** The caller's working directory (absolute). */
  cwd?: string;
  /** The caller's process id. */
  pid?: number;
  /** The caller's `GIT_DIR`, when set (never the daemon's own). */
  gitDir?: string;
  /** The caller's `GIT_WORK_TREE`, when set (never the daemon's own). */
  gitWorkTree?: string;
  /**
   * The script run making the call (`MCPX_RUN`), recorded on its call
   * records; not a key. A run holds an exclusive instance from its first
   * call until it ends (engine/pool.ts), and its lease waits are reported
   * under this id (the `waits` operation).
   */
  run?: string;
  /**
   * A token chosen by a caller outside a run under which its lease waits are
   * reported to the `waits` operation; a call that carries one has its
   * server's progress and log messages said to it before the answer, in
   * order (`notifications`, decision 0078). Not a key.
   */
  notify?: string;
  /**
   * Whose questions this request's calls raise, and which questions it sees
   * and answers, when that is not its session's (decision 0059): a client of
   * `mcpx serve` that named no session is a caller of its own; a script run
   * whose session was made up for it sends `""`, the callers that named no
   * session, as whoever ran it was. Absent: its session's (or, with no
   * session, those of every caller that named none). Not a key.
   */
  owner?: string;
  /**
   * The profiles the caller sees; not a key. A call to a namespace outside
   * it is refused (engine/call_target.ts). Absent: the default set
   * (config/profiles.ts `DEFAULT_SELECTION`), never more (decision 0015).
   */
  selection?: WireSelection;
}

/**
 * Every field a request body may carry about its caller: the
 * {@link CallerContext} the engine reads, and what the daemon's HTTP layer
 * reads itself (daemon/http.ts): the caller's trace ids, how it checks trust,
 * and whether it wants the daemon's notices.
 */
export interface RequestCaller extends CallerContext {
  /** The caller's `MCPX_TRACE_IDS` as written: each pair lands on its records as `id.<key>`. */
  traceIds?: string;
  /**
   * Whether the caller wants untrusted project servers refused; a daemon that
   * checks otherwise refuses the request unrun (`trust-mismatch`, decision 0018).
   */
  trustCheck?: boolean;
  /** Send what the daemon has to tell the person at the shell (engine/notices.ts). */
  notices?: boolean;
  /** Hear this request's notes as they happen (wire/live_notes.ts). */
  live?: boolean;
}

/** The JSON type of a caller field, as {@link CALLER_FIELDS} declares it. */
export type CallerFieldType = "string" | "integer" | "boolean" | "selection";

/** One row of {@link CALLER_FIELDS}. */
export interface CallerField<T extends CallerFieldType = CallerFieldType> {
  type: T;
  /** One line, for the route's schema. */
  description: string;
  /** Who reads it: the engine (part of {@link CallerContext}) or the HTTP layer. */
  readBy: "engine" | "http";
  /** An empty string means the field was not sent (an unset variable). */
  emptyIsAbsent?: true;
}

type FieldTypeOf<V> = V extends string ? "string"
  : V extends number ? "integer"
  : V extends boolean ? "boolean"
  : V extends WireSelection ? "selection"
  : never;

type CallerFieldTable = {
  readonly [K in keyof Required<RequestCaller>]:
    & CallerField<
      FieldTypeOf<NonNullable<RequestCaller[K]>>
    >
    & { readBy: K extends keyof CallerContext ? "engine" : "http" };
};

/**
 * The caller's fields with their JSON types: tied to {@link RequestCaller}
 * by `satisfies`, so a field added to the interface without a row here (or
 * with a row of another type) does not compile.
 */
export const CALLER_FIELDS = {
  session: {
    type: "string",
    description: "session key (--session or MCPX_SESSION_ID)",
    readBy: "engine",
    emptyIsAbsent: true,
  },
  parentSession: {
    type: "string",
    description: "MCPX_PARENT_SESSION_ID",
    readBy: "engine",
    emptyIsAbsent: true,
  },
  attach: {
    type: "string",
    description: "MCPX_ATTACH: the caller's attachment to its session (session attach); a " +
      "session taken over runs only its writer's calls, a read-only attachment's are refused",
    readBy: "engine",
    emptyIsAbsent: true,
  },
  cwd: { type: "string", description: "the caller's working directory", readBy: "engine" },
  pid: { type: "integer", description: "the caller's process id", readBy: "engine" },
  gitDir: {
    type: "string",
    description: "the caller's GIT_DIR, when set",
    readBy: "engine",
    emptyIsAbsent: true,
  },
  gitWorkTree: {
    type: "string",
    description: "the caller's GIT_WORK_TREE, when set",
    readBy: "engine",
    emptyIsAbsent: true,
  },
  run: {
    type: "string",
    description: "the script run making the call (MCPX_RUN)",
    readBy: "engine",
    emptyIsAbsent: true,
  },
  notify: {
    type: "string",
    description: "a token under which this call's lease waits are reported (see waits); " +
      "a call that carries one is told its server's progress and log messages before the " +
      "answer, in order (notification lines to a live caller, else notifications)",
    readBy: "engine",
    emptyIsAbsent: true,
  },
  owner: {
    type: "string",
    description: "whose questions the request's calls raise and which it sees, when not its " +
      'session\'s (a serve client of no session; "": the callers that named none)',
    readBy: "engine",
  },
  selection: {
    type: "selection",
    description: "the caller's profile selection (--profile, --skip-default, --all-profiles); " +
      "a call outside it is refused. Absent: the default set",
    readBy: "engine",
  },
  traceIds: {
    type: "string",
    description:
      "the caller's MCPX_TRACE_IDS as written: each pair lands on its records as id.<key>",
    readBy: "http",
  },
  trustCheck: {
    type: "boolean",
    description: "whether the caller wants untrusted project servers refused; a daemon that " +
      "checks otherwise refuses the request unrun (trust-mismatch)",
    readBy: "http",
  },
  notices: {
    type: "boolean",
    description: "answer with what the daemon has to tell the person at the shell (notices)",
    readBy: "http",
  },
  live: {
    type: "boolean",
    description: "send each note about this request (a wait for an instance others hold) as " +
      "it happens, as lines ahead of the answer (application/x-ndjson)",
    readBy: "http",
  },
} as const satisfies CallerFieldTable;

/**
 * The caller's fields as a request body sends them: only declared fields
 * with a value, an empty string left out where it means "not sent"
 * ({@link CallerField.emptyIsAbsent}). Spread into the route's own fields.
 *
 * @example
 * ```ts
 * import { callerBody } from "./caller.ts";
 * const body = callerBody({ session: "", cwd: "/w", pid: 7, gitDir: undefined });
 * if (JSON.stringify(body) !== '{"cwd":"/w","pid":7}') throw new Error();
 * ```
 */
export function callerBody(caller: RequestCaller): Partial<RequestCaller> {
  const out: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(CALLER_FIELDS)) {
    const value = (caller as Record<string, unknown>)[name];
    if (value === undefined || value === null) continue;
    if (value === "" && (field as CallerField).emptyIsAbsent) continue;
    out[name] = value;
  }
  return out as Partial<RequestCaller>;
}
