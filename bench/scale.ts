/**
 * `deno task bench:scale`: whether a warm command's cost grows with the
 * configuration (issue 11). Warm `ls`, `search echo`, `types everything` and
 * `call everything.echo` with 1, 20 and 100 servers that are one real server
 * under different names, and `search` in one server of 1,000 tools; each row
 * next to the floor (`deno run -A --config deno.json empty.ts`, measured again
 * before each configuration) and the peer (mcporter, keep-alive daemon), in
 * one run. See bench/README.md, "Scale".
 *
 * Flags: --runs N, --slow-runs N, --warmup N, --quick, --skip-peer,
 * --keep-node-ca-certs, --servers L, --tools N, --peer-keepalive-max N, --help.
 *
 * @module
 */

import { parseArgs } from "node:util";
import { detectTimer, type Timer } from "./timer.ts";
import { choosePeer, enginesNote, type Peer } from "./peer.ts";
import { counter, helpAndExit, log } from "./_cli.ts";
import { latencyRows, type Side } from "./_latency_rows.ts";
import { trackProcesses } from "./_processes.ts";
import { loadNote, machineAndCommit, reportTail, writeResults } from "./_report.ts";
import {
  configurationsTable,
  errorNotes,
  type Group,
  groupsJson,
  growthTable,
  JOBS,
  rowsTable,
  scaleTargets,
} from "./_scale_report.ts";
import {
  keepAliveEnv,
  MANY_QUERY,
  manySearch,
  manyToolsConfiguration,
  mcpxDaemon,
  mcpxJobs,
  peerJobs,
  scaleConfiguration,
  stopMcpx,
  warmMcpx,
  withPeerDaemonOn,
} from "./_scale_world.ts";
import { checkOnce, createWorld, mcpx, SERVER_PACKAGE, timed, WORLD_FLAGS } from "./_world.ts";

const USAGE =
  `usage: deno task bench:scale [--runs N] [--slow-runs N] [--warmup N] [--quick] [--skip-peer]
                             [--servers L] [--tools N] [--peer-keepalive-max N]
                             [--keep-node-ca-certs]

  --runs N                 timed runs per command (default 20)
  --slow-runs N            timed runs of the peer's commands (default: the smaller of --runs
                           and 8)
  --warmup N               untimed runs first (default 3; at most 1 for the peer's)
  --quick                  --runs 5 --slow-runs 3 --warmup 1
  --servers L              server counts, comma-separated (default 1,20,100)
  --tools N                tools of the one-server configuration (default 1000; 0 skips it)
  --peer-keepalive-max N   most servers the peer's daemon keeps alive (default 20); above it
                           only \`everything\` is, and the peer's \`list\` row is n/a
  --skip-peer              measure mcpx and the floor only
  --keep-node-ca-certs     leave NODE_EXTRA_CA_CERTS set for node (see bench/README.md)
`;

// ---------------------------------------------------------------- options

const { values: flags } = parseArgs({
  args: Deno.args,
  options: {
    ...WORLD_FLAGS,
    servers: { type: "string" },
    tools: { type: "string" },
    "peer-keepalive-max": { type: "string" },
  },
});
helpAndExit(flags.help, USAGE);
const count = counter(USAGE);
const runs = count("runs", flags.runs, flags.quick ? 5 : 20);
const slowRuns = count("slow-runs", flags["slow-runs"], flags.quick ? 3 : Math.min(runs, 8));
const warmup = count("warmup", flags.warmup, flags.quick ? 1 : 3, 0);
const slowWarmup = Math.min(warmup, 1);
const counts = (flags.servers ?? "1,20,100").split(",").map((s) => count("servers", s, 1));
const toolCount = count("tools", flags.tools, 1000, 0);
const keepMax = count("peer-keepalive-max", flags["peer-keepalive-max"], 20);

const started = performance.now();
const loadStart = Deno.loadavg();

// ---------------------------------------------------------------- the world

const world = await createWorld({
  prefix: "mcpx-bench-scale-",
  keepNodeCaCerts: flags["keep-node-ca-certs"],
});
await Deno.writeTextFile(`${world.tmp}/empty.ts`, "");
const tracker = trackProcesses(world.marker);
/** The floor's argv: `deno run -A --config deno.json empty.ts` (bench/_latency_rows.ts). */
const floorSide = (): Side => ({ ...latencyRows(world).floorDenoConfig.floor! });
const floorArgv = floorSide().argv;
let timer: Timer;
let peer: Peer | undefined;

const groups: Group[] = [];

/**
 * Runs `side` once and checks it, then times it: `--slow-runs` for the peer's
 * sides (`slow`), `--runs` for the rest, whatever the checked run took (a warm
 * mcpx command is never slow by design; on a busy machine it can take 250 ms).
 */
async function measure(name: string, side: Side): Promise<void> {
  const slow = side.slow ?? false;
  const once = await checkOnce(world, name, side.argv, side.env, side.expect);
  if (once.error) {
    side.result = { error: once.error };
    return;
  }
  const r = slow ? slowRuns : runs;
  const w = slow ? slowWarmup : warmup;
  const timing = await timed(world, timer, name, 52, { ...side, runs: r, warmup: w });
  side.result = "error" in timing ? timing : { ...timing, runs: r, warmup: w };
}

/** Sizes of the schema cache indexes (decision 0028), by name. */
function cacheFiles(): Map<string, number> {
  const sizes = new Map<string, number>();
  try {
    for (const e of Deno.readDirSync(`${world.tmp}/cache/mcpx`)) {
      // The index, which ls and search read; each server's file is in the folder beside it.
      if (e.isFile && e.name.startsWith("schemas-")) {
        sizes.set(e.name, Deno.statSync(`${world.tmp}/cache/mcpx/${e.name}`).size);
      }
    }
  } catch { /* none yet */ }
  return sizes;
}

/** Warms `g` (its first `mcpx ls`), then measures the floor and its mcpx rows, then stops it. */
async function measureMcpx(g: Group, minTools: number): Promise<boolean> {
  log(`${g.c.label}: warming (the first mcpx ls lists every server once through the daemon)`);
  const before = cacheFiles();
  const t0 = performance.now();
  g.problem = await warmMcpx(world, g.c, minTools);
  g.warmMs = performance.now() - t0;
  const after = cacheFiles();
  g.cacheBytes = [...after].find(([name, size]) => before.get(name) !== size)?.[1];
  if (!g.problem) {
    g.daemon = await mcpxDaemon(world, g.c);
    log(`  listed in ${(g.warmMs / 1000).toFixed(1)} s; measuring the floor, then mcpx`);
    await measure(`floor (${g.c.label})`, g.floor);
    for (const j of g.jobs) await measure(`mcpx ${j.label} — ${g.c.label}`, j.mcpx);
  } else log(`  ${g.problem}`);
  await stopMcpx(world, g.c);
  await tracker.sweep(`after mcpx stop (${g.c.label})`);
  return !g.problem;
}

// ---------------------------------------------------------------- run

const notes: string[] = [];
let failure: unknown;
let peerProblem: string | undefined;

try {
  timer = await detectTimer();
  log(
    `timer: ${timer.kind === "hyperfine" ? timer.version : "in-process loop"}; runs ${runs} ` +
      `(slow ${slowRuns}), warmup ${warmup} (${slowWarmup}); servers ${counts.join(", ")}; ` +
      `tools ${toolCount}; temp folder ${world.tmp}`,
  );
  ({ peer, problem: peerProblem } = await choosePeer(flags["skip-peer"], {
    logUnavailable: true,
  }));
  if (peer) {
    world.peer = peer;
    const note = enginesNote(peer, "Every output it gave here was checked.");
    if (note) notes.push(note);
  }
  await world.prime();

  for (const n of counts) {
    const c = await scaleConfiguration(world, n);
    const jobs = mcpxJobs(c);
    const g: Group = {
      c,
      servers: n,
      floor: floorSide(),
      jobs: JOBS.map(([id, label]) => ({ id, label, mcpx: jobs[id] })),
    };
    groups.push(g);
    if (!await measureMcpx(g, 1) || !peer) continue;
    const kept = n <= keepMax ? c.names : ["everything"];
    g.kept = kept;
    const peerSides = peerJobs(c, kept, keepAliveEnv(world, kept));
    for (const j of g.jobs) j.peer = peerSides[j.id];
    const why = await withPeerDaemonOn(world, c, kept, tracker, async () => {
      for (const j of g.jobs) {
        if (j.peer && "argv" in j.peer) await measure(`mcporter ${j.label} — ${c.label}`, j.peer);
      }
    });
    if (why) {
      for (const j of g.jobs) if (j.peer && "argv" in j.peer) j.peer.result = { error: why };
    }
  }

  if (toolCount > 0) {
    const c = await manyToolsConfiguration(world, toolCount);
    const g: Group = {
      c,
      servers: 1,
      tools: toolCount,
      floor: floorSide(),
      jobs: [{
        id: "search",
        label: `search ${MANY_QUERY.join(" ")}`,
        mcpx: manySearch(c),
        peer: { na: "mcporter has no search command (closest: read `mcporter list <server>`)" },
      }],
    };
    groups.push(g);
    await measureMcpx(g, toolCount);
  }
} catch (error) {
  failure = error;
} finally {
  await world.exec(mcpx("stop", "--all"), world.env, 30_000, true);
  await tracker.sweep("at the end");
  await world.close();
}
if (world.interrupted) Deno.exit(130);

// ---------------------------------------------------------------- report

notes.push(...errorNotes(groups, world.show));
if (peerProblem) notes.unshift(`Peer not measured: ${peerProblem}.`);
if (failure) notes.unshift(`The bench stopped early: ${(failure as Error).message ?? failure}`);
const loadEnd = Deno.loadavg();
notes.push(loadNote(loadStart, loadEnd));
const totalSeconds = (performance.now() - started) / 1000;
const targets = scaleTargets(groups);
const growth = growthTable(groups);

const report = [
  `# mcpx bench:scale — ${new Date().toISOString()}`,
  "",
  rowsTable(groups),
  "",
  "Medians (p90) in ms; ratios use medians; each configuration's floor is " +
  "`deno run -A --config deno.json empty.ts`, measured right before its rows.",
  ...(growth ? ["", "## Growth with the server count", "", growth] : []),
  "",
  "## The configurations",
  "",
  configurationsTable(groups),
  "",
  "## Commands",
  "",
  `- floor: \`${world.show(floorArgv)}\`, measured again before each configuration`,
  `- mcpx: \`${world.show(mcpx("ls"))}\` and the others with ` +
  "`MCPX_CONFIG=$TMP/<configuration>.json`, its daemon warm (its first `ls` listed every server)",
  ...(peer
    ? [
      "- peer: `node bench/.peer/node_modules/mcporter/dist/cli.js --config " +
      "$TMP/<configuration>.json list` (and `list everything --all-parameters`, " +
      "`call everything.echo message=hi`), its keep-alive daemon holding as many servers as the " +
      "table says (`MCPORTER_KEEPALIVE`), each called once first",
    ]
    : []),
  `- \`servers-N.json\`: N entries of \`npx -y ${SERVER_PACKAGE} stdio\` named everything, ` +
  "everything_2, …; `tools-N.json`: one entry, bench/_many_tools_server.ts `--tools N`",
  "",
  ...reportTail(targets, notes, totalSeconds, "## Targets (issue 11)"),
].join("\n");
console.log(report);

const path = await writeResults("scale", report + "\n", {
  date: new Date().toISOString(),
  total_seconds: totalSeconds,
  ...await machineAndCommit(loadStart, loadEnd, peer),
  peer: peer
    ? { package: "mcporter", version: peer.version, install: peer.installCommand }
    : { unavailable: peerProblem },
  settings: {
    timer: timer!.kind === "hyperfine" ? timer!.version : "loop",
    runs,
    slow_runs: slowRuns,
    warmup,
    slow_warmup: slowWarmup,
    servers: counts,
    tools: toolCount,
    peer_keepalive_max: keepMax,
    server: SERVER_PACKAGE,
    node_extra_ca_certs_removed: world.caStripped,
  },
  configurations: groupsJson(groups, world.show),
  targets,
  notes,
  ...(failure ? { failure: String((failure as Error).message ?? failure) } : {}),
});
log(`results: ${path} (and .json)`);
Deno.exit(failure ? 1 : 0);
