/**
 * Which call to tell of a question the connection did not tie to one
 * (decision 0059, "When the wire does not say which call asked"; decision
 * 0075): over stdio a server's `elicitation/create` names no request, so the
 * asker is one of the calls that were in flight on the instance when it
 * asked. Pure, so the rule reads apart from the desk (engine/questions.ts).
 *
 * @module
 */

import type { PendingCall } from "./pending_call.ts";

/**
 * The call to tell of an untied question, or undefined for none:
 *
 * - the one of `candidates` still in flight (a call that started after the
 *   question cannot have asked it);
 * - else the one of those in flight that is not waiting on a question of its
 *   own (a call blocked on its own question is not asking another: a guess,
 *   which a server asking two at once within one call breaks, so the desk
 *   keeps the question offered to every candidate's caller);
 * - else none: telling each would end every wait with a question not its own.
 *
 * @param candidates The calls in flight on the instance when it asked.
 * @param inFlight The calls in flight on the instance now.
 * @param waiting The calls told of a question still open.
 * @example
 * ```ts
 * import { askingCall } from "./asking_call.ts";
 * import { PendingCall } from "./pending_call.ts";
 * const [a, b] = [new PendingCall("s.a", "alice"), new PendingCall("s.b", "bob")];
 * if (askingCall([a, b], new Set([a, b]), new Set()) !== undefined) throw new Error("ambiguous");
 * if (askingCall([a, b], new Set([a]), new Set()) !== a) throw new Error("b ended");
 * if (askingCall([a, b], new Set([a, b]), new Set([b])) !== a) throw new Error("b waits");
 * ```
 */
export function askingCall(
  candidates: readonly PendingCall[],
  inFlight: ReadonlySet<PendingCall> | undefined,
  waiting: ReadonlySet<PendingCall | undefined>,
): PendingCall | undefined {
  const running = candidates.filter((call) => inFlight?.has(call));
  if (running.length === 1) return running[0];
  const free = running.filter((call) => !waiting.has(call));
  return free.length === 1 ? free[0] : undefined;
}
