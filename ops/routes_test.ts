import assert from "node:assert/strict";
import * as z from "zod";
import { HANDLERS, ROUTE_SPECS, routeNamed, ROUTES } from "./daemon_ops.ts";
import { OPS } from "./table.ts";
import { CALLER_SHAPE, callerOf, callerSchema } from "./caller_schema.ts";
import { CALLER_FIELDS, type CallerContext, type RequestCaller } from "../wire/caller.ts";
import type * as out from "./route_outputs.ts";
import type { StatusRow } from "../engine/status_row.ts";
import type { StartingRow } from "../engine/starting.ts";
import type { LeaseWait } from "../wire/lease_waits.ts";
import type { ListResult } from "../engine/tool_listing.ts";
import type { SessionRow } from "../engine/engine.ts";
import type { TaskRow } from "../engine/tasks.ts";
import type { TaskRow as TaskRowSchema } from "./task_outputs.ts";
import type { ProfileSelection } from "../config/profiles.ts";
import type { CallerContext as EngineCallerContext } from "../engine/scope_key.ts";
import { emptyDaemon } from "../engine/_empty_daemon.ts";
import type { Runnable as RunnableShape } from "./output_shapes.ts";
import type { Runnable } from "../config/runs_of.ts";

/** True when A and B are the same type (not merely assignable one way). */
type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends (<T>() => T extends B ? 1 : 2) ? true
  : false;

// The caller's zod shape is the wire's interface, field for field and type for type.
const _caller: Equal<z.output<typeof callerSchema>, RequestCaller> = true;
const _selection: Equal<NonNullable<RequestCaller["selection"]>, ProfileSelection> = true;
const _engine: Equal<EngineCallerContext, CallerContext> = true;
// Each declared output is the engine's own type of that answer.
const _status: Equal<z.input<typeof out.StatusRow>, StatusRow> = true;
const _starting: Equal<z.input<typeof out.StartingRow>, StartingRow> = true;
const _wait: Equal<z.input<typeof out.LeaseWait>, LeaseWait> = true;
const _list: Equal<z.input<typeof out.ListResult>, ListResult> = true;
const _session: Equal<z.input<typeof out.SessionRow>, SessionRow> = true;
const _task: Equal<z.input<typeof TaskRowSchema>, TaskRow> = true;
// The strict shape commands' outputs are checked against (a field missing there fails at run time).
const _runnable: Equal<z.input<typeof RunnableShape>, Runnable> = true;
void [_caller, _selection, _engine, _status, _starting, _wait, _list, _session, _task, _runnable];

Deno.test("every route has a handler and every handler a route; routes run in the daemon", () => {
  assert.deepEqual(Object.keys(HANDLERS).sort(), Object.keys(ROUTE_SPECS).sort());
  const names = ROUTES.map((r) => r.name);
  assert.equal(names.length, new Set(names).size);
  for (const [key, route] of Object.entries(ROUTE_SPECS)) {
    assert.equal(route.name, key);
    assert.equal(route.where, "daemon", key);
    // A route with a command is that command's one declaration: the table holds the same op.
    if (route.cli) {
      assert.equal(OPS.find((op) => op.name === key), route, `${key}: one declaration`);
    }
    assert.ok(route.description.endsWith("."), `${key}: a description is a sentence`);
    assert.equal(routeNamed(key)?.spec, route);
  }
  assert.deepEqual(
    ROUTES.filter((r) => r.serverData).map((r) => r.name),
    [
      "call",
      "taskResult",
      "questionAnswer",
      "relay",
      "promptGet",
      "resourceRead",
      "skills",
      "skillGet",
    ],
    "only a tool's result (a task's too, or one relayed for the passthrough), a rendered prompt, " +
      "a read resource and skills are the server's data",
  );
  for (const name of ["constructor", "toString", "__proto__", "hasOwnProperty", "CALL"]) {
    assert.equal(routeNamed(name), undefined, name);
  }
});

Deno.test("every route's input takes the caller's fields as wire/caller.ts declares them", () => {
  assert.deepEqual(Object.keys(CALLER_SHAPE), Object.keys(CALLER_FIELDS));
  const good = { string: "x", integer: 7, boolean: true, selection: { profiles: ["a"] } };
  const bad = { string: 7, integer: 1.5, boolean: "yes", selection: { profiles: "a" } };
  for (const route of ROUTES) {
    const shape = (route.input as unknown as z.ZodObject).shape;
    for (const [field, { type }] of Object.entries(CALLER_FIELDS)) {
      assert.ok(field in shape, `${route.name} takes ${field}`);
      if (route.name === "endSession" && field === "session") continue; // its own, required
      const base = minimalBody(route.name);
      assert.ok(route.input.safeParse({ ...base, [field]: good[type] }).success, route.name);
      assert.ok(!route.input.safeParse({ ...base, [field]: bad[type] }).success, route.name);
    }
  }
});

Deno.test("callerOf() picks what the engine reads, drops an empty string that means unset", () => {
  const input = callerSchema.parse({
    session: "",
    parentSession: "p",
    cwd: "",
    pid: 4,
    run: "",
    traceIds: "a=b",
    trustCheck: true,
    notices: true,
    selection: { profiles: [" web", "web", "db"] },
  });
  assert.deepEqual(callerOf(input), {
    parentSession: "p",
    cwd: "",
    pid: 4,
    selection: { profiles: ["web", "db"], skipDefault: false, all: false },
  });
});

Deno.test("every route's input and output render as JSON Schema", () => {
  for (const route of ROUTES) {
    const input = z.toJSONSchema(route.input, { io: "input" }) as { properties?: object };
    assert.ok(input.properties, route.name);
    z.toJSONSchema(route.output, { io: "input" });
  }
});

Deno.test("what the handlers answer fits each route's declared output", async () => {
  const { daemon, dir } = await emptyDaemon();
  const signal = new AbortController().signal;
  const answer = async (name: keyof typeof ROUTE_SPECS, body: Record<string, unknown> = {}) => {
    const route = routeNamed(name)!;
    const result = await route.handler(daemon, route.spec.input.parse(body), signal, {});
    const checked = route.spec.output.safeParse(result);
    assert.ok(checked.success, `${name}: ${JSON.stringify(checked.error?.issues)}`);
    return result;
  };
  try {
    for (const name of ["health", "live", "starting", "status", "sessionList"] as const) {
      await answer(name);
    }
    await answer("list");
    await answer("endRun", { run: "r-1" });
    await answer("waits", { token: "t", holdMs: 0 });
    await answer("endSession", { session: "s-1" });
    await answer("sessionNew", { name: "made", ttlMs: 60_000 });
    assert.equal((await answer("sessionList") as unknown[]).length, 1);
    await answer("sessionEnd", { name: "made" });
    assert.deepEqual(await answer("tasks"), []);
    await answer("retire");
    await answer("stop");
  } finally {
    await daemon.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});

/** The smallest body `route` accepts. */
function minimalBody(route: string): Record<string, unknown> {
  switch (route) {
    case "call":
      return { target: "n.t" };
    case "endRun":
      return { run: "r" };
    case "waits":
    case "sessionDetach":
      return { token: "t" };
    case "sessionAttach":
      return { name: "s", mode: "read" };
    case "restart":
      return { namespace: "n" };
    case "promptGet":
      return { namespace: "n", prompt: "p" };
    case "relay":
      return { namespace: "n", method: "tools/call", name: "t" };
    case "resourceSubscribe":
      return { namespace: "n", uri: "u", subscriber: "s" };
    case "resourceUnsubscribe":
    case "resourceUpdates":
      return { subscriber: "s" };
    case "resourceRead":
    case "skillGet":
      return { namespace: "n", uri: "u" };
    case "skills":
      return { namespace: "n" };
    case "complete":
      return {
        namespace: "n",
        ref: { type: "ref/prompt", name: "p" },
        argument: { name: "a", value: "" },
      };
    case "search":
      return { words: ["w"], limit: 20 };
    case "endSession":
      return { session: "s" };
    case "sessionEnd":
      return { name: "s" };
    case "taskGet":
    case "taskResult":
    case "taskCancel":
      return { taskId: "t" };
    case "questionGet":
    case "questionAnswer":
      return { id: "elc-00000000" };
    default:
      return {};
  }
}
