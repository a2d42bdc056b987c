/**
 * `deno task bench:throughput`: calls per second from 8 concurrent
 * `mcpx call everything.echo` processes against a warm daemon (issue 11's
 * 8-caller row), next to the floor (8 concurrent empty `deno run`s: the most
 * processes per second this machine starts) and the peer (8 concurrent
 * `mcporter call everything.echo` against its keep-alive daemon), in one run.
 * Bounded in count (`--calls`) and time (`--limit`); loopback only (npm
 * offline, unix sockets, stdio pipes). See bench/README.md, "Throughput".
 *
 * Flags: --calls N, --peer-calls N, --concurrency N, --limit S, --quick,
 * --skip-peer, --keep-node-ca-certs, --help.
 *
 * @module
 */

import { parseArgs } from "node:util";
import { markdownTable, ms, summarize, type Summary } from "./stats.ts";
import { choosePeer, enginesNote, type Peer } from "./peer.ts";
import { counter, helpAndExit, log } from "./_cli.ts";
import { ROOT } from "./_paths.ts";
import { loadNote, machineAndCommit, reportTail, type Target, writeResults } from "./_report.ts";
import {
  CALL_ARGS,
  createWorld,
  failed,
  mcpx,
  SERVER_PACKAGE,
  timedOutput,
  WORLD_FLAGS,
} from "./_world.ts";

/** Issue 11's target for 8 concurrent `mcpx call` processes, in calls/s. */
const TARGET_CALLS_PER_S = 60;
/** The most one process may take before it counts as failed, in ms. */
const PROCESS_TIMEOUT_MS = 60_000;

const USAGE = `usage: deno task bench:throughput [--calls N] [--peer-calls N] [--concurrency N]
                                  [--limit S] [--quick] [--skip-peer] [--keep-node-ca-certs]

  --calls N             processes per side, mcpx and the floors (default 200)
  --peer-calls N        processes for the peer (default: --calls)
  --concurrency N       processes running at once (default 8)
  --limit S             seconds a side may start processes for; those running finish
                        (default 120)
  --quick               --calls 48 --limit 60
  --skip-peer           measure mcpx and the floors only
  --keep-node-ca-certs  leave NODE_EXTRA_CA_CERTS set for node (see bench/README.md)
`;

// ---------------------------------------------------------------- options

const { values: flags } = parseArgs({
  args: Deno.args,
  options: {
    help: WORLD_FLAGS.help,
    quick: WORLD_FLAGS.quick,
    "skip-peer": WORLD_FLAGS["skip-peer"],
    "keep-node-ca-certs": WORLD_FLAGS["keep-node-ca-certs"],
    calls: { type: "string" },
    "peer-calls": { type: "string" },
    concurrency: { type: "string" },
    limit: { type: "string" },
  },
});
helpAndExit(flags.help, USAGE);
const count = counter(USAGE);
const calls = count("calls", flags.calls, flags.quick ? 48 : 200);
const peerCalls = count("peer-calls", flags["peer-calls"], calls);
const concurrency = count("concurrency", flags.concurrency, 8);
const limitMs = count("limit", flags.limit, flags.quick ? 60 : 120) * 1000;

const started = performance.now();
const loadStart = Deno.loadavg();

// ---------------------------------------------------------------- the world

const world = await createWorld({
  prefix: "mcpx-bench-throughput-",
  keepNodeCaCerts: flags["keep-node-ca-certs"],
});
const { tmp, env, keepAliveEnv, exec, mcporter, show } = world;
await Deno.writeTextFile(`${tmp}/empty.ts`, "");
await Deno.writeTextFile(`${tmp}/empty.mjs`, "");
let peer: Peer | undefined;

// ---------------------------------------------------------------- bursts

/** One side: `concurrency` workers running `argv` one process after another. */
interface Burst {
  id: string;
  label: string;
  argv: string[];
  env: Record<string, string>;
  /** What a correct run prints on stdout. */
  expect?: RegExp;
  /** Processes asked for. */
  asked: number;
  ok: number;
  failed: number;
  /** From the first start to the last exit, in ms. */
  wallMs: number;
  /** Each successful process, spawn to exit, in ms. */
  timesMs: number[];
  /** Set once run. */
  summary?: Summary;
  /** The first few failures. */
  errors: string[];
  /** Stopped starting processes at `--limit` before reaching `asked`. */
  hitLimit: boolean;
  /** Why it was not measured. */
  skipped?: string;
}

const burst = (
  id: string,
  label: string,
  argv: string[],
  e: Record<string, string>,
  asked: number,
  expect?: RegExp,
): Burst => ({
  id,
  label,
  argv,
  env: e,
  expect,
  asked,
  ok: 0,
  failed: 0,
  wallMs: 0,
  timesMs: [],
  errors: [],
  hitLimit: false,
});

/** Runs `b.argv` once; the error, or undefined when it exited 0 printing `b.expect`. */
async function once(b: Burst): Promise<{ ms: number; error?: string }> {
  try {
    const { out, ms } = await timedOutput(b.argv, b.env, tmp, PROCESS_TIMEOUT_MS);
    const stdout = new TextDecoder().decode(out.stdout);
    if (out.code !== 0) {
      return {
        ms,
        error: failed({ code: out.code, stdout, stderr: new TextDecoder().decode(out.stderr) }),
      };
    }
    if (b.expect && !b.expect.test(stdout)) {
      return { ms, error: `unexpected output: ${stdout.trim().slice(0, 120)}` };
    }
    return { ms };
  } catch (error) {
    return { ms: NaN, error: String(error) };
  }
}

/**
 * One untimed wave of `concurrency` processes (each must succeed), then
 * `concurrency` workers that each start the next process as theirs exits,
 * until `b.asked` have started or `--limit` has passed.
 */
async function run(b: Burst): Promise<void> {
  log(`${b.label}: ${b.asked} processes, ${concurrency} at a time`);
  const warm = await Promise.all(Array.from({ length: concurrency }, () => once(b)));
  const bad = warm.find((w) => w.error);
  if (bad) {
    b.skipped = `warm-up wave failed: ${bad.error}`;
    log(`  ${b.skipped}`);
    return;
  }
  let started = 0;
  const t0 = performance.now();
  const deadline = t0 + limitMs;
  const worker = async () => {
    while (started < b.asked && !world.interrupted) {
      if (performance.now() >= deadline) {
        b.hitLimit = true;
        return;
      }
      started++;
      const r = await once(b);
      if (r.error) {
        b.failed++;
        if (b.errors.length < 3) b.errors.push(r.error);
      } else {
        b.ok++;
        b.timesMs.push(r.ms);
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  b.wallMs = performance.now() - t0;
  b.summary = b.timesMs.length ? summarize(b.timesMs) : undefined;
  log(
    `  ${b.ok}/${b.asked} ok in ${(b.wallMs / 1000).toFixed(1)} s: ${perSecond(b).toFixed(1)}/s; ` +
      `one process median ${ms(b.summary?.median ?? NaN)} ms`,
  );
}

/** Successful processes per second of wall time (NaN when not run). */
const perSecond = (b: Burst): number => b.wallMs > 0 ? b.ok / (b.wallMs / 1000) : NaN;

const floorDeno = burst(
  "floor-deno",
  "floor: deno run -A --config deno.json empty.ts",
  [Deno.execPath(), "run", "-A", "--config", `${ROOT}deno.json`, `${tmp}/empty.ts`],
  env,
  calls,
);
const floorNode = burst(
  "floor-node",
  "peer's floor: node empty.mjs",
  [
    "node",
    `${tmp}/empty.mjs`,
  ],
  env,
  calls,
);
const mcpxCall = burst(
  "mcpx",
  "mcpx call everything.echo (daemon warm)",
  mcpx("call", "everything.echo", CALL_ARGS),
  env,
  calls,
  /Echo: hi/,
);
let peerCall: Burst | undefined;

// ---------------------------------------------------------------- run

const notes: string[] = [];
let failure: unknown;
let peerProblem: string | undefined;

try {
  log(
    `${calls} calls per side (peer ${peerCalls}), ${concurrency} at a time, at most ` +
      `${limitMs / 1000} s of starts per side; temp folder ${tmp}`,
  );
  ({ peer, problem: peerProblem } = await choosePeer(flags["skip-peer"], {
    logUnavailable: true,
  }));
  if (peer) {
    world.peer = peer;
    floorNode.argv[0] = peer.node; // the node the peer runs on (bench/peer.ts)
    const note = enginesNote(peer, "Every call's output was checked.");
    if (note) notes.push(note);
  }
  await world.prime();

  await run(floorDeno);
  const warm = await exec(mcpx("call", "everything.echo", CALL_ARGS), env, 120_000);
  if (warm.code !== 0) throw new Error(`could not warm the mcpx daemon: ${failed(warm)}`);
  await run(mcpxCall);
  await exec(mcpx("stop"), env, 30_000);

  if (peer) {
    await run(floorNode);
    peerCall = burst(
      "peer",
      "mcporter call everything.echo (keep-alive daemon)",
      mcporter("call", "everything.echo", "message=hi"),
      keepAliveEnv,
      peerCalls,
      /Echo: hi/,
    );
    const why = await world.withPeerDaemon(() => run(peerCall!));
    if (why) peerCall.skipped = why;
  }
} catch (error) {
  failure = error;
} finally {
  await world.close();
}
if (world.interrupted) Deno.exit(130);

// ---------------------------------------------------------------- report

const bursts = [floorDeno, mcpxCall, ...(peer ? [floorNode] : []), ...(peerCall ? [peerCall] : [])];
const rate = (b?: Burst) => b && !b.skipped && b.wallMs > 0 ? perSecond(b) : undefined;
const times = (x?: number, y?: number) =>
  x === undefined || y === undefined || y === 0 ? "—" : `${(x / y).toFixed(2)}×`;
const table = markdownTable(
  [
    "side",
    "ok / asked",
    "failed",
    "wall s",
    "per s",
    "one process median ms (p90)",
    "÷ deno floor per s",
  ],
  bursts.map((b) => [
    b.label,
    b.skipped ? "not run" : `${b.ok} / ${b.asked}${b.hitLimit ? " (limit)" : ""}`,
    String(b.failed),
    b.skipped ? "—" : (b.wallMs / 1000).toFixed(1),
    rate(b)?.toFixed(1) ?? "—",
    b.summary ? `${ms(b.summary.median)} (${ms(b.summary.p90)})` : "—",
    times(rate(b), rate(floorDeno)),
  ]),
);

const mcpxRate = rate(mcpxCall);
const peerRate = rate(peerCall);
const targets: Target[] = [
  {
    target: `${concurrency} concurrent \`mcpx call\` processes: at least ${TARGET_CALLS_PER_S} ` +
      "calls/s (issue 11)",
    status: mcpxRate === undefined
      ? "n/a"
      : mcpxRate >= TARGET_CALLS_PER_S && mcpxCall.failed === 0
      ? "PASS"
      : "MISS",
    detail: `${mcpxRate?.toFixed(1) ?? "—"} calls/s, ${mcpxCall.failed} failed`,
  },
];
for (const b of bursts) {
  if (b.skipped) notes.push(`${b.label}: not measured — ${b.skipped}`);
  for (const e of b.errors) notes.push(`${b.label}: a process failed — ${e.split("\n")[0]}`);
}
if (peerProblem) notes.unshift(`Peer not measured: ${peerProblem}.`);
if (failure) notes.unshift(`The bench stopped early: ${(failure as Error).message ?? failure}`);
const loadEnd = Deno.loadavg();
notes.push(loadNote(loadStart, loadEnd));
const totalSeconds = (performance.now() - started) / 1000;

const report = [
  `# mcpx bench:throughput — ${new Date().toISOString()}`,
  "",
  table,
  "",
  `${concurrency} processes at a time; per s = successful processes ÷ wall time from the first ` +
  "start to the last exit; one process = spawn to exit, under that load.",
  "",
  `- mcpx ÷ peer, calls/s: ${times(mcpxRate, peerRate)}`,
  `- mcpx ÷ deno floor, per s: ${times(mcpxRate, rate(floorDeno))} (the floor is the most ` +
  "processes per second this machine starts, a process per call)",
  "",
  "## Commands",
  "",
  ...bursts.map((b) =>
    `- ${b.label}: \`${show(b.argv)}\`${
      b.env.MCPORTER_KEEPALIVE ? " (MCPORTER_KEEPALIVE=everything)" : ""
    }`
  ),
  "",
  ...reportTail(targets, notes, totalSeconds),
].join("\n");
console.log(report);

const path = await writeResults("throughput", report + "\n", {
  date: new Date().toISOString(),
  total_seconds: totalSeconds,
  ...await machineAndCommit(loadStart, loadEnd, peer),
  peer: peer
    ? { package: "mcporter", version: peer.version, install: peer.installCommand }
    : { unavailable: peerProblem },
  settings: {
    calls,
    peer_calls: peerCalls,
    concurrency,
    limit_ms: limitMs,
    server: SERVER_PACKAGE,
    node_extra_ca_certs_removed: world.caStripped,
  },
  sides: bursts.map((b) => ({
    id: b.id,
    label: b.label,
    command: show(b.argv),
    asked: b.asked,
    ok: b.ok,
    failed: b.failed,
    hit_limit: b.hitLimit,
    wall_ms: b.wallMs,
    per_second: rate(b) ?? null,
    one_process: b.summary ?? null,
    times_ms: b.timesMs,
    errors: b.errors,
    ...(b.skipped ? { skipped: b.skipped } : {}),
  })),
  mcpx_over_peer: mcpxRate !== undefined && peerRate ? mcpxRate / peerRate : null,
  mcpx_over_floor: mcpxRate !== undefined && rate(floorDeno) ? mcpxRate / rate(floorDeno)! : null,
  targets,
  notes,
  ...(failure ? { failure: String((failure as Error).message ?? failure) } : {}),
});
log(`results: ${path} (and .json)`);
Deno.exit(failure ? 1 : 0);
