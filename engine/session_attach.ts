/**
 * Attaching to a named session (issue 29; spec 000, "Attaching to another
 * session"; decision 0085): the holders of a session beside its key.
 *
 * A session's key still chooses its instances (engine/scope_key.ts); what
 * this adds is who may call under it. Until someone attaches, anyone who
 * knows the key may (as before). An attachment is a token the daemon mints:
 *
 * - **read** (any number): a watcher. A call that carries its token is
 *   refused (`session-read-only`); it reads the session's calls from the
 *   event bus (`call.started`, `call.finished`, `?session=`).
 * - **write** (one at a time): `--take-over`. From then on a call under the
 *   session must carry the writer's token; any other (the previous holder's
 *   next call) is refused with {@link SessionTakenOverError}, naming who took
 *   over. A later take-over replaces the writer the same way.
 *
 * Who may attach is the setting `sessions.attach` ({@link AttachPolicy}),
 * checked here, so every surface that reaches the daemon (the CLI, `/v1`)
 * meets the same rule. Attachments live in the daemon's memory: a new daemon
 * starts with none (the session's record persists; its writer does not).
 *
 * @module
 */

import { McpxError } from "../core/errors.ts";

/** `sessions.attach`: who may attach to a session (decision 0085). */
export type AttachPolicy = "same-user" | "owner-only" | "none";

/** The modes of an attachment. */
export type AttachMode = "read" | "write";

/** Who attached or made a session, as far as the daemon knows it. */
export interface Attacher {
  /** The caller's pid (the CLI sends its parent's: the shell or agent running mcpx). */
  pid?: number;
  /** The OS user: the daemon's own (its socket admits no other). */
  user?: string;
  /** `MCPX_PARENT_SESSION_ID` of the caller: the agent tree it belongs to. */
  parentSession?: string;
  /** The script run, when a run attached. */
  run?: string;
}

/** One attachment. */
export interface Attachment {
  token: string;
  session: string;
  mode: AttachMode;
  by: Attacher;
  /** ISO time it attached. */
  since: string;
}

/**
 * A call under a session someone else took over. Code `session-taken-over`;
 * `by` is who holds it now, `since` when.
 */
export class SessionTakenOverError extends McpxError {
  readonly by: Attacher;
  readonly since: string;
  constructor(session: string, writer: Attachment) {
    super(
      "session-taken-over",
      `session "${session}" was taken over by ${describeAttacher(writer.by)} at ${writer.since}; ` +
        `calls under it now need that attachment (MCPX_ATTACH). Take it back with ` +
        `\`mcpx session attach ${session} --take-over\`, or use another session`,
    );
    this.name = "SessionTakenOverError";
    this.by = writer.by;
    this.since = writer.since;
  }
}

/** How an attacher is named in a message: `pid 42 (user ann, run r-1)`. */
export function describeAttacher(by: Attacher): string {
  const more = [by.user && `user ${by.user}`, by.run && `run ${by.run}`].filter(Boolean);
  const who = by.pid !== undefined ? `pid ${by.pid}` : "a caller";
  return more.length ? `${who} (${more.join(", ")})` : who;
}

/** Every attachment of one daemon. */
export class SessionAttachments {
  #byToken = new Map<string, Attachment>();
  #writers = new Map<string, Attachment>();
  readonly policy: AttachPolicy;

  constructor(policy: AttachPolicy = "same-user") {
    this.policy = policy;
  }

  /**
   * Attaches `by` to `session` after the policy's check.
   *
   * @param owner Who made the session (its record's `owner`), for `owner-only`.
   * @returns The attachment and, for a take-over, the writer it replaced.
   * @throws {McpxError} `attach-refused` when the policy refuses, naming the setting.
   */
  attach(
    session: string,
    mode: AttachMode,
    by: Attacher,
    owner: Attacher | undefined,
  ): { attachment: Attachment; previous?: Attachment } {
    this.#permit(session, by, owner);
    const attachment: Attachment = {
      token: `att-${crypto.randomUUID().slice(0, 12)}`,
      session,
      mode,
      by,
      since: new Date().toISOString(),
    };
    this.#byToken.set(attachment.token, attachment);
    if (mode === "read") return { attachment };
    const previous = this.#writers.get(session);
    if (previous) this.#byToken.delete(previous.token);
    this.#writers.set(session, attachment);
    return { attachment, ...(previous ? { previous } : {}) };
  }

  /** Ends an attachment; false when the token is unknown (ended, or another daemon's). */
  detach(token: string): boolean {
    const attachment = this.#byToken.get(token);
    if (!attachment) return false;
    this.#byToken.delete(token);
    if (this.#writers.get(attachment.session) === attachment) {
      this.#writers.delete(attachment.session);
    }
    return true;
  }

  /** The attachments of `session`: its writer first, then its watchers. */
  of(session: string): Attachment[] {
    return [...this.#byToken.values()].filter((a) => a.session === session)
      .sort((a, b) => (a.mode === "write" ? -1 : 0) - (b.mode === "write" ? -1 : 0));
  }

  /** Forgets every attachment of `session` (it ended). */
  forget(session: string): void {
    for (const a of this.of(session)) this.detach(a.token);
  }

  /**
   * Refuses a call that may not run under `session` with attachment `token`.
   *
   * @throws {McpxError} `session-read-only` for a watcher's token;
   *   `attachment-unknown` for a token this daemon did not mint or that ended,
   *   or one of another session; {@link SessionTakenOverError} when the session
   *   has a writer and `token` is not it.
   */
  check(session: string | undefined, token: string | undefined): void {
    const attachment = token ? this.#byToken.get(token) : undefined;
    if (token && (!attachment || attachment.session !== session)) {
      throw new McpxError(
        "attachment-unknown",
        `attachment ${JSON.stringify(token)} (MCPX_ATTACH) ${
          attachment
            ? `is to session "${attachment.session}", not "${session ?? ""}"`
            : "is not one this daemon holds (ended, or made by a daemon since stopped)"
        }; unset MCPX_ATTACH, or attach again with \`mcpx session attach <name>\``,
      );
    }
    if (attachment?.mode === "read") {
      throw new McpxError(
        "session-read-only",
        `session "${session}" is attached read-only by this caller (${attachment.token}): ` +
          `watching cannot call; take it over with \`mcpx session attach ${session} --take-over\``,
      );
    }
    const writer = session ? this.#writers.get(session) : undefined;
    if (writer && writer !== attachment) throw new SessionTakenOverError(session!, writer);
  }

  #permit(session: string, by: Attacher, owner: Attacher | undefined): void {
    const refuse = (why: string) => {
      throw new McpxError(
        "attach-refused",
        `attaching to session "${session}" is refused: ${why} (setting sessions.attach is ` +
          `"${this.policy}"; "same-user" lets any caller of this daemon attach)`,
      );
    };
    if (this.policy === "none") refuse("no session may be attached to");
    if (this.policy === "owner-only") {
      const same = owner !== undefined && (
        owner.parentSession !== undefined
          ? owner.parentSession === by.parentSession
          : owner.pid !== undefined && owner.pid === by.pid
      );
      if (!same) {
        refuse(
          `only its owner may, ${owner ? describeAttacher(owner) : "and it has none recorded"}${
            owner?.parentSession ? ` under parent session ${owner.parentSession}` : ""
          }`,
        );
      }
    }
  }
}

/**
 * The attacher a request names: its pid, parent session and run as it sent
 * them, and the daemon's own user (its unix socket is its user's alone; a TCP
 * caller holds the bearer token the daemon wrote for that user).
 */
export function attacherOf(
  caller: { pid?: number; parentSession?: string; run?: string },
): Attacher {
  const user = Deno.env.get("USER") ?? Deno.env.get("LOGNAME");
  return {
    ...(caller.pid !== undefined ? { pid: caller.pid } : {}),
    ...(user ? { user } : {}),
    ...(caller.parentSession ? { parentSession: caller.parentSession } : {}),
    ...(caller.run ? { run: caller.run } : {}),
  };
}
