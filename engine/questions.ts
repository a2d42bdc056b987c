/**
 * The daemon's question desk (spec 000, "When a server asks a question";
 * decision 0040). A server's `elicitation/create` or `sampling/createMessage`
 * (on the wire, or inside a 2026-07-28 `input_required` result, which the SDK
 * routes to the same handlers) becomes a row in `questions.db` with an id,
 * a route and a deadline, and the server's request stays pending until the
 * question is answered, declined, cancelled or expires. The tool call that was
 * running on the instance is told of the question ({@link PendingCall}), so
 * `mcpx call` can exit 75 with it while the call goes on in the daemon;
 * `mcpx elicit answer <id> --wait` and `mcpx call --resume <id>` attach to it
 * again. A call is never sent upstream twice to collect an answer.
 *
 * A question belongs to the caller whose call raised it (decision 0059): only
 * that caller's requests list, show, answer or decline it, and only that
 * caller attaches to its call's result. Where the connection says which call
 * asked (its request's own response stream: engine/question_tie.ts, decision
 * 0075), the question is that call's alone. Where it cannot say (stdio, with
 * several calls in flight on one instance), it is offered to the callers with
 * calls there, and told to a call once the calls in flight leave one that can
 * have asked it. Another caller acts on it only by naming it
 * ({@link QuestionCaller.anySession}, `mcpx elicit --any-session`), and even
 * then never receives the call's result.
 *
 * A question no call is waiting for (asked during a listing, or after the
 * call's caller went away) is answered `cancel` at once: nobody could answer
 * it. Expiry answers `cancel`, never `decline` (expiry is nobody choosing).
 *
 * The desk is one per process; it is open only in a daemon
 * ({@link QuestionDesk.open}). Closed, it stores nothing and
 * engine/client_handlers.ts declares neither capability.
 *
 * @module
 */

import type { EventBus } from "./event_bus.ts";
import { ProtocolError } from "@modelcontextprotocol/client";
import { McpxError, NotFoundError, UsageError } from "../core/errors.ts";
import { commandOf, type QuestionView, viewOf } from "./question_view.ts";
import type { PendingCall } from "./pending_call.ts";
import type { TimerId } from "../core/deadline.ts";
import { log } from "./log.ts";
import { askingCall } from "./asking_call.ts";
import { checkOwner, notYourCall, type QuestionCaller } from "./question_owner.ts";
import { checkAnswer, routeOf, samplingResult } from "./question_form.ts";
import {
  newQuestionId,
  type QuestionKind,
  type QuestionRow,
  type QuestionState,
  QuestionStore,
} from "./questions_store.ts";

/** The error code a server gets for a sampling request declined or left unanswered. */
export const SAMPLING_DECLINED = -1;

/** How long a question stays open when no setting says, ms (`elicit.timeout`'s default). */
export const DEFAULT_QUESTION_MS = 10 * 60_000;

export type { QuestionView } from "./question_view.ts";
export { type CallWait, PendingCall } from "./pending_call.ts";
export { NOT_YOURS, ownerKey, type QuestionCaller } from "./question_owner.ts";

/** Who asked: the instance's id and its server, and the call when the connection says. */
export interface Asker {
  instanceId: string;
  server: string;
  namespace: string;
  /**
   * The call the question was asked in, when the connection says (it came on
   * that call's own response stream: engine/question_tie.ts); absent otherwise.
   */
  call?: PendingCall;
}

interface Waiting {
  row: QuestionRow;
  respond: (state: Exclude<QuestionState, "open">, answer?: Record<string, unknown>) => void;
  /** The call told of the question; absent while none is (it cannot yet be tied to one). */
  call?: PendingCall;
  /** The instance that asked. */
  instanceId: string;
  /** The calls in flight there when it asked: one of them asked it. */
  candidates: readonly PendingCall[];
  timer: TimerId;
}

/** See the module. One per process: {@link questionDesk}. */
export class QuestionDesk {
  #store?: QuestionStore;
  #daemon = "";
  #timeoutMs = DEFAULT_QUESTION_MS;
  /** `elicit.inputRounds`: the bound on a 2026-07-28 call's `input_required` rounds. */
  inputRounds = 8;
  /**
   * The daemon's event bus (engine/process_events.ts sets it): a question
   * stored is published as `question.raised`, one answered or declined as
   * `question.answered`, one expired or cancelled as `question.expired`
   * (`data.state` says which); undefined: nothing is published.
   */
  events?: EventBus;
  readonly #waiting = new Map<string, Waiting>();
  readonly #calls = new Map<string, Set<PendingCall>>();
  /** Every question's call, by question id, while the daemon runs. */
  readonly #callOf = new Map<string, PendingCall>();

  /** True once {@link open}ed: questions are stored and both capabilities declared. */
  get isOpen(): boolean {
    return this.#store !== undefined;
  }

  /**
   * Opens the store; from then on questions are kept and answerable.
   * @param path The store's file (engine/questions_store.ts `questionsPath`).
   * @param daemon The configuration's fingerprint: whose questions these are.
   * @param options.timeoutMs How long a question stays open (`elicit.timeout`), ms.
   * @param options.inputRounds `elicit.inputRounds`.
   */
  open(
    path: string,
    daemon: string,
    options: { timeoutMs?: number; inputRounds?: number } = {},
  ): void {
    this.#store = new QuestionStore(path);
    this.#daemon = daemon;
    if (options.timeoutMs) this.#timeoutMs = options.timeoutMs;
    if (options.inputRounds) this.inputRounds = options.inputRounds;
  }

  /** Closes the store, cancelling every open question first. */
  close(): void {
    for (const id of [...this.#waiting.keys()]) this.#settle(id, "cancelled");
    this.#store?.close();
    this.#store = undefined;
  }

  /**
   * True while a tool call runs under the desk or a question waits for its
   * answer: work an idle daemon must not end (daemon/main.ts), though no
   * request is in flight (a caller that got exit 75 has gone; its call has not).
   */
  get busy(): boolean {
    return this.#calls.size > 0 || this.#waiting.size > 0;
  }

  /**
   * Tells `call` of every question asked on instance `instanceId` until the
   * returned function is called.
   */
  during(instanceId: string, call: PendingCall): () => void {
    let set = this.#calls.get(instanceId);
    if (!set) this.#calls.set(instanceId, set = new Set());
    set.add(call);
    return () => {
      set.delete(call);
      if (!set.size) this.#calls.delete(instanceId);
      // A call leaving may leave one call that can have asked an untold question.
      this.#retell(instanceId);
    };
  }

  /**
   * Stores a server's question and answers when it is settled: the
   * elicitation result (`accept` with content, `decline`, `cancel`) or the
   * sampling result; a declined or unanswered sampling request rejects with a
   * {ProtocolError} (the protocol has no decline result for it).
   *
   * @param signal The server's own cancellation of its request.
   */
  ask(
    asker: Asker,
    kind: QuestionKind,
    params: Record<string, unknown>,
    signal?: AbortSignal,
  ): Promise<Record<string, unknown>> {
    const store = this.#store;
    if (!store) return Promise.resolve({ action: "cancel" });
    const { route, reason } = routeOf(kind, params);
    const inFlight = this.#calls.get(asker.instanceId);
    // Where the connection says which call asked (decision 0075), the question is that call's
    // alone, whatever else is in flight; a call no longer in flight waits for nothing.
    const tied = asker.call;
    const running = tied ? (inFlight?.has(tied) ? [tied] : []) : [...inFlight ?? []];
    // Where it does not (decision 0059), one of the calls in flight asked it: it is offered to
    // every caller with a call here, and told to a call by engine/asking_call.ts's rule.
    const told = tied ? tied : this.#pick(asker.instanceId, running);
    const calls = told && running.length ? [told] : [];
    const owners = [...new Set(running.map((call) => call.owner))];
    const whose = owners.map((owner) => owner || "(no session)").join(", ");
    const now = Date.now();
    const row: QuestionRow = {
      id: newQuestionId(),
      kind,
      daemon: this.#daemon,
      server: asker.server,
      namespace: asker.namespace,
      ...(calls[0] ? { call: calls[0].label } : {}),
      owners,
      ...(kind === "elicitation" ? { mode: params.mode === "url" ? "url" : "form" } : {}),
      message: messageOf(kind, params),
      request: params,
      route,
      reason,
      created: now,
      deadline: now + this.#timeoutMs,
      state: "open",
    };
    const about = { id: row.id, kind, server: row.server, namespace: row.namespace, route, reason };
    if (!running.length) {
      store.add({ ...row, owners: [], state: "cancelled", settled: now });
      log(
        "warn",
        "question.cancelled",
        "{namespace} asked {kind} {id}, which no call waits for: answered cancel",
        {
          ...about,
          message: row.message.slice(0, 200),
        },
      );
      return kind === "sampling"
        ? Promise.reject(samplingRefusal("cancelled"))
        : Promise.resolve({ action: "cancel" });
    }
    store.add(row);
    this.#publish("question.raised", row, { message: row.message.slice(0, 200) });
    log(
      "info",
      "question.asked",
      "{namespace} asked {kind} {id}, routed to the {route}: {reason}",
      {
        ...about,
        message: row.message.slice(0, 200),
        call: row.call,
        owners: whose,
        tied: tied !== undefined,
      },
    );
    if (!calls.length) {
      log(
        "warn",
        "question.unattributed",
        "{namespace} asked {id} with {calls} calls in flight on one instance; none is told " +
          "until those that can have asked it narrow to one, since the connection does not " +
          "say which asked: it is offered to their sessions ({owners}), who answer it with " +
          "`mcpx elicit answer {id}`",
        { ...about, calls: running.length, owners: whose },
      );
    }
    return new Promise((resolve, reject) => {
      const respond: Waiting["respond"] = (state, answer) => {
        if (kind === "sampling") {
          if (state === "answered" && answer) resolve(answer);
          else reject(samplingRefusal(state));
        } else if (state === "answered") {
          resolve({ action: "accept", ...(answer ? { content: answer } : {}) });
        } else resolve({ action: state === "declined" ? "decline" : "cancel" });
      };
      const timer = setTimeout(() => this.#settle(row.id, "expired"), this.#timeoutMs);
      const waiting: Waiting = {
        row,
        respond,
        instanceId: asker.instanceId,
        candidates: running,
        timer,
      };
      this.#waiting.set(row.id, waiting);
      if (calls[0]) {
        this.#tell(row.id, waiting, calls[0]);
        // A call now waiting on this question is not asking an untold one.
        this.#retell(asker.instanceId);
      }
      signal?.addEventListener("abort", () => this.#settle(row.id, "cancelled"), { once: true });
    });
  }

  /** The call to tell of an untied question asked on `instanceId` (engine/asking_call.ts). */
  #pick(instanceId: string, candidates: readonly PendingCall[]): PendingCall | undefined {
    const waiting = new Set([...this.#waiting.values()].map((w) => w.call));
    return askingCall(candidates, this.#calls.get(instanceId), waiting);
  }

  /**
   * Tells the calls of instance `instanceId` of the untold questions that can
   * now be tied to one (#pick), after a call left or was told of a question.
   */
  #retell(instanceId: string): void {
    for (let changed = true; changed;) {
      changed = false;
      for (const [id, waiting] of this.#waiting) {
        if (waiting.call || waiting.instanceId !== instanceId) continue;
        const call = this.#pick(instanceId, waiting.candidates);
        if (!call) continue;
        this.#tell(id, waiting, call);
        log("info", "question.told", "{namespace} question {id} is told to {call}: {reason}", {
          id,
          namespace: waiting.row.namespace,
          call: call.label,
          reason: "the calls in flight that can have asked it narrowed to one",
        });
        changed = true;
        break;
      }
    }
  }

  /** Tells `call` of question `id`, as the call it was asked in. */
  #tell(id: string, waiting: Waiting, call: PendingCall): void {
    if (waiting.row.call === undefined) {
      // Stored before it could be tied to a call: the store learns the call now.
      waiting.row = { ...waiting.row, call: call.label };
      this.#store?.attribute(id, call.label);
    }
    waiting.call = call;
    this.#callOf.set(id, call);
    call.asked(this.#view(waiting.row));
  }

  /**
   * Answers question `id`: form fields (checked, defaults filled), `{}` for a
   * URL-mode flow the person completed, or a sampling result.
   *
   * @param fromTty Whether the answer comes from a terminal: a person-routed question needs one.
   * @param caller Who answers: the question must be theirs, or named with `anySession`.
   * @returns The call the question belongs to, when the daemon still runs it.
   * @throws {NotFoundError} for an unknown id; {McpxError} `question-not-yours`
   *   for another caller's question not named with `anySession`, `question-settled`
   *   for one no longer open, `person-only` for a person-routed question
   *   answered without a terminal; {UsageError} for an answer the schema refuses.
   */
  answer(
    id: string,
    given: Record<string, unknown>,
    fromTty: boolean,
    caller: QuestionCaller,
  ): PendingCall | undefined {
    const row = this.#open(id, caller);
    if (row.route === "person" && !fromTty) {
      throw new McpxError(
        "person-only",
        `question ${id} is for a person to answer (${row.reason}); ask the user to run ` +
          `\`${commandOf(row)}\` in a terminal`,
      );
    }
    let answer: Record<string, unknown> | undefined;
    try {
      answer = row.kind === "sampling"
        ? samplingResult(given)
        : row.mode === "url"
        ? undefined
        : checkAnswer((row.request as { requestedSchema?: unknown }).requestedSchema, given);
    } catch (error) {
      throw new UsageError(
        `question ${id}: ${
          (error as Error).message
        }; \`mcpx elicit show ${id}\` shows what it takes`,
      );
    }
    this.#settle(id, "answered", answer);
    return this.#callOf.get(id);
  }

  /**
   * Declines question `id` (the server hears `decline`; a sampling request an error).
   * @throws As {@link answer} does for an unknown, another caller's or a settled id.
   */
  decline(id: string, caller: QuestionCaller): PendingCall | undefined {
    this.#open(id, caller);
    this.#settle(id, "declined");
    return this.#callOf.get(id);
  }

  /**
   * The question `id` (expired first if past its deadline), when `caller` may see it.
   * @throws {NotFoundError} for an unknown id; {McpxError} `question-not-yours`
   *   for another caller's question not named with `anySession`.
   */
  show(id: string, caller: QuestionCaller): QuestionView {
    const row = this.#store?.get(id);
    if (!row || row.daemon !== this.#daemon) {
      throw new NotFoundError(`no question "${id}": \`mcpx elicit list\` shows the open ones`, []);
    }
    checkOwner(row, caller);
    return this.#view(row);
  }

  /**
   * This daemon's questions that `caller` sees (every caller's with `anySession`), newest
   * first: the open ones, or with `all` the settled ones too.
   */
  list(all: boolean, caller: QuestionCaller): QuestionView[] {
    const owner = caller.anySession ? undefined : caller.owner;
    return (this.#store?.list(this.#daemon, { all, owner }) ?? []).map((r) => this.#view(r));
  }

  /**
   * The call question `id` was asked in, while this daemon runs it, for the
   * call's own caller only: its result goes to nobody else (decision 0059).
   * @throws {McpxError} `question-not-yours` when the call is another caller's.
   */
  callOf(id: string, caller: QuestionCaller): PendingCall | undefined {
    const call = this.#callOf.get(id);
    if (call && call.owner !== caller.owner) throw notYourCall(id);
    return call;
  }

  #open(id: string, caller: QuestionCaller): QuestionRow {
    const row = this.show(id, caller);
    if (row.state !== "open" || !this.#waiting.has(id)) {
      throw new McpxError(
        "question-settled",
        `question ${id} is ${
          row.state === "open" ? "no longer held by this daemon" : row.state
        }; ` +
          "nothing was sent to the server",
      );
    }
    return row;
  }

  #settle(
    id: string,
    state: Exclude<QuestionState, "open">,
    answer?: Record<string, unknown>,
  ): void {
    const waiting = this.#waiting.get(id);
    if (!waiting) return;
    this.#waiting.delete(id);
    clearTimeout(waiting.timer);
    // A person's answer may hold a credential: the server gets it, the store does not.
    const kept = answer && waiting.row.route === "person" ? { withheld: true } : answer;
    this.#store?.settle(id, state, kept);
    const { row } = waiting;
    this.#publish(
      state === "answered" || state === "declined" ? "question.answered" : "question.expired",
      row,
      { state },
    );
    log(
      state === "answered" ? "info" : "warn",
      `question.${state}`,
      "{namespace} question {id} {state}",
      { id, kind: row.kind, server: row.server, namespace: row.namespace, state, route: row.route },
    );
    waiting.respond(state, answer);
    waiting.call?.settled(id);
  }

  /** Publishes `kind` about `row` on {@link events}, with `extra` facts. */
  #publish(
    kind: "question.raised" | "question.answered" | "question.expired",
    row: QuestionRow,
    extra: Record<string, unknown>,
  ): void {
    const owners = row.owners.filter(Boolean);
    const session = owners.length === 1 ? owners[0] : undefined;
    this.events?.publish(kind, {
      server: row.namespace,
      ...(session ? { session } : {}),
      data: {
        id: row.id,
        kind: row.kind,
        route: row.route,
        reason: row.reason,
        ...(row.call ? { call: row.call } : {}),
        owners: row.owners,
        ...extra,
      },
    });
  }

  #view(row: QuestionRow): QuestionView {
    return viewOf(row);
  }
}

function messageOf(kind: QuestionKind, params: Record<string, unknown>): string {
  if (kind === "elicitation") return typeof params.message === "string" ? params.message : "";
  const messages = Array.isArray(params.messages) ? params.messages : [];
  const content = (messages.at(-1) as { content?: unknown } | undefined)?.content;
  const block = Array.isArray(content) ? content[0] : content;
  const text = (block as { text?: unknown } | undefined)?.text;
  return typeof text === "string" ? text : "";
}

function samplingRefusal(state: QuestionState): ProtocolError {
  return new ProtocolError(
    SAMPLING_DECLINED,
    state === "declined"
      ? "the sampling request was declined"
      : `the sampling request was ${state} before anyone answered it`,
  );
}

/** The process's desk: open in a daemon, closed elsewhere. */
export const questionDesk: QuestionDesk = new QuestionDesk();
