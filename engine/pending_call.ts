/**
 * A tool call the daemon runs on a caller's behalf that may outlive the
 * caller's request (decision 0040): it collects the questions asked while it
 * runs and its result, for its own caller to attach to (decision 0059).
 *
 * @module
 */

import type { QuestionView } from "./question_view.ts";

/** What the desk tells a waiting caller: the call ended, or it asked a question. */
export type CallWait =
  | { kind: "result"; value: unknown }
  | { kind: "question"; question: QuestionView };

type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown };

/**
 * One tool call the daemon runs on a caller's behalf that may outlive the
 * caller's request: it collects the questions asked while it runs and its
 * result, for its own caller ({@link PendingCall.owner}) to attach to.
 */
export class PendingCall {
  /** `namespace.tool`, shown with its questions. */
  readonly label: string;
  /** The caller key of whoever made the call (engine/questions_store.ts `ownerKey`). */
  readonly owner: string;
  #outcome?: Outcome;
  readonly #open = new Map<string, QuestionView>();
  readonly #listeners = new Set<() => void>();

  /**
   * @param label `namespace.tool`.
   * @param owner The caller key of whoever made the call; `""`: a caller that named no session.
   */
  constructor(label: string, owner = "") {
    this.label = label;
    this.owner = owner;
  }

  /** Questions open now, oldest first. */
  get open(): QuestionView[] {
    return [...this.#open.values()];
  }

  /** Runs `work` and keeps its outcome for {@link wait}. */
  run<T>(work: Promise<T>): Promise<T> {
    work.then(
      (value) => this.#end({ ok: true, value }),
      (error) => this.#end({ ok: false, error }),
    );
    return work;
  }

  /** A question was asked during the call. */
  asked(question: QuestionView): void {
    this.#open.set(question.id, question);
    this.#tell();
  }

  /** A question of the call left `open`. */
  settled(id: string): void {
    if (this.#open.delete(id)) this.#tell();
  }

  /** Called whenever a question opens or settles, or the call ends; returns its remover. */
  listen(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /**
   * Waits for the call's result, or an open question not in `seen`.
   * @throws What the call threw; an abort of `signal` (its reason).
   */
  wait(seen: ReadonlySet<string>, signal?: AbortSignal): Promise<CallWait> {
    return new Promise((resolve, reject) => {
      const check = (): boolean => {
        if (this.#outcome) {
          if (this.#outcome.ok) resolve({ kind: "result", value: this.#outcome.value });
          else reject(this.#outcome.error);
          return true;
        }
        const fresh = this.open.find((q) => !seen.has(q.id));
        if (fresh) resolve({ kind: "question", question: fresh });
        return fresh !== undefined;
      };
      if (check()) return;
      const aborted = () => {
        off();
        reject(signal!.reason);
      };
      const off = this.listen(() => {
        if (check()) {
          off();
          signal?.removeEventListener("abort", aborted);
        }
      });
      signal?.addEventListener("abort", aborted, { once: true });
    });
  }

  #end(outcome: Outcome): void {
    this.#outcome = outcome;
    this.#tell();
  }

  #tell(): void {
    for (const listener of [...this.#listeners]) listener();
  }
}
