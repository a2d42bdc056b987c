/**
 * `deno task bench:latency`: mcpx's per-command latency against the empty-file floor
 * of its runtime and against a peer CLI (mcporter), side by side in one run.
 * See bench/README.md for what is measured and how to read it.
 *
 * Flags: --runs N, --slow-runs N, --warmup N, --quick, --skip-peer,
 * --keep-node-ca-certs, --help.
 *
 * @module
 */

import { parseArgs } from "node:util";
import { markdownTable, ms, ratio, type Summary } from "./stats.ts";
import { detectTimer, type Timer } from "./timer.ts";
import { choosePeer, enginesNote, type Peer } from "./peer.ts";
import { counter, helpAndExit, log } from "./_cli.ts";
import { latencyRows, LS_OK, type Side } from "./_latency_rows.ts";
import { RESULTS } from "./_paths.ts";
import { loadNote, machineAndCommit, type Target } from "./_report.ts";
import {
  CALL_ARGS,
  checkOnce,
  createWorld,
  mcpx,
  SERVER_PACKAGE,
  timed,
  WORLD_FLAGS,
} from "./_world.ts";

/** A command whose checked run takes longer than this gets --slow-runs. */
const SLOW_MS = 250;

const USAGE =
  `usage: deno task bench:latency [--runs N] [--slow-runs N] [--warmup N] [--quick] [--skip-peer]
                               [--keep-node-ca-certs]

  --runs N              timed runs per command (default 20)
  --slow-runs N         timed runs for slow commands (over 250 ms: the peer's, and any that
                        start an MCP server every run); default: the smaller of --runs and 8
  --warmup N            untimed runs first (default 3; at most 1 for slow commands)
  --quick               --runs 5 --slow-runs 3 --warmup 1
  --skip-peer           measure mcpx and the floor only
  --keep-node-ca-certs  leave NODE_EXTRA_CA_CERTS set for node (by default it is removed
                        from the measured environment; see bench/README.md)
`;

// ---------------------------------------------------------------- options

const { values: flags } = parseArgs({
  args: Deno.args,
  options: WORLD_FLAGS,
});
helpAndExit(flags.help, USAGE);
const count = counter(USAGE);
const runs = count("runs", flags.runs, flags.quick ? 5 : 20);
const slowRuns = count("slow-runs", flags["slow-runs"], flags.quick ? 3 : Math.min(runs, 8));
const warmup = count("warmup", flags.warmup, flags.quick ? 1 : 3, 0);
const slowWarmup = Math.min(warmup, 1);

const started = performance.now();
const loadStart = Deno.loadavg();

// ---------------------------------------------------------------- the world

const world = await createWorld({
  prefix: "mcpx-bench-",
  keepNodeCaCerts: flags["keep-node-ca-certs"],
});
const { tmp, env, keepAliveEnv, caStripped, exec, mcporter, show } = world;
await Deno.writeTextFile(`${tmp}/empty.ts`, "");
await Deno.writeTextFile(`${tmp}/empty.mjs`, "");
let peer: Peer | undefined;

// ---------------------------------------------------------------- measuring

let timer: Timer;

async function measure(name: string, side: Side): Promise<void> {
  let slow = side.slow ?? false;
  if (side.expect || side.prepare) {
    if (side.prepare) await exec(side.prepare, side.env);
    const once = await checkOnce(world, name, side.argv, side.env, side.expect);
    if (once.ms > SLOW_MS) slow = true;
    if (once.error) {
      side.result = { error: once.error };
      return;
    }
  }
  const r = slow ? slowRuns : runs;
  const w = slow ? slowWarmup : warmup;
  const timing = await timed(world, timer, name, 44, { ...side, runs: r, warmup: w });
  side.result = "error" in timing ? timing : { ...timing, runs: r, warmup: w };
}

function daemonRecords(): string[] {
  try {
    return [...Deno.readDirSync(`${tmp}/state/mcpx/daemons`)]
      .filter((e) => e.name.endsWith(".json"))
      .map((e) => e.name);
  } catch {
    return [];
  }
}

// ---------------------------------------------------------------- rows

const rows = latencyRows(world);
const { floorDeno, floorDenoConfig, startup, floorNode, floorNodeCa, jobs, job, peerSide } = rows;

// ---------------------------------------------------------------- run

const notes: string[] = [];
let failure: unknown;
let peerProblem: string | undefined;

try {
  timer = await detectTimer();
  if (timer.kind === "loop") {
    log(
      "hyperfine not found (`apt-get install hyperfine` for the preferred timer); " +
        "timing with performance.now() around Deno.Command(...).output() instead",
    );
  }
  log(
    `timer: ${timer.kind === "hyperfine" ? timer.version : "in-process loop"}; ` +
      `runs ${runs} (slow commands ${slowRuns}), warmup ${warmup} (${slowWarmup}); ` +
      `temp folder ${tmp}`,
  );

  ({ peer, problem: peerProblem } = await choosePeer(flags["skip-peer"], {
    logUnavailable: true,
  }));
  if (peer) {
    world.peer = peer;
    rows.fillPeer();
    const note = enginesNote(
      peer,
      "It ran every measured job correctly here (outputs are checked).",
    );
    if (note) notes.push(note);
  }
  if (caStripped) {
    notes.push(
      "NODE_EXTRA_CA_CERTS is set on this machine; it was removed from the measured environment " +
        "(node parses the bundle at every start; deno ignores it). Compare the two node floor " +
        "rows for its cost; --keep-node-ca-certs keeps it.",
    );
  }

  await world.prime();

  log("setup: first mcpx ls lists the server through a new daemon and fills the schema cache");
  const first = await exec(mcpx("ls"), env, 120_000);
  if (first.code !== 0 || !LS_OK.test(first.stdout)) {
    throw new Error(`mcpx ls failed:\n${first.stdout}${first.stderr}`);
  }

  log("floors");
  await measure("deno run -A empty.ts", floorDeno.floor!);
  await measure("deno run -A --config deno.json empty.ts", floorDenoConfig.floor!);
  await measure("mcpx --version", startup.mcpx!);
  await measure("node empty.mjs", floorNode.peer as Side);
  if (floorNodeCa) await measure("node empty.mjs (NODE_EXTRA_CA_CERTS)", floorNodeCa.peer as Side);

  log("mcpx, daemon warm");
  const warm = await exec(mcpx("call", "everything.echo", CALL_ARGS), env, 120_000);
  if (warm.code !== 0 || daemonRecords().length === 0) {
    throw new Error(`could not warm the mcpx daemon: ${warm.stderr.trim()}`);
  }
  for (const id of ["ls-warm", "search-warm", "types-warm", "call-warm"]) {
    await measure(`mcpx ${job(id).label}`, job(id).mcpx!);
  }

  log("mcpx, no daemon (schema cache warm)");
  await exec(mcpx("stop"), env, 30_000);
  if (daemonRecords().length) throw new Error("mcpx stop left a daemon record behind");
  for (const id of ["ls-none", "search-none", "types-none"]) {
    await measure(`mcpx ${job(id).label}`, job(id).mcpx!);
  }
  if (daemonRecords().length) {
    notes.push("A daemon record appeared during the no-daemon runs: discovery started a daemon.");
  }
  await measure(`mcpx ${job("call-cold").label}`, job("call-cold").mcpx!);
  await exec(mcpx("stop"), env, 30_000);

  if (peer) {
    log("mcporter, no daemon (every run starts the server)");
    await exec(mcporter("daemon", "stop"), keepAliveEnv, 30_000);
    for (const id of ["ls-none", "types-none", "call-cold"]) {
      await measure(`mcporter ${job(id).label}`, peerSide(id));
    }

    const warmIds = ["ls-warm", "types-warm", "call-warm"];
    const why = await world.withPeerDaemon(async () => {
      for (const id of warmIds) await measure(`mcporter ${job(id).label}`, peerSide(id));
    });
    if (why) { for (const id of warmIds) peerSide(id).result = { error: why }; }
  }
} catch (error) {
  failure = error;
} finally {
  await world.close();
}
if (world.interrupted) Deno.exit(130);

// ---------------------------------------------------------------- report

type Measured = { summary: Summary; timesMs: number[]; runs: number; warmup: number };
const measured = (s: Side | { na: string } | undefined): Measured | undefined =>
  s && "argv" in s && s.result && "summary" in s.result ? s.result : undefined;
const cell = (s: Side | { na: string } | undefined): string => {
  if (!s) return "—";
  if ("na" in s) return "n/a";
  if (!s.result) return "not run";
  if ("error" in s.result) return "error";
  return `${ms(s.result.summary.median)} (${ms(s.result.summary.p90)})`;
};

const floorMs = measured(floorDenoConfig.floor)?.summary.median;
const header = [
  "job",
  "mcpx median ms (p90)",
  "peer median ms (p90)",
  "floor median ms",
  "mcpx/floor",
  "mcpx/peer",
];
const floorRows = rows.floors;
const tableRows: string[][] = [
  ...floorRows.map((r) => [
    r.label,
    r.mcpx ? cell(r.mcpx) : "—",
    r.peer ? cell(r.peer) : "—",
    r.floor ? cell(r.floor) : r.mcpx ? ms(floorMs ?? NaN) : "—",
    r.mcpx ? ratio(measured(r.mcpx)?.summary.median, floorMs) : "—",
    "—",
  ]),
  ...jobs.map((r) => {
    const m = measured(r.mcpx)?.summary.median;
    const p = measured(r.peer)?.summary.median;
    return [
      r.label,
      cell(r.mcpx),
      cell(r.peer),
      ms(floorMs ?? NaN),
      ratio(m, floorMs),
      ratio(m, p),
    ];
  }),
];

const targets: Target[] = [];
// Issue 11's limit for the warm commands (issue 2's was 2×).
const WARM_LIMIT = 1.6;
for (const r of jobs.filter((r) => r.id.endsWith("-warm"))) {
  const m = measured(r.mcpx)?.summary.median;
  targets.push({
    target: `${r.label} within ${WARM_LIMIT}× of the empty-file floor`,
    status: m === undefined || floorMs === undefined
      ? "n/a"
      : m <= WARM_LIMIT * floorMs
      ? "PASS"
      : "MISS",
    detail: `${ms(m ?? NaN)} ms vs ${WARM_LIMIT} × ${ms(floorMs ?? NaN)} ms = ${
      ms((floorMs ?? NaN) * WARM_LIMIT)
    } ms`,
  });
}
for (const r of jobs) {
  const m = measured(r.mcpx)?.summary.median;
  const p = measured(r.peer)?.summary.median;
  targets.push({
    target: `faster than the peer: ${r.label}`,
    status: m === undefined || p === undefined ? "n/a" : m < p ? "PASS" : "MISS",
    detail: r.peer && "na" in r.peer
      ? r.peer.na
      : m === undefined || p === undefined
      ? "not measured on both sides"
      : `${ms(m)} ms vs ${ms(p)} ms`,
  });
}
const versus = targets.filter((t) => t.target.startsWith("faster") && t.status !== "n/a");
const overall: Target = {
  target: "faster than the peer on every job (with a peer equivalent)",
  status: versus.length === 0 ? "n/a" : versus.every((t) => t.status === "PASS") ? "PASS" : "MISS",
  detail: `${versus.filter((t) => t.status === "PASS").length}/${versus.length} jobs`,
};

const warmLs = measured(job("ls-warm").mcpx)?.summary.median;
const coldLs = measured(job("ls-none").mcpx)?.summary.median;
if (warmLs !== undefined && coldLs !== undefined) {
  notes.push(
    `mcpx ls: ${ms(warmLs)} ms with a daemon running, ${ms(coldLs)} ms without; with one it ` +
      "also asks the daemon for live counts, without one the socket connect fails at once.",
  );
}
const loadEnd = Deno.loadavg();
notes.push(loadNote(loadStart, loadEnd));
const totalSeconds = (performance.now() - started) / 1000;

const out: string[] = [];
out.push(
  `# mcpx bench — ${new Date().toISOString()}`,
  "",
  markdownTable(header, tableRows),
  "",
  "Medians (p90) in ms over the runs listed in bench/results/latest.json; ratios use medians; " +
    "the floor is `deno run -A --config deno.json empty.ts`, which is how mcpx itself starts.",
  "",
  "## Commands",
  "",
);
const commands = new Map<string, string[]>();
for (const r of [...floorRows, ...jobs]) {
  for (const [who, s] of [["mcpx", r.mcpx], ["peer", r.peer], ["floor", r.floor]] as const) {
    if (!s) continue;
    const line = "na" in s ? `n/a — ${s.na}` : s.argv.length ? `\`${show(s.argv)}\`` : "not run";
    const extra = "argv" in s
      ? [
        s.env.MCPORTER_KEEPALIVE ? "env MCPORTER_KEEPALIVE=everything" : "",
        caStripped && s.env.NODE_EXTRA_CA_CERTS ? "env NODE_EXTRA_CA_CERTS as set" : "",
        s.prepare ? `before each run: \`${show(s.prepare)}\`` : "",
      ].filter(Boolean)
      : [];
    const key = `${who}: ${line}${extra.length ? ` (${extra.join("; ")})` : ""}`;
    commands.set(key, [...(commands.get(key) ?? []), r.label.replace(/ \(ratio base\)$/, "")]);
    if ("argv" in s && s.result && "error" in s.result) {
      notes.push(`${r.label}, ${who}: ERROR ${s.result.error.split("\n")[0]}`);
    }
  }
}
for (const [key, labels] of commands) out.push(`- ${key} — ${labels.join("; ")}`);
out.push("", "## Targets", "");
for (const t of [...targets, overall]) out.push(`- ${t.status} — ${t.target}: ${t.detail}`);
if (peerProblem) notes.unshift(`Peer not measured: ${peerProblem}.`);
if (failure) notes.unshift(`The bench stopped early: ${(failure as Error).message ?? failure}`);
if (notes.length) out.push("", "## Notes", "", ...notes.map((n) => `- ${n}`));
out.push("", `Total bench time: ${totalSeconds.toFixed(1)} s.`);
console.log(out.join("\n"));

const sideJson = (s: Side | { na: string } | undefined) => {
  if (!s) return undefined;
  if ("na" in s) return { na: s.na };
  const m = measured(s);
  return {
    command: show(s.argv),
    ...(s.prepare ? { prepare: show(s.prepare) } : {}),
    ...(s.env.MCPORTER_KEEPALIVE ? { env: { MCPORTER_KEEPALIVE: s.env.MCPORTER_KEEPALIVE } } : {}),
    ...(m
      ? {
        median_ms: m.summary.median,
        p90_ms: m.summary.p90,
        mean_ms: m.summary.mean,
        min_ms: m.summary.min,
        max_ms: m.summary.max,
        runs: m.runs,
        warmup: m.warmup,
        times_ms: m.timesMs,
      }
      : { error: s.result && "error" in s.result ? s.result.error : "not run" }),
  };
};
const report = {
  date: new Date().toISOString(),
  total_seconds: totalSeconds,
  ...await machineAndCommit(loadStart, loadEnd, peer),
  peer: peer
    ? {
      package: "mcporter",
      version: peer.version,
      install: peer.installCommand,
      engines: peer.engines,
    }
    : { unavailable: peerProblem },
  settings: {
    timer: timer!.kind === "hyperfine" ? timer!.version : "loop",
    runs,
    slow_runs: slowRuns,
    warmup,
    slow_warmup: slowWarmup,
    server: SERVER_PACKAGE,
    node_extra_ca_certs_removed: caStripped,
  },
  floor_ms: floorMs,
  floors: Object.fromEntries(
    floorRows.map((r) => [r.id, sideJson(r.floor ?? r.mcpx ?? r.peer)]),
  ),
  jobs: jobs.map((r) => ({
    id: r.id,
    label: r.label,
    mcpx: sideJson(r.mcpx),
    peer: sideJson(r.peer),
    mcpx_over_floor: ratioNumber(measured(r.mcpx)?.summary.median, floorMs),
    mcpx_over_peer: ratioNumber(
      measured(r.mcpx)?.summary.median,
      measured(r.peer)?.summary.median,
    ),
  })),
  targets: [...targets, overall],
  notes,
  ...(failure ? { failure: String((failure as Error).message ?? failure) } : {}),
};
function ratioNumber(a?: number, b?: number): number | null {
  return a === undefined || b === undefined || b === 0 ? null : a / b;
}
await Deno.mkdir(RESULTS, { recursive: true });
await Deno.writeTextFile(`${RESULTS}latest.json`, JSON.stringify(report, null, 2) + "\n");
log(`results: ${RESULTS}latest.json`);
Deno.exit(failure ? 1 : 0);
