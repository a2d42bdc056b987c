/**
 * The client's configuration, shared by the runtime's modules: what the run's
 * environment says (spec 004; read by client/script_runtime.ts on import
 * and by its `reloadRuntimeEnv`), the log levels it implies, and what the
 * generated part of `mcpx-client.ts` says (its `configureClient`).
 *
 * One mutable object rather than module bindings, because the modules that
 * read it are inlined into one client and cannot assign an imported binding.
 *
 * @module
 */

import type { WireSelection } from "../wire/caller.ts";
import type { ToolEntry } from "../discovery/types.ts";

/** What the run's environment says, read once (and again by `reloadRuntimeEnv`). */
export interface RuntimeEnv {
  /**
   * `MCPX_SOCKET` (the daemon's unix socket), else `MCPX_ENDPOINT` (`http://host:port` for a
   * daemon elsewhere); unset outside `mcpx run`/`mcpx exec`.
   */
  socket: string | undefined;
  /** `MCPX_TRANSPORT_BEARER_TOKEN`: sent to a daemon reached over TCP. */
  token: string | undefined;
  session: string | undefined;
  /**
   * Whose the script's questions are when not its session's (decision 0059):
   * `""` (the callers that named no session) when `MCPX_EPHEMERAL` says the
   * run made its session up, since whoever ran it named none.
   */
  owner: string | undefined;
  parentSession: string | undefined;
  /** `MCPX_ATTACH`: the caller's attachment to a session it took over (decision 0085). */
  attach: string | undefined;
  cwd: string | undefined;
  pid: number | undefined;
  gitDir: string | undefined;
  gitWorkTree: string | undefined;
  /** `MCPX_TRACE_IDS` as written: the daemon puts each pair on the call's records. */
  traceIds: string | undefined;
  /** `MCPX_RUN`, the run's id, on every record; `run-unknown` when unset. */
  span: string;
  /** `MCPX_OUTPUT=json`: results and emitted values go out as records. */
  json: boolean;
  /** The daemon's pid as the runner found it, named when a call's connection is lost. */
  daemonPid: number | undefined;
  /** Setting `logging.trace` (`MCPX_TRACE`): each call asks the daemon which instance served it. */
  trace: boolean;
  /**
   * The run's profile selection (settings `profiles.*`, handed on by the
   * runner): the daemon refuses a call outside it. Absent: the default set.
   */
  selection: WireSelection | undefined;
}

/** The shape of {@link rtConfig}. */
export interface ClientConfig {
  /** What the run's environment says. */
  env: RuntimeEnv;
  /** Records below this rank (logs/record.ts `LEVEL_RANK`) are dropped after one comparison. */
  logMinRank: number;
  /** Records at or above this rank carry their call site (`Infinity`: none). */
  sourceMinRank: number;
  /**
   * The mcpx version that generated the client, sent as `x-mcpx-version`;
   * empty until the generated part configures the client.
   */
  version: string;
  /** The search index: one entry per tool. */
  tools: ToolEntry[];
  /** Each tool's TypeScript declaration, keyed `namespace.fn`. */
  declarations: Record<string, string>;
}

/** The client's configuration; every field is replaced, never edited in place. */
export const rtConfig: ClientConfig = {
  env: {
    socket: undefined,
    token: undefined,
    session: undefined,
    owner: undefined,
    parentSession: undefined,
    attach: undefined,
    cwd: undefined,
    pid: undefined,
    gitDir: undefined,
    gitWorkTree: undefined,
    traceIds: undefined,
    span: "run-unknown",
    json: false,
    daemonPid: undefined,
    trace: false,
    selection: undefined,
  },
  logMinRank: 1,
  sourceMinRank: 2,
  version: "",
  tools: [],
  declarations: {},
};
