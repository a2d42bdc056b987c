/**
 * The handlers of the daemon's routes, one per route declared in
 * ops/routes.ts (`ROUTES`, re-exported here): each receives its route's
 * validated input (daemon/http.ts parses the body with the route's zod input
 * first) and answers its declared output, both typed from the route's schemas.
 *
 * @module
 */

import type { WireTrace } from "../wire/wire.ts";
import type { Daemon } from "../engine/engine.ts";
import { droppedRecords } from "../engine/log.ts";
import { callNotify } from "./call_notify.ts";
import type { InputOf, OpSpec, OutputOf } from "./op.ts";
import { McpxError } from "../core/errors.ts";
import type { Reply, RouteHandler, StreamHandler } from "./route_handler.ts";
import { eventStream } from "./daemon_events.ts";
import { splitTarget } from "./tool_target.ts";
import { ROUTE_SPECS, type RouteName } from "./routes.ts";
import { callerOf } from "./caller_schema.ts";
import { searchInDaemon } from "./daemon_search.ts";
import { lsInDaemon } from "./daemon_ls.ts";
import { viewInDaemon } from "./daemon_view.ts";
import { contentOptions } from "./daemon_content.ts";
import { getPrompt, listPrompts, listResources, readResource } from "../engine/content.ts";
import { getSkill, listSkills, verifySkill } from "../engine/skills.ts";
import { TASK_HANDLERS } from "./daemon_tasks.ts";
import { SUBSCRIPTION_HANDLERS } from "./daemon_subscriptions.ts";
import {
  callAnswering,
  QUESTION_HANDLERS,
  questionCaller,
  resumeCall,
} from "./daemon_questions.ts";
import { complete } from "../engine/complete.ts";
import { relayRequest } from "./daemon_relay.ts";
import { attachSession } from "./daemon_attach.ts";
import { attacherOf } from "../engine/session_attach.ts";

export { ROUTE_SPECS, type RouteName, ROUTES } from "./routes.ts";

type Specs = typeof ROUTE_SPECS;

/** The routes that stream (`stream: "sse"`, answered as server-sent events). */
type StreamRoute = "events";

/**
 * Every route's handler, keyed by route name: a streaming route's yields its
 * items ({@link StreamHandler}), every other answers one document.
 */
export const HANDLERS:
  & { [K in Exclude<RouteName, StreamRoute>]: RouteHandler<Specs[K]> }
  & { [K in StreamRoute]: StreamHandler<Specs[K]> } = {
    events: (d, p, signal, headers) => eventStream(d, p, signal, headers.lastEventId),
    health: (d) =>
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
    live: (d) => Promise.resolve(d.live()),
    starting: (d) => Promise.resolve(d.starting()),
    status: (d) => Promise.resolve(d.status()),
    call: (d, p, signal, reply) => {
      const { namespace, tool } = splitTarget(p.target);
      const caller = questionCaller(p);
      const answer = p.resume
        ? resumeCall(p.resume, caller, signal, p.target)
        : answerCall(d, namespace, tool, p, caller, signal, reply);
      return answer as Promise<OutputOf<Specs["call"]>>;
    },
    ...TASK_HANDLERS,
    questions: (_d, p, signal) => QUESTION_HANDLERS.questions(p, signal),
    questionGet: (_d, p, signal) => QUESTION_HANDLERS.questionGet(p, signal),
    questionAnswer: (_d, p, signal) => QUESTION_HANDLERS.questionAnswer(p, signal),
    relay: relayRequest,
    prompts: (d, p, signal) =>
      listPrompts(d.requests, p.namespace, callerOf(p), contentOptions(p, signal)),
    promptGet: (d, p, signal) =>
      getPrompt(
        d.requests,
        p.namespace,
        p.prompt,
        { ...p.arguments },
        callerOf(p),
        contentOptions(p, signal),
      ),
    resources: (d, p, signal) =>
      listResources(d.requests, p.namespace, callerOf(p), contentOptions(p, signal)),
    resourceRead: (d, p, signal) =>
      readResource(
        d.requests,
        p.namespace,
        p.uri,
        { ...p.variables },
        callerOf(p),
        contentOptions(p, signal),
      ),
    ...SUBSCRIPTION_HANDLERS,
    skills: (d, p, signal) =>
      listSkills(d.requests, p.namespace, callerOf(p), contentOptions(p, signal)),
    skillGet: (d, p, signal) =>
      (p.verify ? verifySkill : getSkill)(
        d.requests,
        p.namespace,
        p.uri,
        callerOf(p),
        contentOptions(p, signal),
      ),
    complete: (d, p, signal) =>
      complete(d.requests, p.namespace, p.ref, p.argument, { ...p.context }, callerOf(p), {
        signal,
        ...(p.timeoutMs !== undefined ? { timeoutMs: p.timeoutMs } : {}),
      }),
    endRun: (d, p) => Promise.resolve({ released: d.endRun(p.run) }),
    // The waits under `token` above `after`: at once when there are some, else when one
    // begins, or [] after holdMs (at most 60 s).
    waits: async (d, p, signal) => ({
      waits: await d.leases.poll(p.token, p.after, Math.min(Math.max(0, p.holdMs), 60_000), signal),
    }),
    list: (d, p) => d.list(p.servers, p.missingOnly, p.wait),
    // The op's output is the result; what a person's rendering adds rides beside it.
    search: async (d, p, _signal, reply) => {
      const { output, ...extra } = await searchInDaemon(d, p);
      reply.extra = extra;
      return output;
    },
    lsNamespaces: (d, p) => lsInDaemon(d, p),
    // A NamespaceView is the route's loose rows with fields declared (an interface has no index
    // signature, so TypeScript cannot see that itself).
    namespaces: (d, p) =>
      viewInDaemon(d, { ...p, selection: callerOf(p).selection }) as unknown as Promise<
        OutputOf<Specs["namespaces"]>
      >,
    restart: async (d, p) => ({ stopped: await d.restart(p.namespace, p.onlySession) }),
    endSession: async (d, p) => ({ stopped: await d.endSession(p.session) }),
    sessionNew: (d, p) => d.sessionNew(p.name, p.ttlMs, attacherOf(p)),
    sessionList: (d) => Promise.resolve(d.sessionList()),
    sessionEnd: async (d, p) => ({ name: p.name, stopped: await d.sessionEnd(p.name) }),
    sessionAttach: (d, p) => Promise.resolve(attachSession(d, p.name, p.mode, attacherOf(p))),
    sessionDetach: (d, p) => Promise.resolve({ detached: d.attachments.detach(p.token) }),
    retire: (d) => {
      if (!d.retiring) d.configChanged({ change: "retiring" });
      d.retiring = true;
      return Promise.resolve({ retiring: true as const, inFlight: d.inFlight });
    },
    stop: () => Promise.resolve({ stopping: true as const }),
    upgrade: async (d) => {
      if (!d.upgrade) {
        throw new McpxError(
          "upgrade-failed",
          "this daemon runs inside another process (inline) and has no servers to hand over",
        );
      }
      return await d.upgrade() as OutputOf<Specs["upgrade"]>;
    },
  };

/** A route and its handler, as daemon/http.ts serves them. */
export interface Route {
  spec: OpSpec;
  /** The handler of a route that answers one document. */
  handler: RouteHandler<OpSpec>;
  /** The handler of a streaming route (`spec.stream`): set instead of {@link handler}'s use. */
  stream?: StreamHandler<OpSpec>;
}

/**
 * The route called `name`, or undefined (an own property only: `constructor`
 * and other Object members are no route).
 */
export function routeNamed(name: string): Route | undefined {
  if (!Object.hasOwn(ROUTE_SPECS, name)) return undefined;
  const key = name as RouteName;
  const spec: OpSpec = ROUTE_SPECS[key];
  const handler = HANDLERS[key] as unknown;
  return spec.stream
    ? {
      spec,
      handler: () => Promise.reject(new Error(`${name} streams`)),
      stream: handler as StreamHandler<OpSpec>,
    }
    : { spec, handler: handler as RouteHandler<OpSpec> };
}

/** A `call` route's call, its questions answered as decision 0040 says (ops/daemon_questions.ts). */
function answerCall(
  d: Daemon,
  namespace: string,
  tool: string,
  p: InputOf<Specs["call"]>,
  caller: ReturnType<typeof questionCaller>,
  signal: AbortSignal,
  reply: Reply,
): Promise<unknown> {
  return callAnswering(
    p.target,
    caller.owner,
    signal,
    (signal, pending) =>
      d.call(namespace, tool, p.arguments ?? {}, callerOf(p), {
        timeoutMs: p.timeout,
        ...(p.timeoutSetting ? { timeoutSetting: p.timeoutSetting } : {}),
        signal,
        ...(pending ? { pending } : {}),
        ...(p.trace === true ? { trace: (trace: WireTrace) => reply.trace = trace } : {}),
        ...(p.task === true ? { asTask: true } : {}),
        ...(p.taskTtlMs !== undefined ? { taskTtlMs: p.taskTtlMs } : {}),
        ...(reply.note ? { onNote: reply.note } : {}),
        ...callNotify(p.notify, reply),
      }),
  );
}
