/**
 * Recognising a broken npm / npx cache in a server's stderr, so a start
 * failure names the fix instead of leaving the user to decode npm's log.
 *
 * The case that matters: `npx -y <pkg>` stopped by SIGKILL in the middle of
 * its first install leaves `<npm cache>/_npx/<hash>/` with a partial
 * `node_modules` and no `package.json`; every later start of that package
 * then fails (`Could not read package.json: … _npx/<hash>/package.json`, or
 * the server's own `Cannot find package 'zod' imported from …/_npx/<hash>/…`)
 * until that folder is deleted. Both texts are npm 10/11's and node 20+'s own.
 *
 * @module
 */

/** A package-runner cache failure found in a stderr tail, and what fixes it. */
export interface PackageCacheFailure {
  /** What is broken, one clause, e.g. `npx's install of the package in /…/_npx/ab12 is incomplete`. */
  problem: string;
  /** What to do, one imperative clause naming the path or command. */
  fix: string;
  /** The folder to delete, when the fix is deleting one (absolute path). */
  remove?: string;
}

/** An npx install folder: `<cache>/_npx/<hex hash>`. */
const NPX_DIR = /(\/[^\s'"`]*?\/_npx\/[0-9a-f]{8,})(?=\/)/;
/** npm could not read the package.json of an npx install folder. */
const NO_PACKAGE_JSON = /Could not read package\.json[^\n]*?\/_npx\/[0-9a-f]{8,}\/package\.json/;
/** The server's code could not load a file or dependency from an npx install folder. */
const MISSING_FROM_INSTALL =
  /(?:Cannot find (?:module|package)|ERR_MODULE_NOT_FOUND|MODULE_NOT_FOUND|ENOENT|ENOTEMPTY)[^\n]*\/_npx\/[0-9a-f]{8,}\//;
/** npm's cache holds a tarball whose checksum does not match. */
const INTEGRITY = /\bEINTEGRITY\b|integrity checksum failed/;
/** npm's own advice for a cache folder owned by another user. */
const CHOWN = /sudo chown -R [^\n]+/;

/**
 * Finds a known npm / npx cache failure in `stderr`.
 *
 * @param stderr A server's stderr tail (any length).
 * @returns The failure and its fix, or undefined when none is recognised.
 * @example
 * ```ts
 * import { packageCacheFailure } from "./npm_cache.ts";
 * const found = packageCacheFailure(
 *   "npm error enoent Could not read package.json: Error: ENOENT: no such file or directory, open '/home/u/.npm/_npx/c98ccc168155bafa/package.json'",
 * );
 * if (found?.remove !== "/home/u/.npm/_npx/c98ccc168155bafa") throw new Error();
 * ```
 */
export function packageCacheFailure(stderr: string): PackageCacheFailure | undefined {
  const line = stderr.split("\n").find((l) =>
    NO_PACKAGE_JSON.test(l) || MISSING_FROM_INSTALL.test(l)
  );
  const dir = line ? NPX_DIR.exec(line)?.[1] : undefined;
  if (dir) {
    return {
      problem: `npx's install of the package in ${dir} is incomplete (an earlier install was ` +
        `stopped part way)`,
      fix: `delete that folder (rm -rf '${dir}'); the next start installs the package again`,
      remove: dir,
    };
  }
  const chown = CHOWN.exec(stderr)?.[0];
  if (chown) {
    return {
      problem: "npm's cache folder holds files this user cannot write",
      fix: `run \`${chown.trim()}\` as npm advises`,
    };
  }
  if (INTEGRITY.test(stderr)) {
    return {
      problem: "npm's cache holds a download whose checksum does not match",
      fix: "run `npm cache verify` (or `npm cache clean --force`) and start the server again",
    };
  }
  return undefined;
}
