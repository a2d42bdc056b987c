/**
 * `deno task bench`: issue 26's target table, measured so it cannot flatter
 * (bench/interleaved.ts). Each group of jobs runs interleaved with its floor,
 * round after round; a ratio is the median of the per-round ratios; CPU-time
 * ratios (user + system of the mcpx process) sit beside the wall ratios,
 * since they hold up under load.
 *
 * The floor is `deno run -A empty.ts` of an empty file in a folder with no
 * `deno.json` anywhere above it: the cost of starting Deno at all. For
 * `run` and `exec` it is `deno run -A ret.ts` of the same one-line script.
 *
 * The rows this run does not measure (`serve --http`, cold calls and idle
 * memory against mcporter) are listed with the bench that measures them.
 *
 * Flags: --runs N (default 30), --warmup N (default 3), --quick (10 runs),
 * --no-scale (skip the 100-server and 1,000-tool groups).
 * Exits 0 whatever it measured, 1 when a run failed its check, 2 on a usage
 * error, 130 when interrupted.
 *
 * @module
 */

import { parseArgs } from "node:util";
import { existsSync } from "../core/exists.ts";
import { frontSocket } from "../cli/relay/front_socket.ts";
import { counter, helpAndExit, log } from "./_cli.ts";
import { CALL_OK, LS_OK, SEARCH_OK, TYPES_OK } from "./_latency_rows.ts";
import { loadNote, machineAndCommit, writeResults } from "./_report.ts";
import { CALL_ARGS, createWorld, mcpx } from "./_world.ts";
import {
  type Configuration,
  manyToolsConfiguration,
  scaleConfiguration,
  warmMcpx,
} from "./_scale_world.ts";
import { markdownTable, ms } from "./stats.ts";
import {
  type Against,
  against,
  type Contender,
  floorSpread,
  interleave,
  noVerdict,
  RunFailed,
} from "./interleaved.ts";

const USAGE = `usage: deno task bench [--runs N] [--warmup N] [--quick] [--no-scale]

  --runs N     timed rounds per group (default 30)
  --warmup N   untimed rounds first (default 3)
  --quick      --runs 10
  --no-scale   skip the 100-server and 1,000-tool groups (which start 100 servers)`;

const { values: flags } = parseArgs({
  args: Deno.args,
  options: {
    runs: { type: "string" },
    warmup: { type: "string" },
    quick: { type: "boolean" },
    "no-scale": { type: "boolean" },
    help: { type: "boolean", short: "h" },
  },
});
helpAndExit(flags.help, USAGE);
const count = counter(USAGE);
const runs = count("runs", flags.runs, flags.quick ? 10 : 30);
const warmup = count("warmup", flags.warmup, 3, 0);

/**
 * A row of the table: a job, its target, and what it measured against its
 * floor. A `rate` row's target is a least rate against the floor's (runs
 * per second: the floor's wall time over the job's), every other row's a
 * most wall-time ratio.
 */
interface Row {
  job: string;
  target: number;
  rate?: true;
  result?: Against;
}

const RET_SOURCE = "export default () => 42;\n";
const loadStart = Deno.loadavg();
const cores = navigator.hardwareConcurrency;
const world = await createWorld({ prefix: "mcpx-bench-targets-" });
const { tmp, env } = world;
// The floor's folder: no deno.json in it or above it (the temporary folder's parents have none).
const bare = `${tmp}/bare`;
await Deno.mkdir(bare);
await Deno.writeTextFile(`${bare}/empty.ts`, "");
await Deno.writeTextFile(`${bare}/ret.ts`, RET_SOURCE);
await Deno.writeTextFile(`${tmp}/ret.ts`, RET_SOURCE);

const deno = Deno.execPath();
const floor: Contender = {
  label: "floor: deno run -A empty.ts",
  argv: [deno, "run", "-A", "empty.ts"],
  env,
  cwd: bare,
};
const retFloor: Contender = {
  label: "floor: deno run -A ret.ts",
  argv: [deno, "run", "-A", "ret.ts"],
  env,
  cwd: bare,
};
const job = (label: string, args: string[], expect: RegExp): Contender => ({
  label,
  argv: mcpx(...args),
  env,
  cwd: tmp,
  expect,
});

/** The warm jobs, each with what a correct run prints. */
const WARM_JOBS: [string, string[], RegExp][] = [
  ["`mcpx ls`", ["ls"], LS_OK],
  ["`mcpx search echo`", ["search", "echo"], SEARCH_OK],
  ["`mcpx types everything`", ["types", "everything"], TYPES_OK],
  ["`mcpx types everything.echo`", ["types", "everything.echo"], TYPES_OK],
  ["`mcpx call everything.echo …`", ["call", "everything.echo", CALL_ARGS], CALL_OK],
  ["`mcpx catalog`", ["catalog"], /everything/],
];
/** As users run them: `mcpx`, off a terminal, relayed to the front (decision 0068). */
const WARM: [Contender, number][] = WARM_JOBS.map((
  [name, args, expect],
) => [job(`warm ${name}`, args, expect), 1.3]);
/** The same in a whole process of their own, as on a terminal or with `MCPX_RELAY=0`. */
const wholeEnv = { ...env, MCPX_RELAY: "0" };
const WHOLE: [Contender, number][] = WARM_JOBS.map((
  [name, args, expect],
) => [{ ...job(`whole process ${name}`, args, expect), env: wholeEnv }, 1.3]);
const SCRIPTS: [Contender, number][] = [
  [job("`mcpx run ./ret.ts`", ["run", "./ret.ts"], /42/), 2.2],
  [job("`mcpx exec '1+1'`", ["exec", "1+1"], /^2\s*$/), 2.2],
];

/** Concurrent calls, against as many concurrent floors: the rate target of issue 26. */
const CONCURRENT = 8;
const floorBatch: Contender = {
  ...floor,
  label: `floor: ${CONCURRENT} concurrent deno run -A empty.ts`,
  concurrency: CONCURRENT,
};
const concurrentCall = job(
  `${CONCURRENT} concurrent \`mcpx call\` processes`,
  ["call", "everything.echo", CALL_ARGS],
  CALL_OK,
);
const CALLS: [Contender, number][] = [
  [{ ...concurrentCall, concurrency: CONCURRENT }, 0.8],
  [{
    ...concurrentCall,
    label: `${CONCURRENT} concurrent whole-process \`mcpx call\` processes`,
    env: wholeEnv,
    concurrency: CONCURRENT,
  }, 0.8],
];

/** The warm jobs on 100 servers (one real server under 100 names; bench/_scale_world.ts). */
const hundredJobs = (c: Configuration): [Contender, number][] =>
  WARM_JOBS.map(([name, args, expect]) => [
    { ...job(`100 servers: warm ${name}`, args, expect), env: c.env },
    1.35,
  ]);
/** The warm jobs the issue names at 1,000 tools (one server of 1,000 made-up tools). */
const MANY_TOOL = "github_create_issue";
const thousandJobs = (c: Configuration): [Contender, number][] =>
  ([
    ["`mcpx search create issue`", ["search", "create", "issue"], /many\.\w+_issue\b/],
    [
      `\`mcpx types many.${MANY_TOOL}\``,
      ["types", `many.${MANY_TOOL}`],
      /function github_create_issue/,
    ],
    ["`mcpx catalog`", ["catalog"], /declare namespace many/],
  ] as [string, string[], RegExp][]).map(([name, args, expect]) => [
    { ...job(`1,000 tools: warm ${name}`, args, expect), env: c.env },
    1.4,
  ]);

/** The rows not measured here: what measures something near them today, or that nothing does. */
const ELSEWHERE: [string, string, string][] = [
  [
    "`serve --http` calls/s, 1 and 8 clients",
    "≥ 1.0× mcporter's",
    "`deno task bench:serve` (interleaved bursts against `mcporter serve --http`)",
  ],
  [
    "cold `mcpx call` (no daemon)",
    "≤ 0.5× mcporter's",
    "`deno task bench:latency` (its floor timed apart)",
  ],
  [
    "idle daemon RSS, 3 servers, settled 60 s",
    "≤ mcporter's",
    "`deno task bench:memory --real` (3 real servers, settled 60 s, front process shown)",
  ],
];

const rows: Row[] = [];
const spreads: string[] = [];
const verdicts: (string | undefined)[] = [];
let failure: unknown;
try {
  await world.prime();
  log("setup: a first `mcpx call` starts the daemon and the front process, and warms both");
  const first = await world.exec(mcpx("call", "everything.echo", CALL_ARGS), env, 120_000);
  if (first.code !== 0) throw new RunFailed("setup", first.stderr.trim() || first.stdout);
  const front = frontSocket(env);
  for (let i = 0; i < 100 && !existsSync(front); i++) {
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  if (!existsSync(front)) throw new RunFailed("setup", `no front process listens on ${front}`);
  const groups: [string, [Contender, number][], Contender][] = [
    ["warm jobs", WARM, floor],
    ["whole process", WHOLE, floor],
    ["scripts", SCRIPTS, retFloor],
    ["concurrent calls", CALLS, floorBatch],
  ];
  if (!flags["no-scale"]) {
    log("setup: 100 servers and 1,000 tools: each listed once through its own daemon");
    const hundred = await scaleConfiguration(world, 100);
    const thousand = await manyToolsConfiguration(world, 1000);
    for (const [c, tools] of [[hundred, 1], [thousand, 1000]] as const) {
      const problem = await warmMcpx(world, c, tools);
      if (problem) throw new RunFailed("setup", `${c.label}: ${problem}`);
    }
    groups.push(["100 servers", hundredJobs(hundred), floor]);
    groups.push(["1,000 tools", thousandJobs(thousand), floor]);
  }
  for (const [name, group, base] of groups) {
    log(`${name}: ${runs} rounds of ${group.length + 1} commands, interleaved`);
    const contenders = [base, ...group.map(([c]) => c)];
    const rounds = await interleave(contenders, {
      runs,
      warmup,
      onRound: (done) => done % 10 === 0 && log(`  round ${done}`),
    });
    const spread = floorSpread(rounds, 0);
    const floorFigures = against(rounds, 0, 0);
    spreads.push(
      `${base.label}: median ${ms(floorFigures.wallMs)} ms, p90 ${ms(floorFigures.wallP90Ms)} ms ` +
        `(spread ${spread.toFixed(2)})` +
        (floorFigures.cpuMs !== undefined ? `, CPU ${ms(floorFigures.cpuMs)} ms` : ""),
    );
    verdicts.push(noVerdict(spread, [loadStart[0]], cores));
    group.forEach(([c, target], i) =>
      rows.push({
        job: c.label,
        target,
        ...(c.concurrency ? { rate: true as const } : {}),
        result: against(rounds, i + 1, 0),
      })
    );
  }
} catch (error) {
  failure = error;
} finally {
  await world.exec(mcpx("stop"), env, 30_000, true);
  await world.cleanup();
}

const loadEnd = Deno.loadavg();
const withheld = verdicts.find((v) => v !== undefined);
const cell = (r: Row) => {
  if (!r.result) return ["—", "—", "—", "—", "not measured"];
  const { wallMs, wallP90Ms, cpuMs, wallRatio, cpuRatio } = r.result;
  // A rate row is met when the job's rate (1 / its wall ratio) reaches the target.
  const score = r.rate ? 1 / wallRatio : wallRatio;
  const met = r.rate ? score >= r.target : score <= r.target;
  const verdict = withheld
    ? "no verdict"
    : met
    ? "met"
    : `missed by ${(Math.abs(score / r.target - 1) * 100).toFixed(0)}%`;
  return [
    `${ms(wallMs)} (${ms(wallP90Ms)})`,
    `${wallRatio.toFixed(2)}×${r.rate ? ` (rate ${score.toFixed(2)}×)` : ""}`,
    cpuMs === undefined ? "—" : ms(cpuMs),
    cpuRatio === undefined ? "—" : `${cpuRatio.toFixed(2)}×`,
    verdict,
  ];
};
const table = markdownTable(
  ["job", "target", "wall ms (p90)", "wall × floor", "CPU ms", "CPU × floor", "verdict"],
  [
    ...rows.map((r) => [
      r.job,
      r.rate ? `rate ≥ ${r.target}× the floor's` : `≤ ${r.target}×`,
      ...cell(r),
    ]),
    ...ELSEWHERE.map((
      [j, target, where],
    ) => [j, target, "—", "—", "—", "—", where.startsWith("`") ? `near: ${where}` : where]),
  ],
);
const meta = await machineAndCommit(loadStart, loadEnd, undefined);
const report = [
  "# mcpx against its floor (issue 26's targets)",
  "",
  `mcpx ${meta.mcpx.commit?.slice(0, 7) ?? "?"}${
    meta.mcpx.dirty ? " (uncommitted changes)" : ""
  }, ` +
  `deno ${meta.machine.deno}, ${meta.machine.os}, ${meta.machine.cpus} CPUs.`,
  "",
  table,
  "",
  "Each group ran interleaved with its floor, round after round " +
  `(${runs} timed rounds after ${warmup} untimed); a ratio is the median of the rounds' ratios. ` +
  "CPU is the user + system time of the measured process alone (getrusage of the bench's children).",
  "",
  "Floors:",
  ...spreads.map((s) => `- ${s}`),
  "",
  `- ${loadNote(loadStart, loadEnd)}`,
  ...(withheld ? [`- No verdict: ${withheld}.`] : []),
  ...(failure ? [`- Stopped: ${(failure as Error).message}`] : []),
].join("\n");
console.log(report);
const path = await writeResults("targets", report, { ...meta, runs, warmup, rows, spreads });
log(`results: ${path}`);
if (failure) Deno.exit(failure instanceof RunFailed ? 1 : 2);
