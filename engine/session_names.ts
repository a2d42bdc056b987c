/**
 * The two checks of a named session's name that `mcpx session new` and
 * `mcpx session end` make before they touch anything (spec 000, "Named,
 * pinned and resumable sessions"): a new name is well formed and free, and a
 * name to end is one that exists.
 *
 * @module
 */

import { McpxError, NotFoundError, UsageError } from "../core/errors.ts";
import { nearest } from "../core/nearest.ts";
import {
  freshSessionName,
  type NamedSession,
  SESSION_NAME,
  sessionNameProblem,
  type SessionStore,
} from "./sessions.ts";

/**
 * The name a new session gets: `name`, or a fresh 8-character one.
 *
 * @throws {UsageError} When `name` is malformed.
 * @throws {McpxError} `session-exists` when a session of that name exists.
 */
export function newSessionName(sessions: SessionStore, name?: string): string {
  const chosen = name ?? freshSessionName();
  if (!SESSION_NAME.test(chosen)) throw new UsageError(sessionNameProblem(chosen));
  if (sessions.get(chosen)) {
    throw new McpxError(
      "session-exists",
      `session "${chosen}" already exists; rejoin it with --session ${chosen}, or end it first with \`mcpx session end ${chosen}\``,
    );
  }
  return chosen;
}

/**
 * The named session `name`.
 *
 * @throws {NotFoundError} Naming the known sessions, nearest first.
 */
export function existingSession(sessions: SessionStore, name: string): NamedSession {
  const session = sessions.get(name);
  if (session) return session;
  const known = sessions.list().map((s) => s.name);
  const near = nearest(name, known);
  throw new NotFoundError(
    `unknown session "${name}"; ${
      known.length
        ? `named sessions: ${[...near, ...known.filter((k) => !near.includes(k))].join(", ")}`
        : "there are no named sessions"
    } (\`mcpx session ls\` lists them)`,
    near,
  );
}
