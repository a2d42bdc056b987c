/**
 * One MCP request other than `tools/call` (`prompts/list`, `prompts/get`,
 * `resources/list`, `resources/templates/list`, `resources/read`) on an
 * instance of a namespace, leased exactly as a tool call leases one: the
 * caller's profile selection decides which namespaces it may reach, and the
 * server's scope, sharing and the caller's session decide which instance
 * serves it (engine/pool.ts). Each request is one span (`cal-…`) under its
 * instance's, logged `request.start`/`request.end` with the method and what
 * it named, so `mcpx log` shows it beside the calls (spec 000, "The half of
 * MCP that is not tools").
 *
 * @module
 */

import { McpxError } from "../core/errors.ts";
import type { ServerSpec, UntrustedServer } from "../config/types.ts";
import { checkSelection, DEFAULT_SELECTION, type ProfileSelection } from "../config/profiles.ts";
import { findNamespace, type NamespaceView } from "../discovery/view.ts";
import { pidAlive } from "../core/pid_alive.ts";
import type { Pool } from "./pool.ts";
import { type Instance, SessionLostError } from "./instance.ts";
import type { CallerContext } from "./scope_key.ts";
import type { SessionStore } from "./sessions.ts";
import { leased } from "./leased.ts";

/** What a request is, for its log records: the MCP method and what it names (a prompt, a URI). */
export interface RequestLabel {
  method: string;
  /** The prompt's name or the resource's URI; absent for a listing. */
  target?: string;
}

/** What a request does once it holds an instance: its requests, within `timeoutMs`. */
export type RequestRun<T> = (
  instance: Instance,
  options: { timeoutMs: number; signal?: AbortSignal },
) => Promise<T>;

/** What {@link serverRequest} needs of the daemon. */
export interface RequestSource {
  readonly servers: ServerSpec[];
  readonly sessions: Pick<SessionStore, "touch">;
  view(selection: ProfileSelection): NamespaceView;
  poolFor(namespace: string): Pool;
  /** Why the server may not start now (its project configuration is not trusted). */
  untrusted(spec: ServerSpec): UntrustedServer | undefined;
  /** The span of an instance's life (engine/instance_events.ts). */
  span(instance: Instance): string;
}

/**
 * Refuses a script whose `mcpx run` has exited (SIGKILL leaves it no chance
 * to stop the script): its requests would serve a run nobody reads.
 * @throws {McpxError} `caller-gone`.
 */
export function refuseGoneCaller(ctx: CallerContext): void {
  if (ctx.run && ctx.pid !== undefined && !pidAlive(ctx.pid)) {
    throw new McpxError(
      "caller-gone",
      `the mcpx process (pid ${ctx.pid}) that started run ${ctx.run} has exited, so the ` +
        `script's calls are refused; start it again with \`mcpx run\``,
    );
  }
}

/**
 * The namespaces `selection` shows that a request with no namespace goes to:
 * every enabled, selected server, in configuration order.
 * @throws {UsageError} for a selection naming a profile no server has.
 */
export function selectedNamespaces(source: RequestSource, selection?: ProfileSelection): string[] {
  const chosen = selection ?? DEFAULT_SELECTION;
  checkSelection(source.servers, chosen);
  return source.view(chosen).namespaces.map((ns) => ns.namespace);
}

/**
 * Runs `run` on an instance of `namespace` leased for `ctx`, and logs it.
 * A remote that forgot the connection's session (the request did not run)
 * gets it once more on a new connection.
 *
 * @param namespace A namespace identifier or a server name.
 * @param options.timeoutMs The caller's limit on the wait and the request
 *   together; default: `leaseTimeout` for the wait, `callTimeout` for the request.
 * @returns What `run` answers.
 * @throws {NotFoundError} for an unknown, disabled or unselected namespace
 *   (discovery/view.ts `findNamespace`); {McpxError} `untrusted-config`,
 *   `server-unavailable`, `caller-gone`; what `Pool.lease` and `run` throw
 *   (a server that does not start: {ServerError}, as `mcpx call` reports it).
 */
export async function serverRequest<T>(
  source: RequestSource,
  namespace: string,
  ctx: CallerContext,
  label: RequestLabel,
  run: RequestRun<T>,
  options: { timeoutMs?: number; signal?: AbortSignal } = {},
): Promise<T> {
  refuseGoneCaller(ctx);
  const selection = ctx.selection ?? DEFAULT_SELECTION;
  checkSelection(source.servers, selection);
  const view = source.view(selection);
  const ns = findNamespace(view.namespaces, namespace, view.disabled);
  const spec = source.servers.find((s) => s.name === ns.server)!;
  const untrusted = source.untrusted(spec);
  if (untrusted) throw new McpxError("untrusted-config", untrusted.message);
  const pool = source.poolFor(ns.namespace);
  for (const key of [ctx.session, ctx.parentSession]) if (key) source.sessions.touch(key);
  try {
    return await once(source, pool, ctx, label, run, options);
  } catch (error) {
    if (!(error instanceof SessionLostError)) throw error;
    return await once(source, pool, ctx, label, run, options);
  }
}

function once<T>(
  source: RequestSource,
  pool: Pool,
  ctx: CallerContext,
  label: RequestLabel,
  run: RequestRun<T>,
  options: { timeoutMs?: number; signal?: AbortSignal },
): Promise<T> {
  return leased(pool, ctx, (i) => source.span(i), {
    kind: "request",
    what: `{namespace} {method}${label.target !== undefined ? " {target}" : ""}`,
    verb: "requested",
    about: {
      namespace: pool.spec.namespace,
      server: pool.spec.name,
      method: label.method,
      ...(label.target !== undefined ? { target: label.target } : {}),
      ...(ctx.session ? { session: ctx.session } : {}),
      ...(ctx.run ? { run: ctx.run } : {}),
    },
    timeoutMs: options.timeoutMs,
    signal: options.signal,
    run: (instance, timeoutMs) => run(instance, { timeoutMs, signal: options.signal }),
  });
}
