/**
 * `deno task bench:ab <other-checkout-dir>`: this checkout's mcpx against
 * another checkout's, side by side in one run, for restructurings that must
 * keep the warm path as fast as the tree before them ("warm medians stay
 * within 5% of the tree before the change, A/B").
 *
 * One hermetic world (bench/_world.ts: one config with server-everything, one
 * environment, npm offline); each side has its own MCPX_STATE_DIR and
 * MCPX_CACHE_DIR, so the two never share a daemon, a socket or a cache. Both
 * daemons are warmed, then every job runs the two sides' commands
 * interleaved, this then other, pair by pair, each timed as a whole process
 * (Deno.Command, output piped, the same overhead on both sides) and each
 * checked (exit 0, what a correct run prints). The report: each side's median
 * and p90, the median of the per-pair ratios this/other, and the floor
 * `deno run -A --config deno.json empty.ts` once for reference. See
 * bench/README.md, "A/B".
 *
 * Exits 0 whatever it measured (a bench reports, it does not judge), 2 on a
 * usage error, 130 when interrupted.
 *
 * @module
 */

import { parseArgs } from "node:util";
import { resolve } from "node:path";
import { markdownTable, ms, summarize, type Summary } from "./stats.ts";
import { shellQuote } from "./timer.ts";
import { counter, helpAndExit, log } from "./_cli.ts";
import { CALL_OK, LS_OK, SEARCH_OK, TYPES_OK } from "./_latency_rows.ts";
import { ROOT } from "./_paths.ts";
import { loadNote, machineAndCommit, writeResults } from "./_report.ts";
import { CALL_ARGS, createWorld, type Exec, failed, Interrupted, timedOutput } from "./_world.ts";
import { mcpxArgv } from "../dev/mcpx_argv.ts";

const USAGE = `usage: deno task bench:ab <other-checkout-dir> [--runs N] [--warmup N] [--quick]

Times this checkout's mcpx against the one in <other-checkout-dir>, run as
\`deno run -A --config <dir>/deno.json <dir>/cli/mcpx.bundle.js\` (cli/main.ts in a checkout
from before the bundle), interleaved pair by pair.

  --runs N     timed pairs per job (default 30)
  --warmup N   untimed pairs per job first (default 3)
  --quick      --runs 10
  -h, --help   this text`;

/** Prints `why` and the usage on stderr and exits 2. */
function usageError(why: string): never {
  console.error(`error: ${why}\n\n${USAGE}`);
  Deno.exit(2);
}

// ---------------------------------------------------------------- options

let parsed;
try {
  parsed = parseArgs({
    args: Deno.args,
    allowPositionals: true,
    options: {
      runs: { type: "string" },
      warmup: { type: "string" },
      quick: { type: "boolean" },
      help: { type: "boolean", short: "h" },
    },
  });
} catch (error) {
  usageError((error as Error).message);
}
const { values: flags, positionals } = parsed;
helpAndExit(flags.help, USAGE);
const count = counter(USAGE);
const runs = count("runs", flags.runs, flags.quick ? 10 : 30);
const warmup = count("warmup", flags.warmup, 3, 0);
if (positionals.length !== 1) {
  usageError(
    positionals.length ? `one checkout, got ${positionals.length}` : "which checkout to compare?",
  );
}

// `deno task` runs in the folder of deno.json; a relative path means the caller's folder.
const otherRoot = resolve(Deno.env.get("INIT_CWD") ?? Deno.cwd(), positionals[0]) + "/";
const otherDir = otherRoot.slice(0, -1) || "/";
let info: Deno.FileInfo;
try {
  info = Deno.statSync(otherDir);
} catch {
  usageError(`${otherDir}: no such folder`);
}
if (!info.isDirectory) usageError(`${otherDir} is not a folder`);
const missing = ["deno.json", "cli/main.ts"].filter((f) => {
  try {
    return !Deno.statSync(`${otherRoot}${f}`).isFile;
  } catch {
    return true;
  }
});
if (missing.length) {
  usageError(
    `${otherRoot} is not an mcpx checkout: it has no ${missing.join(" and no ")} ` +
      `(it is run as \`deno run -A --config <dir>/deno.json <dir>/cli/mcpx.bundle.js\`, or cli/main.ts)`,
  );
}

const started = performance.now();
const loadStart = Deno.loadavg();

// ---------------------------------------------------------------- the world and the sides

const world = await createWorld({ prefix: "mcpx-bench-ab-" });
const { tmp, show } = world;
await Deno.writeTextFile(`${tmp}/empty.ts`, "");

/** One checkout under test. */
interface AbSide {
  name: "this" | "other";
  /** Its source tree, ending in `/`. */
  root: string;
  /** Its MCPX_STATE_DIR (daemon records under `daemons/`). */
  stateDir: string;
  /** The world's measured environment plus its own state and cache folders. */
  env: Record<string, string>;
  /** argv of an mcpx command run from its tree. */
  argv(...args: string[]): string[];
}

function abSide(name: AbSide["name"], root: string): AbSide {
  const stateDir = `${tmp}/${name}/state`;
  return {
    name,
    root,
    stateDir,
    env: { ...world.env, MCPX_STATE_DIR: stateDir, MCPX_CACHE_DIR: `${tmp}/${name}/cache` },
    argv: (...args) => mcpxArgv(args, root),
  };
}

const sides = [abSide("this", ROOT), abSide("other", otherRoot)] as const;

// Both daemons are stopped before the world's own cleanup, on every path out
// (an interrupt included: the world's signal handler calls world.cleanup).
const worldCleanup = world.cleanup;
let stopping: Promise<void> | undefined;
world.cleanup = () =>
  stopping ??= (async () => {
    log("stopping both sides' daemons (mcpx stop)");
    for (const s of sides) await world.exec(s.argv("stop"), s.env, 30_000, true);
    await worldCleanup();
  })();

/** pid of every daemon a side's records name. */
function daemonPids(s: AbSide): number[] {
  try {
    return [...Deno.readDirSync(`${s.stateDir}/daemons`)]
      .filter((e) => e.name.endsWith(".json"))
      .map((e) => JSON.parse(Deno.readTextFileSync(`${s.stateDir}/daemons/${e.name}`)).pid)
      .sort();
  } catch {
    return [];
  }
}

// ---------------------------------------------------------------- the jobs

interface Job {
  /** mcpx's arguments, the same on both sides. */
  args: string[];
  /** What a correct run prints on stdout. */
  expect: RegExp;
}

const JOBS: Job[] = [
  { args: ["ls"], expect: LS_OK },
  { args: ["search", "echo"], expect: SEARCH_OK },
  { args: ["types", "everything"], expect: TYPES_OK },
  { args: ["types", "everything.echo"], expect: TYPES_OK },
  { args: ["call", "everything.echo", CALL_ARGS], expect: CALL_OK },
  { args: ["--version"], expect: /^mcpx \S/ },
];
const label = (args: string[]) => `mcpx ${shellQuote(args)}`;

/** One side's timed runs of one job, or why they stopped. */
type SideResult = { timesMs: number[]; summary: Summary } | { error: string };

interface JobResult {
  label: string;
  this?: SideResult;
  other?: SideResult;
  /** this/other of each timed pair, in run order. */
  ratios: number[];
}

/**
 * Runs `argv` once, timed from spawn to exit.
 *
 * @returns Its time in ms, or why it is wrong: a failure to start, a
 *   timeout, a non-zero exit, or stdout not matching `expect`.
 */
async function checkedRun(
  argv: string[],
  env: Record<string, string>,
  expect: RegExp,
  timeoutMs = 60_000,
): Promise<{ ms: number; stderr: string } | { error: string }> {
  if (world.interrupted) throw new Interrupted();
  let r: Exec;
  let took: number;
  try {
    const { out, ms } = await timedOutput(argv, env, tmp, timeoutMs);
    const text = (b: Uint8Array) => new TextDecoder().decode(b);
    r = { code: out.code, stdout: text(out.stdout), stderr: text(out.stderr) };
    took = ms;
  } catch (error) {
    return { error: String(error) };
  }
  if (r.code !== 0) return { error: failed(r) };
  if (!expect.test(r.stdout)) {
    return { error: `unexpected output (wanted ${expect}): ${r.stdout.trim().slice(0, 200)}` };
  }
  return { ms: took, stderr: r.stderr.trim() };
}

const notes: string[] = [];

/**
 * `warmup` untimed pairs, then `runs` timed ones: this then other, each run
 * checked. The first failed run ends the job; the side it happened on gets
 * the error, and the other side keeps no times (a lone side has no ratio).
 * When the first pair's stderr differs between the sides, a note quotes both
 * (the same warning on both sides is the world's, not a difference).
 */
async function measureJob(job: Job): Promise<JobResult> {
  const result: JobResult = { label: label(job.args), ratios: [] };
  const times: [number[], number[]] = [[], []];
  const stderr: { this?: string; other?: string } = {};
  const t0 = performance.now();
  for (let i = 0; i < warmup + runs; i++) {
    const pair: number[] = [];
    for (const s of sides) {
      const r = await checkedRun(s.argv(...job.args), s.env, job.expect);
      if ("error" in r) {
        result[s.name] = { error: r.error };
        log(`  ${result.label}: ${s.name} FAILED — ${r.error.split("\n")[0]}`);
        return result;
      }
      pair.push(r.ms);
      stderr[s.name] ??= r.stderr;
    }
    if (i === 0 && stderr.this !== stderr.other) {
      const one = (t = "") => JSON.stringify(t.replaceAll("\n", " / ").slice(0, 200));
      notes.push(
        `${result.label}: the sides' stderr differs (first run): this ${one(stderr.this)}, ` +
          `other ${one(stderr.other)}`,
      );
    }
    if (i < warmup) continue;
    times[0].push(pair[0]);
    times[1].push(pair[1]);
    result.ratios.push(pair[0] / pair[1]);
  }
  sides.forEach((s, i) => result[s.name] = { timesMs: times[i], summary: summarize(times[i]) });
  const m = (r?: SideResult) => r && "summary" in r ? ms(r.summary.median).padStart(7) : "—";
  log(
    `  ${result.label.padEnd(44)} this ${m(result.this)} ms  other ${m(result.other)} ms  ` +
      `this/other ${ratioText(summarize(result.ratios).median)}  ` +
      `(${runs} pairs, ${((performance.now() - t0) / 1000).toFixed(1)} s)`,
  );
  return result;
}

/** `1.023×`: three decimals, so a 5% budget reads at a glance. */
function ratioText(r: number): string {
  return Number.isFinite(r) ? `${r.toFixed(3)}×` : "—";
}

// ---------------------------------------------------------------- run

const floorArgv = [Deno.execPath(), "run", "-A", "--config", `${ROOT}deno.json`, `${tmp}/empty.ts`];
let floor: SideResult | undefined;
const results: JobResult[] = [];
let failure: unknown;

try {
  log(
    `A/B: this ${ROOT} against other ${otherRoot}; ${runs} pairs per job after ${warmup} ` +
      `untimed; temp folder ${tmp}`,
  );
  await world.prime();
  log("setup: warming the other checkout's module graph");
  const { MCPX_STATE_DIR, MCPX_CACHE_DIR } = sides[1].env;
  const primed = await world.exec(
    sides[1].argv("--version"),
    { ...world.setupEnv, MCPX_STATE_DIR, MCPX_CACHE_DIR },
    300_000,
  );
  if (primed.code !== 0) throw new Error(`other: mcpx --version ${failed(primed)}`);

  for (const s of sides) {
    log(`setup: ${s.name}: ls lists the server through a new daemon, call warms it`);
    for (const job of [JOBS[0], JOBS[4]]) {
      const r = await checkedRun(s.argv(...job.args), s.env, job.expect, 120_000);
      if ("error" in r) throw new Error(`${s.name}: ${label(job.args)} ${r.error}`);
    }
    if (!daemonPids(s).length) throw new Error(`${s.name}: no daemon record after warming`);
  }
  const pidsBefore = sides.map(daemonPids);

  log("floor");
  const floorTimes: number[] = [];
  for (let i = 0; i < warmup + runs; i++) {
    const r = await checkedRun(floorArgv, world.env, /^$/);
    if ("error" in r) {
      floor = { error: r.error };
      break;
    }
    if (i >= warmup) floorTimes.push(r.ms);
  }
  floor ??= { timesMs: floorTimes, summary: summarize(floorTimes) };

  log("jobs, daemons warm");
  for (const job of JOBS) results.push(await measureJob(job));

  sides.forEach((s, i) => {
    const now = daemonPids(s);
    if (now.join() !== pidsBefore[i].join()) {
      notes.push(
        `${s.name}: its daemon changed during the jobs (pids ${pidsBefore[i]} before, ` +
          `${now.join() || "none"} after): some runs may have started one.`,
      );
    }
  });
} catch (error) {
  if (!(error instanceof Interrupted)) failure = error;
} finally {
  await world.close();
}
if (world.interrupted) Deno.exit(130);

// ---------------------------------------------------------------- report

// A side without a result ran, but its pair's other run failed: its times were dropped.
const cell = (r?: SideResult) =>
  !r ? "—" : "error" in r ? "error" : `${ms(r.summary.median)} (${ms(r.summary.p90)})`;
const pairMedian = (j: JobResult) =>
  j.this && "summary" in j.this && j.other && "summary" in j.other
    ? summarize(j.ratios).median
    : NaN;
const tableRows = [
  ...results.map((j) => [
    j.label,
    cell(j.this),
    cell(j.other),
    ratioText(pairMedian(j)),
    String(j.ratios.length),
  ]),
  ["floor: deno run -A --config deno.json empty.ts", cell(floor), "—", "—", "—"],
];
for (const j of results) {
  for (const s of sides) {
    const r = j[s.name];
    if (r && "error" in r) notes.push(`${j.label}, ${s.name}: ERROR ${r.error.split("\n")[0]}`);
  }
}
if (floor && "error" in floor) notes.push(`floor: ERROR ${floor.error.split("\n")[0]}`);
if (failure) notes.unshift(`The bench stopped early: ${(failure as Error).message ?? failure}`);
const loadEnd = Deno.loadavg();
notes.push(loadNote(loadStart, loadEnd));
const totalSeconds = (performance.now() - started) / 1000;

const git = async (...args: string[]) => {
  const o = await new Deno.Command("git", { args: ["-C", otherRoot, ...args], stderr: "null" })
    .output().catch(() => undefined);
  return o?.success ? new TextDecoder().decode(o.stdout).trim() : undefined;
};
const about = await machineAndCommit(loadStart, loadEnd, undefined);
const other = {
  dir: otherRoot,
  commit: await git("rev-parse", "HEAD"),
  dirty: !!(await git("status", "--porcelain", "--", ".")),
};
const rev = (c: { commit?: string; dirty: boolean }) =>
  `${c.commit?.slice(0, 7) ?? "no git"}${c.dirty ? "+dirty" : ""}`;

const md = [
  `# mcpx A/B — ${new Date().toISOString()}`,
  "",
  `this: ${ROOT} (${rev(about.mcpx)}); other: ${otherRoot} (${rev(other)})`,
  "",
  markdownTable(
    ["job (daemon warm)", "this median ms (p90)", "other median ms (p90)", "this/other", "pairs"],
    tableRows,
  ),
  "",
  `Medians (p90) in ms of ${runs} timed pairs after ${warmup} untimed, run this then other; ` +
  "this/other is the median of the pairs' ratios (below 1.000× this checkout is faster). " +
  "The floor is timed once, for reference.",
  "",
  "## Commands",
  "",
  ...sides.map((s) => `- ${s.name}: \`${show(s.argv())} <job>\``),
  `- floor: \`${show(floorArgv)}\``,
  "",
  "## Notes",
  "",
  ...notes.map((n) => `- ${n}`),
  "",
  `Total bench time: ${totalSeconds.toFixed(1)} s.`,
].join("\n");
console.log(md);

const sideJson = (command: string[], r?: SideResult) => ({
  command: show(command),
  ...(r && "summary" in r
    ? {
      median_ms: r.summary.median,
      p90_ms: r.summary.p90,
      mean_ms: r.summary.mean,
      min_ms: r.summary.min,
      max_ms: r.summary.max,
      runs: r.summary.runs,
      times_ms: r.timesMs,
    }
    : { error: r ? r.error : "not run" }),
});
const data = {
  date: new Date().toISOString(),
  total_seconds: totalSeconds,
  ...about,
  other,
  settings: {
    timer: "Deno.Command(...).output(), spawn to exit, stdout and stderr piped",
    order: "this then other, in every pair",
    runs,
    warmup,
  },
  floor: sideJson(floorArgv, floor),
  jobs: results.map((j, i) => ({
    label: j.label,
    this: sideJson(sides[0].argv(...JOBS[i].args), j.this),
    other: sideJson(sides[1].argv(...JOBS[i].args), j.other),
    this_over_other_median: Number.isFinite(pairMedian(j)) ? pairMedian(j) : null,
    ratios: j.ratios,
  })),
  notes,
  ...(failure ? { failure: String((failure as Error).message ?? failure) } : {}),
};
log(`results: ${await writeResults("ab", md + "\n", data)} (and .json)`);
Deno.exit(0);
