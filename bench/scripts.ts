/**
 * `deno task bench:scripts`: what `mcpx run` costs (issue 3's targets), side
 * by side in one run, with a warm daemon:
 *
 * 1. Launcher overhead: `mcpx run ./ret.ts` (`export default () => 42;`)
 *    against `deno run -A ret.ts` (the floor) and `mcpx --version` (the CLI's
 *    own start-up), plus where the time goes (`mcpx --json run` reports the
 *    script process's own duration; `--no-launcher` runs it bare), and what
 *    the sandbox of a narrowed `script.permissions` adds (`none`, `read`).
 * 2. 100 sequential `everything.echo` calls: one `mcpx run` of a script that
 *    makes them (whole run, and the script's own loop timed inside it), 100
 *    `mcpx call` processes, and 100 `mcporter call` processes against its
 *    keep-alive daemon.
 *
 * The world is bench/run.ts's (bench/_world.ts): one temporary folder with the
 * config and the XDG state/cache/config/data folders, DENO_DIR kept, npm
 * offline for every measured command, everything started carrying a run
 * marker and stopped at the end. See bench/README.md, "Scripts".
 *
 * Flags: --runs N, --slow-runs N, --warmup N, --loop-reps N, --peer-loop-reps N, --quick,
 * --skip-peer, --keep-node-ca-certs, --help.
 *
 * @module
 */

import { parseArgs } from "node:util";
import { markdownTable, ms, summarize } from "./stats.ts";
import { detectTimer, type Timer } from "./timer.ts";
import { choosePeer, enginesNote, type Peer } from "./peer.ts";
import { counter, helpAndExit, log } from "./_cli.ts";
import { RESULTS } from "./_paths.ts";
import { loadNote, machineAndCommit } from "./_report.ts";
import {
  callRows,
  CALLS,
  launcherRows,
  ok,
  type Result,
  SANDBOXED,
  type ScriptsMeasures,
  scriptsTargets,
} from "./_scripts_report.ts";
import { CALL_ARGS, checkOnce, createWorld, failed, mcpx, timed, WORLD_FLAGS } from "./_world.ts";

const USAGE =
  `usage: deno task bench:scripts [--runs N] [--slow-runs N] [--warmup N] [--loop-reps N]
                               [--peer-loop-reps N] [--quick] [--skip-peer]
                               [--keep-node-ca-certs]

  --runs N              timed runs per short command (default 20)
  --slow-runs N         timed runs of the 100-call script (default 10)
  --warmup N            untimed runs first (default 3; 1 for the 100-call script)
  --loop-reps N         repetitions of the loop of ${CALLS} \`mcpx call\` processes (default 3)
  --peer-loop-reps N    repetitions of the loop of ${CALLS} \`mcporter call\` processes (about
                        40-80 s each; default: the smaller of --loop-reps and 2)
  --quick               --runs 5 --slow-runs 3 --warmup 1 --loop-reps 1
  --skip-peer           measure mcpx and the floor only
  --keep-node-ca-certs  leave NODE_EXTRA_CA_CERTS set for node (see bench/README.md)
`;

// ---------------------------------------------------------------- options

const { values: flags } = parseArgs({
  args: Deno.args,
  options: {
    ...WORLD_FLAGS,
    "loop-reps": { type: "string" },
    "peer-loop-reps": { type: "string" },
  },
});
helpAndExit(flags.help, USAGE);
const count = counter(USAGE);
const quick = !!flags.quick;
const runs = count("runs", flags.runs, quick ? 5 : 20);
const slowRuns = count("slow-runs", flags["slow-runs"], quick ? 3 : 10);
const warmup = count("warmup", flags.warmup, quick ? 1 : 3, 0);
const slowWarmup = Math.min(warmup, 1);
const loopReps = count("loop-reps", flags["loop-reps"], quick ? 1 : 3);
const peerLoopReps = count("peer-loop-reps", flags["peer-loop-reps"], Math.min(loopReps, 2));

const started = performance.now();
const loadStart = Deno.loadavg();

// ---------------------------------------------------------------- the world

const world = await createWorld({
  prefix: "mcpx-bench-scripts-",
  keepNodeCaCerts: flags["keep-node-ca-certs"],
});
const { tmp, env, keepAliveEnv, caStripped, exec, mcporter, show } = world;
/** Where the 100-call script appends its own timing, one JSON line per run. */
const loopLog = `${tmp}/echo100.jsonl`;

const RET_SOURCE = "export default () => 42;\n";
const ECHO_SOURCE = `// ${CALLS} sequential everything.echo calls, timed from inside.
export default async () => {
  const per = [];
  const t0 = performance.now();
  for (let i = 0; i < ${CALLS}; i++) {
    const t = performance.now();
    const r = await everything.echo({ message: "hi" });
    per.push(performance.now() - t);
    if (String(r) !== "Echo: hi") throw new Error("unexpected result: " + String(r));
  }
  const loopMs = performance.now() - t0;
  Deno.writeTextFileSync(${JSON.stringify(loopLog)}, JSON.stringify({ loopMs, per }) + "\\n", {
    append: true,
  });
  return (loopMs / ${CALLS}).toFixed(3) + " ms per call";
};
`;
await Deno.writeTextFile(`${tmp}/ret.ts`, RET_SOURCE);
await Deno.writeTextFile(`${tmp}/echo100.ts`, ECHO_SOURCE);

let peer: Peer | undefined;

// ---------------------------------------------------------------- measuring

let timer: Timer;

/** hyperfine (or the loop timer) over one command, checked once first. */
async function measure(
  name: string,
  argv: string[],
  e: Record<string, string>,
  opts: { expect?: RegExp; slow?: boolean } = {},
): Promise<Result> {
  const command = show(argv);
  const once = await checkOnce(world, name, argv, e, opts.expect);
  if (once.error) return { command, error: once.error };
  const r = opts.slow ? slowRuns : runs;
  const w = opts.slow ? slowWarmup : warmup;
  const timing = await timed(world, timer, name, 46, { argv, env: e, runs: r, warmup: w });
  return "error" in timing ? { command, ...timing } : { command, ...timing, runs: r, warmup: w };
}

/**
 * `CALLS` processes of `argv` one after another, timed as a whole with
 * performance.now() around `Deno.Command(...).output()` (each output checked),
 * repeated `loopReps` times.
 */
async function loop(
  name: string,
  argv: string[],
  e: Record<string, string>,
  reps: number,
): Promise<Result> {
  const command = `${CALLS} × ${show(argv)}`;
  const totals: number[] = [];
  for (let rep = 0; rep < reps; rep++) {
    const t0 = performance.now();
    for (let i = 0; i < CALLS; i++) {
      const r = await exec(argv, e, 60_000);
      if (r.code !== 0 || !/Echo: hi/.test(r.stdout)) {
        const why = `call ${i + 1} of rep ${rep + 1}: ${failed(r)}`;
        log(`  ${name}: FAILED — ${why}`);
        return { command, error: why };
      }
    }
    totals.push(performance.now() - t0);
    log(`  ${name.padEnd(46)} rep ${rep + 1}/${reps}: ${ms(totals.at(-1)!)} ms`);
  }
  return { command, summary: summarize(totals), timesMs: totals, runs: reps, warmup: 0 };
}

// ---------------------------------------------------------------- run

const notes: string[] = [];
let failure: unknown;
/** Files in mcpx's log folder once the mcpx rows are done (every run writes one of its own). */
let logFiles: number | undefined;
function countLogFiles(): number | undefined {
  try {
    return [...Deno.readDirSync(`${tmp}/state/mcpx/logs`)].length;
  } catch {
    return undefined;
  }
}
let peerProblem: string | undefined;

const r: Record<string, Result | undefined> = {};
/** `mcpx --json run ./ret.ts`: wall time, and the durationMs it reports for the script process. */
const split: { wallMs: number[]; childMs: number[] } = { wallMs: [], childMs: [] };
/** The 100-call script's own loop: total and per-call times of every timed run. */
let inside: { loopMs: number[]; perCallMs: number[] } | undefined;

try {
  timer = await detectTimer();
  if (timer.kind === "loop") {
    log("hyperfine not found; timing with performance.now() around Deno.Command(...).output()");
  }
  log(
    `timer: ${timer.kind === "hyperfine" ? timer.version : "in-process loop"}; runs ${runs}, ` +
      `100-call script ${slowRuns}, warmup ${warmup}, loop reps ${loopReps} ` +
      `(mcporter ${peerLoopReps}); temp folder ${tmp}`,
  );

  ({ peer, problem: peerProblem } = await choosePeer(flags["skip-peer"], {
    logUnavailable: true,
  }));
  if (peer) {
    world.peer = peer;
    const note = enginesNote(peer, "Every call's output was checked (`Echo: hi`).");
    if (note) notes.push(note);
  }
  if (caStripped) {
    notes.push(
      "NODE_EXTRA_CA_CERTS is set on this machine and was removed from the measured environment " +
        "(node parses the bundle at every start); --keep-node-ca-certs keeps it.",
    );
  }

  await world.prime();
  const floorOnce = await exec([Deno.execPath(), "run", "-A", "ret.ts"], env, 120_000);
  if (floorOnce.code !== 0) throw new Error(`deno run -A ret.ts failed: ${failed(floorOnce)}`);

  log("setup: mcpx ls starts the daemon and the server and fills the schema cache");
  const first = await exec(mcpx("ls"), env, 120_000);
  if (first.code !== 0 || !/everything[\s\S]*ready/.test(first.stdout)) {
    throw new Error(`mcpx ls failed:\n${first.stdout}${first.stderr}`);
  }
  // The first run writes mcpx-client.ts beside the scripts and the launcher in the cache.
  const primed = await exec(mcpx("run", "./ret.ts"), env, 120_000);
  if (primed.code !== 0 || primed.stdout.trim() !== "42") {
    throw new Error(`mcpx run ./ret.ts failed: ${failed(primed)}`);
  }

  log("launcher overhead (daemon warm)");
  r.floor = await measure("deno run -A ret.ts", [Deno.execPath(), "run", "-A", "ret.ts"], env);
  r.version = await measure("mcpx --version", mcpx("--version"), env, { expect: /mcpx/ });
  r.run = await measure("mcpx run ./ret.ts", mcpx("run", "./ret.ts"), env, {
    expect: /^42\n?$/,
  });
  r.bare = await measure(
    "mcpx run --no-launcher ./ret.ts",
    mcpx("run", "--no-launcher", "./ret.ts"),
    env,
    { expect: /^$/ },
  );
  // A narrowed level runs the script in bubblewrap (decision 0016): its cost over `all`.
  for (const level of SANDBOXED) {
    r[`sandbox ${level}`] = await measure(
      `mcpx run --script-permissions ${level} ./ret.ts`,
      mcpx("run", "--script-permissions", level, "./ret.ts"),
      env,
      { expect: /^42\n?$/ },
    );
  }
  log("  mcpx --json run ./ret.ts: the script process's own time (durationMs)");
  for (let i = 0; i < warmup + runs; i++) {
    const t0 = performance.now();
    const out = await exec(mcpx("--json", "run", "./ret.ts"), env);
    const wall = performance.now() - t0;
    let doc: { ok?: boolean; result?: unknown; durationMs?: number } = {};
    try {
      doc = JSON.parse(out.stdout);
    } catch { /* checked below */ }
    if (out.code !== 0 || doc.result !== 42 || typeof doc.durationMs !== "number") {
      notes.push(`mcpx --json run ./ret.ts did not report a result of 42: ${failed(out)}`);
      break;
    }
    if (i < warmup) continue;
    split.wallMs.push(wall);
    split.childMs.push(doc.durationMs);
  }

  log(`${CALLS} sequential echo calls`);
  await Deno.writeTextFile(loopLog, "");
  r.script = await measure(
    `mcpx run ./echo100.ts (${CALLS} calls)`,
    mcpx("run", "./echo100.ts"),
    env,
    { expect: /ms per call/, slow: true },
  );
  if (ok(r.script)) {
    const lines = (await Deno.readTextFile(loopLog)).trim().split("\n").map((l) => JSON.parse(l));
    // The checked run and the warmups come first; the last `runs` lines are the timed ones.
    const timed = lines.slice(-r.script.runs) as { loopMs: number; per: number[] }[];
    inside = { loopMs: timed.map((t) => t.loopMs), perCallMs: timed.flatMap((t) => t.per) };
  }
  r.callOne = await measure(
    "mcpx call everything.echo (one process)",
    mcpx("call", "everything.echo", CALL_ARGS),
    env,
    { expect: /Echo: hi/ },
  );
  r.callLoop = await loop(
    `mcpx call × ${CALLS}`,
    mcpx("call", "everything.echo", CALL_ARGS),
    env,
    loopReps,
  );
  logFiles = countLogFiles();
  await exec(mcpx("stop"), env, 30_000);

  if (peer) {
    const call = mcporter("call", "everything.echo", "message=hi");
    const why = await world.withPeerDaemon(async () => {
      r.peerOne = await measure("mcporter call everything.echo (one process)", call, keepAliveEnv, {
        expect: /Echo: hi/,
      });
      r.peerLoop = await loop(`mcporter call × ${CALLS}`, call, keepAliveEnv, peerLoopReps);
    });
    if (why) r.peerOne = r.peerLoop = { command: show(call), error: why };
  }
} catch (error) {
  failure = error;
} finally {
  await world.close();
}
if (world.interrupted) Deno.exit(130);

// ---------------------------------------------------------------- report

const measures: ScriptsMeasures = { r, split, inside };
const targets = scriptsTargets(measures);

const loadEnd = Deno.loadavg();
notes.push(
  loadNote(loadStart, loadEnd),
  `Loops of ${CALLS} processes are timed in the bench's own process (performance.now() around ` +
    "Deno.Command(...).output(), output checked): about a millisecond of spawning per process " +
    "more than hyperfine's one-call rows.",
);
if (logFiles !== undefined) {
  notes.push(
    `mcpx's log folder held ${logFiles} files after the mcpx rows: every \`mcpx run\` opens a ` +
      "file of its own, created exclusively without listing the folder (logs/writer.ts " +
      "`shortLived`), so the count does not slow later rows.",
  );
}
for (const [key, x] of Object.entries(r)) {
  if (x && !ok(x)) notes.push(`${key}: ERROR ${x.error.split("\n")[0]}`);
}
if (peerProblem) notes.unshift(`Peer not measured: ${peerProblem}.`);
if (failure) notes.unshift(`The bench stopped early: ${(failure as Error).message ?? failure}`);
const totalSeconds = (performance.now() - started) / 1000;
const date = new Date();

const out: string[] = [];
out.push(
  `# mcpx scripts bench — ${date.toISOString()}`,
  "",
  "## 1. Launcher overhead (daemon warm)",
  "",
  markdownTable(
    ["command", "median ms", "p90 ms", "− floor ms", "÷ floor"],
    launcherRows(measures),
  ),
  "",
  `\`ret.ts\` is \`${RET_SOURCE.trim()}\`. ${runs} runs each (${warmup} warmup), hyperfine -N.`,
  "",
  `## 2. ${CALLS} sequential \`everything.echo\` calls`,
  "",
  markdownTable(
    [
      "approach",
      `total ms (${CALLS} calls)`,
      "per call ms",
      "one process median ms (p90)",
      "÷ mcpx script",
    ],
    callRows(measures, !!peer),
  ),
  "",
  `Totals are medians: the script over ${slowRuns} hyperfine runs (its loop over the same runs), ` +
    `the process loops over ${loopReps} (mcpx) and ${peerLoopReps} (mcporter) repetition(s) of ` +
    `${CALLS} processes each. ` +
    "The last column divides by the mcpx script's whole run.",
  "",
  "## Commands",
  "",
);
const commands: [string, Result | undefined][] = [
  ["floor", r.floor],
  ["CLI start-up", r.version],
  ["launcher overhead", r.run],
  ["bare run", r.bare],
  ...SANDBOXED.map((l) => [`sandboxed run (${l})`, r[`sandbox ${l}`]] as [string, Result]),
  [`${CALLS}-call script`, r.script],
  ["one call", r.callOne],
  ["call loop", r.callLoop],
  ["peer, one call (env MCPORTER_KEEPALIVE=everything)", r.peerOne],
  ["peer, call loop (env MCPORTER_KEEPALIVE=everything)", r.peerLoop],
];
for (const [label, x] of commands) if (x) out.push(`- ${label}: \`${x.command}\``);
out.push(
  `- split: \`${show(mcpx("--json", "run", "./ret.ts"))}\` (${runs} runs, ${warmup} warmup)`,
  "",
  "`echo100.ts`:",
  "",
  "```ts",
  ECHO_SOURCE.replaceAll(tmp, "$TMP").trim(),
  "```",
  "",
  "## Targets",
  "",
  ...targets.map((t) => `- ${t.status} — ${t.target}: ${t.detail}`),
  "",
  "## Notes",
  "",
  ...notes.map((n) => `- ${n}`),
  "",
  `Total bench time: ${totalSeconds.toFixed(1)} s.`,
);
const markdown = out.join("\n");
console.log(markdown);

const stamp = date.toISOString().replace(/:/g, "-").replace(/\.\d+Z$/, "Z");
const raw = {
  date: date.toISOString(),
  total_seconds: totalSeconds,
  ...await machineAndCommit(loadStart, loadEnd, peer),
  peer: peer
    ? { version: peer.version, install: peer.installCommand }
    : { unavailable: peerProblem },
  settings: {
    runs,
    slow_runs: slowRuns,
    warmup,
    loop_reps: loopReps,
    peer_loop_reps: peerLoopReps,
    calls: CALLS,
  },
  log_files: logFiles,
  results: r,
  json_run_split: split,
  inside_script: inside,
  targets,
  notes,
  ...(failure ? { failure: String((failure as Error).message ?? failure) } : {}),
};
await Deno.mkdir(RESULTS, { recursive: true });
await Deno.writeTextFile(`${RESULTS}scripts-${stamp}.md`, markdown + "\n");
await Deno.writeTextFile(`${RESULTS}scripts-${stamp}.json`, JSON.stringify(raw, null, 2) + "\n");
log(`results: ${RESULTS}scripts-${stamp}.md (raw times: scripts-${stamp}.json)`);
Deno.exit(failure ? 1 : 0);
