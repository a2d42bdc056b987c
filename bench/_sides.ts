/**
 * Before and after, for the benches that compare this checkout with an
 * earlier revision (private to bench/): the revision is extracted with
 * `git archive` into the bench's temporary folder and run from there, and
 * each side gets its own XDG folders, so two revisions of the same version
 * never share a daemon, a socket or a cache. {@link scratch} is the
 * temporary folder, run marker and cleanup these benches share.
 *
 * @module
 */

import { log } from "./_cli.ts";
import { ROOT } from "./_paths.ts";
import { markedProcesses, MARKER_VAR, onInterrupt, terminate } from "./_processes.ts";
import { strippedEnv, xdgHomes } from "./_world.ts";
import { mcpxArgv } from "../dev/mcpx_argv.ts";

/** The revision issue 9's benches call "before": main when that work began. */
export const ISSUE9_BASE = "9a774f0";

/** The flags every before/after bench takes, for `parseArgs` (the bench adds its own). */
export const SIDES_FLAGS = {
  runs: { type: "string" },
  before: { type: "string", default: ISSUE9_BASE },
  "skip-before": { type: "boolean" },
  help: { type: "boolean", short: "h" },
} as const;

/** The usage lines of `--before` and `--skip-before` ({@link SIDES_FLAGS}), ending a bench's usage. */
export const SIDES_USAGE =
  `  --before REV     the revision measured as "before" (default ${ISSUE9_BASE})
  --skip-before    measure this checkout only`;

/**
 * A bench's temporary folder and run marker, and the one cleanup of what it
 * started, run on SIGINT/SIGTERM (then exit 130) or by the bench when done.
 */
export interface Scratch {
  /** The temporary folder; removed by {@link cleanup}. */
  tmp: string;
  /** The run marker ({@link MARKER_VAR}) every process the bench starts inherits. */
  marker: string;
  /**
   * Runs the bench's own `stop`, then SIGTERM/SIGKILL to every process still
   * carrying the marker (logged), then removes the folder. Every caller awaits
   * the same run of it.
   */
  cleanup(): Promise<void>;
  /** Removes the SIGINT/SIGTERM listeners. */
  removeListeners(): void;
}

/**
 * Makes the temporary folder (`prefix` + random) and the marker, and calls
 * {@link Scratch.cleanup} on SIGINT/SIGTERM.
 *
 * @param prefix The folder's name prefix, e.g. `mcpx_bench_big_`.
 * @param stop What the bench stops first (its daemons); its failures are its own to catch.
 */
export async function scratch(
  prefix: string,
  stop: () => Promise<void> = () => Promise.resolve(),
): Promise<Scratch> {
  const tmp = await Deno.makeTempDir({ prefix });
  const marker = crypto.randomUUID();
  let cleaning: Promise<void> | undefined;
  const cleanup = () =>
    cleaning ??= (async () => {
      await stop();
      const left = await terminate(() => markedProcesses(marker));
      if (left.length) log(`stopped ${left.length} leftover process(es): ${left}`);
      await Deno.remove(tmp, { recursive: true }).catch(() => {});
    })();
  const removeListeners = onInterrupt(async () => {
    log("\ninterrupted: stopping what the bench started");
    await cleanup();
    Deno.exit(130);
  });
  return { tmp, marker, cleanup, removeListeners };
}

/** One side of a comparison: where its source is and how to run its mcpx. */
export interface Side {
  /** `before` or `after`. */
  name: "before" | "after";
  /** The source tree, ending in `/`. */
  root: string;
  /** argv of an mcpx command run from that tree. */
  mcpx(...args: string[]): string[];
  /** Its environment: own XDG folders under `<tmp>/<name>-home`, the run marker, `extra`. */
  env(extra?: Record<string, string>): Record<string, string>;
}

const denoDir = (): string =>
  JSON.parse(
    new TextDecoder().decode(
      new Deno.Command(Deno.execPath(), { args: ["info", "--json"] }).outputSync().stdout,
    ),
  ).denoDir;

/**
 * The environment of a side named `name` (or of anything else a bench runs
 * apart, such as the peer): the caller's without mcpx's variables, its own
 * XDG folders under `<tmp>/<name>-home`, the caller's `DENO_DIR`, the run
 * marker, then `extra`.
 *
 * @param name Names its XDG folders.
 * @param tmp The bench's temporary folder.
 * @param marker The run marker every process it starts inherits.
 */
export function sideEnv(
  name: string,
  tmp: string,
  marker: string,
): (extra?: Record<string, string>) => Record<string, string> {
  const base = strippedEnv();
  const dir = base.DENO_DIR ?? denoDir();
  return (extra = {}) => ({
    ...base,
    ...xdgHomes(`${tmp}/${name}-home`),
    DENO_DIR: dir,
    [MARKER_VAR]: marker,
    NO_COLOR: "1",
    ...extra,
  });
}

/**
 * The side run from `root`.
 *
 * @param name Which side.
 * @param root Its source tree, ending in `/`.
 * @param tmp The bench's temporary folder.
 * @param marker The run marker every process it starts inherits.
 */
export function side(name: Side["name"], root: string, tmp: string, marker: string): Side {
  return {
    name,
    root,
    mcpx: (...args) => mcpxArgv(args, root),
    env: sideEnv(name, tmp, marker),
  };
}

/**
 * Extracts `rev` with `git archive` into `<tmp>/before/`.
 *
 * @returns That folder, ending in `/`.
 * @throws {Error} When `git archive` fails (an unknown revision, no git).
 */
export async function extractRevision(rev: string, tmp: string): Promise<string> {
  await Deno.mkdir(`${tmp}/before`, { recursive: true });
  const archive = await new Deno.Command("sh", {
    args: ["-c", `git -C "${ROOT}" archive "${rev}" | tar -x -C "${tmp}/before"`],
  }).output();
  if (!archive.success) {
    throw new Error(`git archive ${rev}: ${new TextDecoder().decode(archive.stderr)}`);
  }
  return `${tmp}/before/`;
}

/**
 * Extracts `rev` into `<tmp>/before/` and returns that side.
 *
 * @throws {Error} From {@link extractRevision}.
 */
export async function beforeSide(rev: string, tmp: string, marker: string): Promise<Side> {
  return side("before", await extractRevision(rev, tmp), tmp, marker);
}

/** The {@link SIDES_FLAGS} values that choose the sides. */
export interface SidesChoice {
  before: string;
  "skip-before"?: boolean;
}

/**
 * The sides `flags` ask for, in report order: before (extracted from
 * `flags.before`, logged) unless `--skip-before`, then after (this checkout).
 *
 * @throws {Error} From {@link beforeSide}.
 */
export async function chooseSides(
  flags: SidesChoice,
  tmp: string,
  marker: string,
): Promise<Side[]> {
  const sides: Side[] = [];
  if (!flags["skip-before"]) {
    log(`before: extracting ${flags.before} (git archive)`);
    sides.push(await beforeSide(flags.before, tmp, marker));
  }
  sides.push(side("after", ROOT, tmp, marker));
  return sides;
}

/**
 * The line under a before/after report's title: the two revisions, the runs
 * per cell and the machine's load average (1, 5, 15 min).
 */
export const sidesNote = (commit: string, flags: SidesChoice, runs: number): string =>
  `after: ${commit}; before: ${flags["skip-before"] ? "(skipped)" : flags.before}; ` +
  `${runs} run(s) per cell, medians; load average ${
    Deno.loadavg().map((x) => x.toFixed(2)).join(" ")
  }`;

/** The short commit of this checkout, with `+dirty` when the tree has changes. */
export async function thisCommit(): Promise<string> {
  const git = async (...args: string[]) =>
    new TextDecoder().decode(
      (await new Deno.Command("git", { args: ["-C", ROOT, ...args] }).output()).stdout,
    ).trim();
  const commit = await git("rev-parse", "--short", "HEAD");
  return (await git("status", "--porcelain")) ? `${commit}+dirty` : commit;
}
