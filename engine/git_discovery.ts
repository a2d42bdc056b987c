/**
 * The `repo` and `worktree` scope keys of a caller, found by reading `.git`
 * the way git's own discovery does (git `setup.c`: `setup_git_directory_gently`,
 * `read_gitfile`, `is_git_directory`, `get_common_dir`), without forking `git`.
 *
 * Spec 000, "Finding the repository without git": forking `git rev-parse`
 * needed git in the image, failed on checkouts owned by another uid ("dubious
 * ownership"), and leaked the daemon's own `GIT_DIR` into every caller's key.
 * Only the caller's `GIT_DIR`/`GIT_WORK_TREE` are read, passed in `env`.
 * Nothing is cached: a directory that becomes a repository is one from the
 * next call on. Each layout handled is listed in docs/git-discovery.md.
 *
 * @module
 */

import { dirname, isAbsolute, resolve } from "node:path";

/** The caller's git environment variables (never the daemon's own). */
export interface GitEnv {
  /** `GIT_DIR`, absolute or relative to the caller's cwd. */
  GIT_DIR?: string;
  /** `GIT_WORK_TREE`, absolute or relative to the caller's cwd. */
  GIT_WORK_TREE?: string;
}

/** What discovery found: real paths, or why a key is missing. */
export interface GitKeys {
  /** The repository's common git directory (real path): one per clone. */
  repo?: string;
  /** The work tree's root (real path): one per checkout. */
  worktree?: string;
  /** When `repo` or `worktree` is missing: why, and what would supply it. */
  reason?: string;
}

/**
 * Finds the repository and work tree the caller at `cwd` is in, reading only
 * files (no subprocess). `GIT_DIR` and `GIT_WORK_TREE` in `env` override
 * discovery as they do for git.
 *
 * @param cwd The caller's working directory (absolute).
 * @param env The caller's `GIT_DIR` and `GIT_WORK_TREE`, when set.
 * @returns Real paths of the common git directory (`repo`) and work tree root
 *   (`worktree`); a key that cannot be found is absent and `reason` says why.
 *   Never throws.
 * @example
 * ```ts
 * import { findGitKeys } from "./git_discovery.ts";
 * const keys = findGitKeys("/", {});
 * console.assert(keys.repo === undefined || typeof keys.repo === "string");
 * ```
 */
export function findGitKeys(cwd: string, env: GitEnv = {}): GitKeys {
  const start = realPath(cwd);
  if (!start) return { reason: `the working directory ${cwd} does not exist` };
  const workTreeEnv = env.GIT_WORK_TREE ? resolve(start, env.GIT_WORK_TREE) : undefined;

  let gitDir: string;
  let found: "env" | "dotgit" | "self";
  let dotGitParent: string | undefined;
  if (env.GIT_DIR) {
    const given = resolve(start, env.GIT_DIR);
    const dir = isFile(given) ? readGitFile(given) : given;
    if (!dir || !isGitDirectory(dir)) {
      return { reason: `GIT_DIR=${env.GIT_DIR} is not a git directory` };
    }
    gitDir = dir;
    found = "env";
  } else {
    const discovered = discover(start);
    if ("reason" in discovered) return { reason: discovered.reason };
    ({ gitDir, found, dotGitParent } = discovered);
  }

  const repo = realPath(commonDir(gitDir));
  if (!repo) return { reason: `the common directory of ${gitDir} does not exist` };
  const config = coreConfig(`${repo}/config`, gitDir);

  let tree: string | undefined;
  let reason: string | undefined;
  if (workTreeEnv) tree = workTreeEnv;
  else if (config.worktree) tree = resolve(gitDir, config.worktree);
  else if (config.bare) reason = `${repo} is a bare repository (set GIT_WORK_TREE for a work tree)`;
  else if (found === "env") tree = start; // git: GIT_DIR alone makes cwd the top of the work tree
  else if (found === "dotgit") tree = dotGitParent;
  else reason = `${start} is inside the git directory ${gitDir}, not a work tree`;

  if (tree === undefined) return { repo, reason };
  const worktree = realPath(tree);
  return worktree ? { repo, worktree } : { repo, reason: `the work tree ${tree} does not exist` };
}

type Discovered =
  | { gitDir: string; found: "dotgit" | "self"; dotGitParent?: string }
  | { reason: string };

/** git's walk: at each level `.git` (directory or gitfile), then the level itself as a bare repo. */
function discover(start: string): Discovered {
  for (let dir = start;; dir = dirname(dir)) {
    const dotGit = dir === "/" ? "/.git" : `${dir}/.git`;
    if (isFile(dotGit)) {
      const target = readGitFile(dotGit);
      if (!target || !isGitDirectory(target)) {
        return { reason: `${dotGit} does not point at a git directory` };
      }
      return { gitDir: target, found: "dotgit", dotGitParent: dir };
    }
    if (isGitDirectory(dotGit)) return { gitDir: dotGit, found: "dotgit", dotGitParent: dir };
    if (isGitDirectory(dir)) return { gitDir: dir, found: "self" };
    if (dir === "/") {
      return {
        reason: `${start} is not inside a git repository (no .git from there up to /; ` +
          `set GIT_DIR to name one)`,
      };
    }
  }
}

/** A gitfile's target (`gitdir: <path>`, relative to the file's directory), or undefined. */
function readGitFile(path: string): string | undefined {
  const text = readText(path);
  const match = text?.match(/^gitdir: *(.+?)\s*$/m);
  if (!match) return undefined;
  return isAbsolute(match[1]) ? match[1] : resolve(dirname(path), match[1]);
}

/** git's `is_git_directory`: `HEAD`, and `objects/` and `refs/` in the common directory. */
function isGitDirectory(dir: string): boolean {
  if (!isFile(`${dir}/HEAD`) && !isSymlink(`${dir}/HEAD`)) return false;
  const common = commonDir(dir);
  return isDirectory(`${common}/objects`) && isDirectory(`${common}/refs`);
}

/** `<gitDir>/commondir` (a linked worktree's), resolved against `gitDir`; else `gitDir`. */
function commonDir(gitDir: string): string {
  const text = readText(`${gitDir}/commondir`)?.trim();
  if (!text) return gitDir;
  return isAbsolute(text) ? text : resolve(gitDir, text);
}

/**
 * `core.bare` and `core.worktree` from the repository's config. A linked
 * worktree's own `config.worktree` (with `extensions.worktreeConfig`) wins.
 */
function coreConfig(path: string, gitDir: string): { bare?: boolean; worktree?: string } {
  const shared = parseCore(readText(path) ?? "");
  const own = parseCore(readText(`${gitDir}/config.worktree`) ?? "");
  return { bare: own.bare ?? shared.bare, worktree: own.worktree ?? shared.worktree };
}

/** The `[core]` keys git config's syntax allows for `bare` and `worktree` (names case-insensitive). */
function parseCore(text: string): { bare?: boolean; worktree?: string } {
  const out: { bare?: boolean; worktree?: string } = {};
  let inCore = false;
  for (const raw of text.split("\n")) {
    const line = raw.replace(/(^|\s)[#;].*$/, "").trim();
    const section = line.match(/^\[\s*([A-Za-z0-9.-]+)\s*(?:"[^"]*")?\s*\]/);
    if (section) {
      inCore = section[1].toLowerCase() === "core";
      continue;
    }
    if (!inCore) continue;
    const entry = line.match(/^([A-Za-z][A-Za-z0-9-]*)\s*(?:=\s*(.*))?$/);
    if (!entry) continue;
    const key = entry[1].toLowerCase();
    const value = (entry[2] ?? "true").replace(/^"(.*)"$/, "$1");
    if (key === "bare") out.bare = /^(true|yes|on|1)$/i.test(value);
    if (key === "worktree") out.worktree = value;
  }
  return out;
}

function realPath(path: string): string | undefined {
  try {
    return Deno.realPathSync(path);
  } catch {
    return undefined;
  }
}

function readText(path: string): string | undefined {
  try {
    return Deno.readTextFileSync(path);
  } catch {
    return undefined;
  }
}

function isFile(path: string): boolean {
  try {
    return Deno.statSync(path).isFile;
  } catch {
    return false;
  }
}

function isDirectory(path: string): boolean {
  try {
    return Deno.statSync(path).isDirectory;
  } catch {
    return false;
  }
}

function isSymlink(path: string): boolean {
  try {
    return Deno.lstatSync(path).isSymlink;
  } catch {
    return false;
  }
}
