/**
 * The errors that end a caller's wait, each naming the bound that passed and
 * what sets it as data (`TimeoutError.bound`, `.setting`; issue 8, "Three
 * bounds on a caller's wait"), and in words what to do about it.
 *
 * @module
 */

import type { ServerSpec } from "../config/types.ts";
import { TimeoutError } from "../core/errors.ts";
import { describeHolder, type Holder } from "./lease_board.ts";
import { formatScopeKey, type ScopeKey, sessionOf } from "./scope_key.ts";

/** `mcpx restart <ns>`, narrowed to the key's session when it has one. */
function restartCommand(spec: ServerSpec, key: ScopeKey): string {
  const session = sessionOf(key);
  return `mcpx restart ${spec.namespace}${session ? ` --session ${session}` : ""}`;
}

/** One instance of a pool as the lease timeout error describes it. */
export interface InstanceInUse {
  /** Its scope key's text (`formatScopeKey`). */
  key: string;
  holders: Holder[];
  /** Epoch ms of its last use. */
  lastUsedAt: number;
}

/**
 * The error for a caller that waited `waitedMs` for an instance others hold
 * (`bound: "leaseTimeout"`): which keys are in use and by whom (run, pid,
 * since when), and what raises the limit or frees the instance.
 *
 * @param setting `leaseTimeout`, or the caller's own limit (`--timeout`) when shorter.
 * @param full True when the pool was at `max` (rather than the key's one instance held).
 */
export function leaseTimeoutError(
  spec: ServerSpec,
  key: ScopeKey,
  waitedMs: number,
  setting: string,
  inUse: InstanceInUse[],
  full: boolean,
): TimeoutError {
  const { max, sharing, scope } = spec.pool;
  const now = Date.now();
  const described = inUse.map((i) =>
    `${i.key} (${
      i.holders.length
        ? `held by ${i.holders.map(describeHolder).join(", ")}`
        : `idle ${Math.round((now - i.lastUsedAt) / 1000)}s`
    })`
  );
  const noSession = key.kind === "call" && scope !== "call"
    ? ` No session was given, so this call could not share one: pass --session <key> or set MCPX_SESSION_ID.`
    : "";
  const raise = setting === "leaseTimeout"
    ? "raise leaseTimeout (in the server's mcpx block or the top-level pool block)"
    : `raise ${setting}`;
  const byRun = inUse.some((i) => i.holders.some((h) => h.run))
    ? " A script run keeps an exclusive instance from its first call until it ends."
    : "";
  return new TimeoutError(
    `server "${spec.name}": no instance for key ${
      formatScopeKey(key)
    } became free within ${waitedMs} ms ` +
      `(${setting}; max ${max} instance${max === 1 ? "" : "s"}, sharing ${sharing}; in use: ${
        described.join(", ") || "none"
      }).${byRun} Wait for the holder to finish, ${raise}${full ? ", raise max" : ""}, ` +
      `or free it with \`${restartCommand(spec, key)}\`.${noSession}`,
    waitedMs,
    { bound: "leaseTimeout", setting },
  );
}

/**
 * What a request that ran out of time is said to have become, in every
 * message that reports one: mcpx sent `notifications/cancelled` for it (the
 * SDK does when its timer passes; MCP "Cancellation"), but a server may
 * ignore that or receive it too late, so the request may still run to its
 * end on the server, with its effects. Nothing more is known.
 *
 * @param what The request (`ns.tool`, `ns prompts/get`).
 * @param ms The limit it had, in ms.
 * @param setting The setting or flag that set the limit (`callTimeout`).
 * @returns One sentence without a final period.
 * @example
 * ```ts
 * import { timedOutText } from "./lease_errors.ts";
 * if (!timedOutText("fs.read", 100, "callTimeout").includes("may still finish")) throw new Error();
 * ```
 */
export function timedOutText(what: string, ms: number, setting: string): string {
  return `${what} did not answer within ${ms} ms (${setting}); mcpx sent the server a ` +
    "cancellation, but the server may still finish the request";
}

/**
 * The error for a call that did not answer within `ms` (`bound:
 * "callTimeout"`); on an exclusive instance, which may still be busy with the
 * abandoned call, it says how to get a fresh one.
 *
 * @param setting The caller's own limit (`--timeout`) when it applied, else undefined
 *   (the server's `callTimeout`).
 */
export function callTimeoutError(
  spec: ServerSpec,
  key: ScopeKey,
  tool: string,
  ms: number,
  setting: string | undefined,
  cause: unknown,
): TimeoutError {
  const recover = spec.pool.sharing === "exclusive"
    ? ` The ${spec.namespace} instance is exclusive and may still be busy with it; if the ` +
      `next call waits or hangs, get a fresh one with \`${restartCommand(spec, key)}\`.`
    : "";
  return new TimeoutError(
    `${timedOutText(`${spec.namespace}.${tool}`, ms, setting ?? "callTimeout")}.${recover}`,
    ms,
    { cause, bound: "callTimeout", setting: setting ?? "callTimeout" },
  );
}

/**
 * The error for a call whose wait for an instance used up the caller's own
 * limit (`--timeout`) just as one became free: nothing was sent.
 */
export function budgetSpentError(
  spec: ServerSpec,
  key: ScopeKey,
  waitedMs: number,
  limitMs: number,
  setting: string,
): TimeoutError {
  return new TimeoutError(
    `server "${spec.name}": waiting ${waitedMs} ms for an instance of key ${
      formatScopeKey(key)
    } used up the ` +
      `${limitMs} ms this call was given (${setting}); nothing was sent. Raise ${setting}.`,
    limitMs,
    { bound: "leaseTimeout", setting },
  );
}
