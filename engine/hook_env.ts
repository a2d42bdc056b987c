/**
 * The variables a hook's command is given (spec 004, the `MCPX_HOOK_*`
 * rows; issue 28), set by these two functions only: {@link observeHookEnv}
 * for a hook the configuration declares, run by the daemon for an event
 * (engine/hook_runner.ts), and {@link execHookEnv} for a run's exec hook
 * (runner/exec_hooks.ts). Their rows in scripts/script_env.ts `SCRIPT_ENV`
 * are held to these functions by scripts/script_env_test.ts.
 *
 * Every variable a function sets is always present, empty when there is
 * nothing to say, so a hook run from inside another never sees the outer
 * one's values.
 *
 * @module
 */

import type { BusEvent } from "./event_bus.ts";

/** The phases of an exec hook, in the order a run may meet them. */
export const EXEC_HOOK_PHASES = ["pre", "onSuccess", "onError", "post"] as const;

/** One of {@link EXEC_HOOK_PHASES}. */
export type ExecHookPhase = typeof EXEC_HOOK_PHASES[number];

/** The most bytes of `MCPX_HOOK_ERROR` (spec 004: "truncated to 1024 bytes"). */
export const HOOK_ERROR_MAX_BYTES = 1024;

/**
 * The variables of a declared hook run for `event`.
 *
 * @param hook The hook's name (its key under `hooks.observe`).
 * @param event The event it runs for, as published on the bus.
 * @returns `MCPX_HOOK_NAME`, `MCPX_HOOK_PHASE` (`observe`), `MCPX_HOOK_EVENT_KIND`,
 *   `MCPX_HOOK_EVENT_SEQ`, and `MCPX_HOOK_EVENT_SERVER`, `…_SESSION`, `…_URI` (empty when
 *   the event names none).
 * @example
 * ```ts
 * import { observeHookEnv } from "./hook_env.ts";
 * const env = observeHookEnv("alert", {
 *   id: "e-3", seq: 3, kind: "server.crashed", at: 0, server: "fs", data: {},
 * });
 * if (env.MCPX_HOOK_EVENT_SEQ !== "3" || env.MCPX_HOOK_EVENT_URI !== "") throw new Error();
 * ```
 */
export function observeHookEnv(hook: string, event: BusEvent): Record<string, string> {
  return {
    MCPX_HOOK_NAME: hook,
    MCPX_HOOK_PHASE: "observe",
    MCPX_HOOK_EVENT_KIND: event.kind,
    MCPX_HOOK_EVENT_SEQ: String(event.seq),
    MCPX_HOOK_EVENT_SERVER: event.server ?? "",
    MCPX_HOOK_EVENT_SESSION: event.session ?? "",
    MCPX_HOOK_EVENT_URI: event.uri ?? "",
  };
}

/**
 * The variables of an exec hook.
 *
 * @param phase The phase it runs in.
 * @param error Why the script failed: given only to an `onError` hook, as one
 *   line of at most {@link HOOK_ERROR_MAX_BYTES} bytes ({@link oneLineError}).
 * @returns `MCPX_HOOK_PHASE`, `MCPX_HOOK_POINT` (`script`), and `MCPX_HOOK_ERROR`
 *   (empty but for `onError`).
 * @example
 * ```ts
 * import { execHookEnv } from "./hook_env.ts";
 * const env = execHookEnv("onError", "TypeError: x is not a function\n    at main");
 * if (env.MCPX_HOOK_ERROR !== "TypeError: x is not a function at main") throw new Error();
 * if (execHookEnv("post", "boom").MCPX_HOOK_ERROR !== "") throw new Error();
 * ```
 */
export function execHookEnv(phase: ExecHookPhase, error?: string): Record<string, string> {
  return {
    MCPX_HOOK_PHASE: phase,
    MCPX_HOOK_POINT: "script",
    MCPX_HOOK_ERROR: phase === "onError" && error !== undefined ? oneLineError(error) : "",
  };
}

/**
 * `text` as one line: runs of whitespace (newlines included) become one
 * space, and the result is cut to at most `maxBytes` bytes of UTF-8, never
 * inside a character.
 *
 * @example
 * ```ts
 * import { oneLineError } from "./hook_env.ts";
 * if (oneLineError("a\n  b", 3) !== "a b") throw new Error();
 * if (oneLineError("é".repeat(600)).length !== 512) throw new Error();
 * ```
 */
export function oneLineError(text: string, maxBytes = HOOK_ERROR_MAX_BYTES): string {
  const line = text.replace(/\s+/g, " ").trim();
  const bytes = new TextEncoder().encode(line);
  if (bytes.length <= maxBytes) return line;
  let end = maxBytes;
  // A continuation byte (10xxxxxx) is the middle of a character: back up to its start.
  while (end > 0 && (bytes[end] & 0xc0) === 0x80) end--;
  return new TextDecoder().decode(bytes.subarray(0, end));
}
