/**
 * The scope key an instance is leased under, from what the caller sent.
 *
 * Spec 000, "Sharing and scope": one live instance per distinct key; a scope
 * that cannot be resolved degrades to per-call isolation (over-isolating
 * costs a process, accidental sharing corrupts results).
 *
 * @module
 */

import type { Scope } from "../config/types.ts";
import { findGitKeys } from "./git_discovery.ts";
import { log } from "./log.ts";
import type { CallerContext } from "../wire/caller.ts";

/** What a caller tells the daemon about itself with each request (declared in wire/caller.ts). */
export type { CallerContext } from "../wire/caller.ts";

export {
  formatScopeKey,
  parseScopeKey,
  type ScopeKey,
  scopeKeyIn,
  sessionKeys,
  sessionOf,
} from "./scope_key_format.ts";
import type { ScopeKey } from "./scope_key_format.ts";

let callCounter = 0;

/** (scope, server) pairs whose unresolvable key was already logged. */
const logged = new Set<string>();

/**
 * Returns the key for `scope` under `ctx`: `global`, `session`, …, or a fresh
 * `call` key when the scope is `call` or cannot be resolved from `ctx`
 * (formatted: `global`, `session:abc`, `cwd:/work/x`, `repo:/work/x/.git`,
 * `worktree:/work/x`, `pid:123`, `call:<n>`).
 *
 * `repo` and `worktree` read `.git` under the caller's cwd with the caller's
 * `GIT_DIR`/`GIT_WORK_TREE` (engine/git_discovery.ts, docs/git-discovery.md);
 * when that finds no key, the call is isolated and the daemon log says why,
 * once per scope and server.
 *
 * @param server Named in that log line (the pool's server).
 */
export function scopeKey(scope: Scope, ctx: CallerContext, server?: string): ScopeKey {
  switch (scope) {
    case "global":
      return { kind: "global" };
    case "session":
      return ctx.session ? { kind: "session", value: ctx.session } : uniqueCall();
    case "parent-session":
      return ctx.parentSession
        ? { kind: "parent-session", value: ctx.parentSession }
        : ctx.session
        ? { kind: "session", value: ctx.session }
        : uniqueCall();
    case "repo":
    case "worktree":
      return gitKey(scope, ctx, server);
    case "cwd":
      return ctx.cwd ? { kind: "cwd", value: ctx.cwd } : uniqueCall();
    case "pid":
      return ctx.pid ? { kind: "pid", value: ctx.pid } : uniqueCall();
    case "call":
      return uniqueCall();
  }
}

function gitKey(scope: "repo" | "worktree", ctx: CallerContext, server?: string): ScopeKey {
  const keys = ctx.cwd
    ? findGitKeys(ctx.cwd, { GIT_DIR: ctx.gitDir, GIT_WORK_TREE: ctx.gitWorkTree })
    : { reason: "the caller sent no working directory" };
  const key = keys[scope];
  if (key) return { kind: scope, value: key };
  const once = `${scope}\0${server ?? ""}`;
  if (!logged.has(once)) {
    logged.add(once);
    log(
      "warn",
      "scope.degrade",
      "{scope} scope of {server} unresolved, each call gets its own instance: {reason}",
      { scope, server: server ?? "?", reason: keys.reason ?? "no key", cwd: ctx.cwd },
    );
  }
  return uniqueCall();
}

function uniqueCall(): ScopeKey {
  return { kind: "call", value: ++callCounter };
}
