/**
 * The `sessionAttach` route's work (decision 0085): the named session looked
 * up, the attachment made under the daemon's `sessions.attach` policy
 * (engine/session_attach.ts), and the attach logged as `session.attach`.
 *
 * @module
 */

import type { Daemon } from "../engine/engine.ts";
import { log } from "../engine/log.ts";
import { McpxError } from "../core/errors.ts";
import { type Attacher, type AttachMode, describeAttacher } from "../engine/session_attach.ts";

/**
 * Attaches `by` to the named session `name`.
 *
 * @returns The attachment's token, mode and time, and the writer a take-over replaced.
 * @throws {McpxError} `session-unknown` for a name that is no named session (listing the
 *   known ones); `attach-refused` when the policy refuses.
 */
export function attachSession(d: Daemon, name: string, mode: AttachMode, by: Attacher) {
  const record = d.sessions.get(name);
  if (!record) {
    const known = d.sessions.list().map((s) => s.name);
    throw new McpxError(
      "session-unknown",
      `unknown session "${name}": only a named session can be attached to; ${
        known.length ? `named sessions: ${known.join(", ")}` : "there are no named sessions"
      } (\`mcpx session new --name ${name}\` makes one)`,
    );
  }
  const { attachment, previous } = d.attachments.attach(name, mode, by, record.owner);
  log(
    "info",
    "session.attach",
    `{by} attached to session {session} ({mode})${
      previous ? ", taking it over from {previous}" : ""
    }`,
    {
      session: name,
      mode,
      by: describeAttacher(by),
      ...(previous ? { previous: describeAttacher(previous.by) } : {}),
    },
  );
  return {
    session: name,
    mode,
    token: attachment.token,
    since: attachment.since,
    ...(previous ? { previous: previous.by } : {}),
  };
}
