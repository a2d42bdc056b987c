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

/** What a caller tells the daemon about itself with each request. */
export interface CallerContext {
  /** `--session <key>`, else `MCPX_SESSION_ID`. */
  session?: string;
  /** `MCPX_PARENT_SESSION_ID`. */
  parentSession?: string;
  /** The caller's working directory (absolute). */
  cwd?: string;
  /** The caller's process id. */
  pid?: number;
}

let callCounter = 0;

/**
 * Returns the key for `scope` under `ctx`, e.g. `global`, `session:abc`,
 * `cwd:/work/x`, `pid:123`, or `call:<n>` when the scope is `call` or cannot
 * be resolved from `ctx` (`repo` and `worktree` resolve to their `cwd` key
 * until git discovery exists).
 */
export function scopeKey(scope: Scope, ctx: CallerContext): string {
  switch (scope) {
    case "global":
      return "global";
    case "session":
      return ctx.session ? `session:${ctx.session}` : uniqueCall();
    case "parent-session":
      return ctx.parentSession
        ? `parent-session:${ctx.parentSession}`
        : ctx.session
        ? `session:${ctx.session}`
        : uniqueCall();
    case "repo":
    case "worktree":
    case "cwd":
      return ctx.cwd ? `cwd:${ctx.cwd}` : uniqueCall();
    case "pid":
      return ctx.pid ? `pid:${ctx.pid}` : uniqueCall();
    case "call":
      return uniqueCall();
  }
}

function uniqueCall(): string {
  return `call:${++callCounter}`;
}
