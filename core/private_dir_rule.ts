/**
 * The rule a directory mcpx keeps sockets or state in must meet, as a pure
 * judgement over what `lstat` (and, for a link, `stat`) report: owned by the
 * current user and writable by nobody else, judged on the final directory
 * itself (its parents, such as macOS `/tmp` or a dotfile-managed `~/.local`,
 * may be symlinks). A symlink as the final directory is taken only when the
 * link and its target are both the user's.
 *
 * Imports nothing and touches no runtime API, so both sides share it: the
 * CLI and daemon through core/private_fs.ts (Deno), and every script's
 * generated client through wire/wire.ts (deno, bun, node), which inlines it
 * (client/client_file.ts `RUNTIME_INPUTS`).
 *
 * Source: issue 9, "Nobody else gets in"; spec 000, "One daemon per config".
 *
 * @module
 */

/** What a status call says of a path: the fields the rule reads. */
export interface PathFacts {
  isDirectory: boolean;
  isSymlink: boolean;
  /** The owner's user id; null where the platform has none. */
  uid: number | null;
  /** The mode bits (`st_mode`); null where the platform has none. */
  mode: number | null;
}

/**
 * Reads a path's facts: with `follow` false as `lstat` does (a link is
 * described, not followed), with `follow` true as `stat` does.
 *
 * @returns undefined when nothing is at `path`.
 * @throws whatever the status call throws for other failures.
 */
export type LookPath = (path: string, follow: boolean) => PathFacts | undefined;

/** Why a directory is refused, as data. */
export type PrivateDirProblem =
  | { kind: "not-directory" }
  /** Another user owns it (or the link to it: `link` true). */
  | { kind: "not-owner"; owner: number | null; link: boolean }
  /** Group or others may write into it; `mode` is its permission bits (with setuid, setgid, sticky). */
  | { kind: "writable"; mode: number };

/** The judgement of one directory. */
export interface PrivateDirVerdict {
  /** False when nothing is at the path (nothing to judge yet). */
  exists: boolean;
  /** Set when mcpx must not use it. */
  problem?: PrivateDirProblem;
  /**
   * True for a usable directory others may read or enter (mode bits in
   * 0o055): the owner may narrow it to 0700; a reader need not.
   */
  readable?: boolean;
}

/**
 * Judges whether `path` is a directory only the current user can change.
 *
 * @param path The directory, as it will be used.
 * @param uid The current user's id; null (Windows) accepts anything that exists.
 * @param look How to read a path's facts ({@link LookPath}).
 * @returns The verdict; never throws beyond what `look` throws.
 * @example
 * ```ts
 * import { judgePrivateDir } from "./private_dir_rule.ts";
 * const look = () => ({ isDirectory: true, isSymlink: false, uid: 7, mode: 0o40777 });
 * const verdict = judgePrivateDir("/tmp/mcpx-1000", 1000, look);
 * if (verdict.problem?.kind !== "not-owner") throw new Error();
 * ```
 */
export function judgePrivateDir(
  path: string,
  uid: number | null,
  look: LookPath,
): PrivateDirVerdict {
  let facts = look(path, false);
  if (!facts) return { exists: false };
  if (uid === null) return { exists: true };
  if (facts.isSymlink) {
    if (facts.uid !== uid) {
      return { exists: true, problem: { kind: "not-owner", owner: facts.uid, link: true } };
    }
    facts = look(path, true);
    if (!facts) return { exists: false };
  }
  if (!facts.isDirectory) return { exists: true, problem: { kind: "not-directory" } };
  if (facts.uid !== uid) {
    return { exists: true, problem: { kind: "not-owner", owner: facts.uid, link: false } };
  }
  const mode = facts.mode ?? 0o700;
  if (mode & 0o022) return { exists: true, problem: { kind: "writable", mode: mode & 0o7777 } };
  return { exists: true, readable: (mode & 0o077) !== 0 };
}

/**
 * The sentence that refuses a directory: which one, what is wrong with it,
 * why that matters and what to do.
 *
 * @param path The directory refused.
 * @param what What mcpx keeps there (`"the daemon's socket"`).
 * @param uid The current user's id.
 * @param problem Why ({@link judgePrivateDir}).
 */
export function privateDirMessage(
  path: string,
  what: string,
  uid: number | null,
  problem: PrivateDirProblem,
): string {
  switch (problem.kind) {
    case "not-directory":
      return `${path} should be a directory for ${what}, but it is not; ` +
        `move it away and run the command again`;
    case "writable":
      return `${path} holds ${what} but other users can write into it (mode ` +
        `${problem.mode.toString(8).padStart(3, "0")}), so one of them could replace what is ` +
        `there; run \`chmod 700 ${path}\` and check what it holds`;
    case "not-owner":
      return `${path} holds ${what} but it is ${
        problem.link ? "a symbolic link" : "a directory"
      } owned by user ${problem.owner}, not by you (user ${uid}), so mcpx will not use it: ` +
        `another user could read or replace what is there. Remove it (or ask its owner to), ` +
        `or point mcpx elsewhere (\`MCPX_STATE_DIR\` for state, \`MCPX_CACHE_DIR\` for the ` +
        `cache, \`XDG_RUNTIME_DIR\` for sockets whose path would be too long)`;
  }
}

/**
 * A socket a user named in a shared sticky directory (`/tmp`, mode 1777):
 * there only a file's owner may remove or rename it, so a socket this user
 * owns cannot be swapped, and one that is absent only means no daemon
 * answers (the connection says so, unsent). True for those two; false for
 * a directory without the sticky bit, a symbolic link, or another user's
 * socket, which keep the private-directory rule's refusal.
 */
export function stickySocketIsOurs(
  dir: string,
  socket: string,
  uid: number | null,
  look: LookPath,
): boolean {
  try {
    const shared = look(dir, true);
    if (!shared?.isDirectory || !((shared.mode ?? 0) & 0o1000)) return false;
    const file = look(socket, false);
    if (file === undefined) return true;
    return !file.isSymlink && uid !== null && file.uid === uid;
  } catch {
    return false;
  }
}
