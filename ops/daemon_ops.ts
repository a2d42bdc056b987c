/**
 * Every daemon operation, declared once: name, parameters (JSON Schema),
 * read-only/destructive hints and handler. The `/v1/<name>` route is
 * generated from this table (DESIGN.md, "One declaration, several
 * renderings"); later surfaces (`mcpx serve`, OpenAPI) read it too.
 *
 * @module
 */

import type { Daemon } from "../engine/engine.ts";
import type { CallerContext } from "../engine/scope_key.ts";
import type { WireTrace } from "../wire/wire.ts";
import { UsageError } from "../core/errors.ts";
import { droppedRecords } from "../engine/log.ts";
import { selectionFromWire } from "../config/profiles.ts";

/**
 * What an answer carries besides the result or the error: filled by a
 * handler, sent by daemon/http.ts whether the operation succeeded or failed.
 */
export interface Reply {
  /** The instance that served a traced call (wire/wire.ts). */
  trace?: WireTrace;
}

/** One declared operation. */
export interface Operation {
  description: string;
  readOnly: boolean;
  destructive: boolean;
  /** JSON Schema of the request body. */
  params: Record<string, unknown>;
  /**
   * The result is what a server answered the caller (a tool's result): sent
   * as the server gave it, while every other answer, and a result that
   * reports `isError`, has the configuration's secrets replaced by their
   * references (daemon/http.ts, decision 0017).
   */
  serverData?: true;
  handler(
    daemon: Daemon,
    params: Record<string, unknown>,
    signal: AbortSignal,
    reply: Reply,
  ): Promise<unknown>;
}

const callerSchema = {
  session: { type: "string", description: "session key (--session or MCPX_SESSION_ID)" },
  parentSession: { type: "string", description: "MCPX_PARENT_SESSION_ID" },
  cwd: { type: "string", description: "the caller's working directory" },
  pid: { type: "integer", description: "the caller's process id" },
  gitDir: { type: "string", description: "the caller's GIT_DIR, when set" },
  gitWorkTree: { type: "string", description: "the caller's GIT_WORK_TREE, when set" },
  run: { type: "string", description: "the script run making the call (MCPX_RUN)" },
  traceIds: {
    type: "string",
    description:
      "the caller's MCPX_TRACE_IDS as written: each pair lands on its records as id.<key>",
  },
  notify: {
    type: "string",
    description: "a token under which this call's lease waits are reported (see waits)",
  },
  selection: {
    type: "object",
    description: "the caller's profile selection (--profile, --skip-default, --all-profiles); " +
      "a call outside it is refused. Absent: the default set",
    properties: {
      profiles: { type: "array", items: { type: "string" } },
      skipDefault: { type: "boolean" },
      all: { type: "boolean" },
    },
  },
  trustCheck: {
    type: "boolean",
    description: "whether the caller wants untrusted project servers refused; a daemon that " +
      "checks otherwise refuses the request unrun (trust-mismatch)",
  },
};

/** The operations, keyed by name (the route is `POST /v1/<name>`). */
export const OPERATIONS: Record<string, Operation> = {
  health: {
    description: "who this daemon is: version, pid, configuration; log records it could not write",
    readOnly: true,
    destructive: false,
    params: { type: "object", properties: {} },
    handler: (d) =>
      Promise.resolve({
        version: d.version,
        pid: Deno.pid,
        fingerprint: d.config.fingerprint,
        configPath: d.config.path,
        mode: d.mode,
        startedAt: new Date(d.startedAt).toISOString(),
        stopping: d.stopping,
        trustCheck: d.trustCheck,
        ...(droppedRecords() ? { logDropped: droppedRecords() } : {}),
      }),
  },
  live: {
    description: "live instance count and last start failure per namespace",
    readOnly: true,
    destructive: false,
    params: { type: "object", properties: {} },
    handler: (d) => Promise.resolve(d.live()),
  },
  starting: {
    description:
      "server starts in progress: namespace, key, elapsed ms, allowance and its setting, phase " +
      "(`installing` while npx downloads the package)",
    readOnly: true,
    destructive: false,
    params: { type: "object", properties: {} },
    handler: (d) => Promise.resolve(d.starting()),
  },
  status: {
    description: "every server's state, live instances and last failure with stderr tail",
    readOnly: true,
    destructive: false,
    params: { type: "object", properties: {} },
    handler: (d) => Promise.resolve(d.status()),
  },
  call: {
    description: "call one tool",
    readOnly: false,
    destructive: false,
    serverData: true,
    params: {
      type: "object",
      required: ["namespace", "tool"],
      properties: {
        namespace: { type: "string" },
        tool: { type: "string" },
        arguments: { type: "object" },
        timeoutMs: {
          type: "integer",
          minimum: 1,
          description: "the caller's limit on the wait for an instance and the call together, ms",
        },
        timeoutSetting: {
          type: "string",
          description: "what set timeoutMs, as errors name it (default --timeout)",
        },
        trace: {
          type: "boolean",
          description:
            "the caller's MCPX_TRACE: log the instance that serves the call and send it back",
        },
        ...callerSchema,
      },
    },
    handler: (d, p, signal, reply) =>
      d.call(
        str(p, "namespace"),
        str(p, "tool"),
        (p.arguments ?? {}) as Record<string, unknown>,
        caller(p),
        {
          timeoutMs: typeof p.timeoutMs === "number" ? p.timeoutMs : undefined,
          ...(typeof p.timeoutSetting === "string" && p.timeoutSetting
            ? { timeoutSetting: p.timeoutSetting }
            : {}),
          signal,
          ...(p.trace === true ? { trace: (trace: WireTrace) => reply.trace = trace } : {}),
        },
      ),
  },
  endRun: {
    description:
      "a script run ended: the exclusive instances it held between its calls are free again",
    readOnly: false,
    destructive: false,
    params: {
      type: "object",
      required: ["run"],
      properties: { run: { type: "string", description: "the run id (MCPX_RUN)" } },
    },
    handler: (d, p) => Promise.resolve({ released: d.endRun(str(p, "run")) }),
  },
  waits: {
    description:
      "long-poll: the lease waits (a call waiting for an instance others hold) reported under a token, " +
      "answered as soon as there is one, else [] after holdMs",
    readOnly: true,
    destructive: false,
    params: {
      type: "object",
      required: ["token"],
      properties: {
        token: { type: "string", description: "a run id, or the notify token of a call" },
        after: { type: "integer", description: "only waits with a higher id (the last one seen)" },
        holdMs: { type: "integer", minimum: 0, description: "how long to hold the request, ms" },
      },
    },
    handler: async (d, p, signal) => ({
      waits: await d.waits(
        str(p, "token"),
        typeof p.after === "number" ? p.after : 0,
        typeof p.holdMs === "number" ? p.holdMs : 20_000,
        signal,
      ),
    }),
  },
  list: {
    description: "list tools of servers (all, or named) and write the schema cache",
    readOnly: false,
    destructive: false,
    params: {
      type: "object",
      properties: {
        servers: { type: "array", items: { type: "string" } },
        missingOnly: { type: "boolean" },
        trustCheck: callerSchema.trustCheck,
      },
    },
    handler: (d, p) =>
      d.list(Array.isArray(p.servers) ? p.servers.map(String) : [], p.missingOnly === true),
  },
  restart: {
    description:
      "stop every instance of a namespace (or of one session); the next call starts a fresh one",
    readOnly: false,
    destructive: true,
    params: {
      type: "object",
      required: ["namespace"],
      properties: {
        namespace: { type: "string" },
        // Not `session`: every request carries the caller's session
        // (MCPX_SESSION_ID included), which must not narrow a restart.
        onlySession: {
          type: "string",
          description: "stop only the instances keyed session:<key> or parent-session:<key>",
        },
      },
    },
    handler: async (d, p) => ({
      stopped: await d.restart(
        str(p, "namespace"),
        p.onlySession === undefined ? undefined : str(p, "onlySession"),
      ),
    }),
  },
  endSession: {
    description:
      "end a session: every instance keyed by it (session:<key>, parent-session:<key>) in every namespace stops once its current lease is released",
    readOnly: false,
    destructive: true,
    params: {
      type: "object",
      required: ["session"],
      properties: {
        // The caller's own session field: a script runner ends the key it
        // minted for its run (MCPX_EPHEMERAL) by sending it as its session.
        session: { type: "string", description: "the session key to end" },
      },
    },
    handler: async (d, p) => ({ stopped: await d.endSession(str(p, "session")) }),
  },
  sessionNew: {
    description: "make a named session: a session key that outlives the process that made it",
    readOnly: false,
    destructive: false,
    params: {
      type: "object",
      properties: {
        name: { type: "string", description: "the name (default: a fresh 8-character one)" },
        ttlMs: {
          type: "integer",
          minimum: 1,
          description: "end the session after this long without a call, in ms",
        },
      },
    },
    handler: (d, p) =>
      Promise.resolve(
        d.sessionNew(
          p.name === undefined ? undefined : str(p, "name"),
          typeof p.ttlMs === "number" && p.ttlMs > 0 ? p.ttlMs : undefined,
        ),
      ),
  },
  sessionList: {
    description: "every named session: age, ttl, last use, namespaces with live instances",
    readOnly: true,
    destructive: false,
    params: { type: "object", properties: {} },
    handler: (d) => Promise.resolve(d.sessionList()),
  },
  sessionEnd: {
    description: "end a named session: stop its instances and delete its record",
    readOnly: false,
    destructive: true,
    params: {
      type: "object",
      required: ["name"],
      // Not `session`: every request carries the caller's own session.
      properties: { name: { type: "string" } },
    },
    handler: async (d, p) => ({
      name: str(p, "name"),
      stopped: await d.sessionEnd(str(p, "name")),
    }),
  },
  retire: {
    description:
      "stop once the requests in flight have finished (a newer daemon took over this configuration)",
    readOnly: false,
    destructive: true,
    params: { type: "object", properties: {} },
    handler: (d) => {
      d.retiring = true;
      return Promise.resolve({ retiring: true, inFlight: d.inFlight });
    },
  },
  stop: {
    description: "stop the daemon and every server it holds",
    readOnly: false,
    destructive: true,
    params: { type: "object", properties: {} },
    handler: () => Promise.resolve({ stopping: true }),
  },
};

function str(params: Record<string, unknown>, name: string): string {
  const value = params[name];
  if (typeof value !== "string" || value === "") {
    throw new UsageError(`"${name}" must be a non-empty string, got ${JSON.stringify(value)}`);
  }
  return value;
}

function caller(p: Record<string, unknown>): CallerContext {
  return {
    session: typeof p.session === "string" && p.session ? p.session : undefined,
    parentSession: typeof p.parentSession === "string" && p.parentSession
      ? p.parentSession
      : undefined,
    cwd: typeof p.cwd === "string" ? p.cwd : undefined,
    pid: typeof p.pid === "number" ? p.pid : undefined,
    gitDir: typeof p.gitDir === "string" && p.gitDir ? p.gitDir : undefined,
    gitWorkTree: typeof p.gitWorkTree === "string" && p.gitWorkTree ? p.gitWorkTree : undefined,
    run: typeof p.run === "string" && p.run ? p.run : undefined,
    notify: typeof p.notify === "string" && p.notify ? p.notify : undefined,
    selection: selectionFromWire(p.selection),
  };
}
