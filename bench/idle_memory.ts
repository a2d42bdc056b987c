/**
 * Memory of a daemon holding 20 idle instances (issue 4, "Tests and
 * measurements"), side by side with the peer (mcporter's keep-alive daemon)
 * holding the same 20 idle server processes.
 *
 * Both sides run the same server command, the stateful fixture
 * (`deno run -A --config deno.json tests/fixtures/servers/stateful.ts`), 20
 * times, each process warmed by one `whoami` call and then left idle:
 *
 * - mcpx: one server scoped by session (`scope: "session"`), called under 20
 *   session keys (`--mcpx-layout servers` gives 20 entries instead, as the
 *   peer has);
 * - mcporter 0.12.3: 20 entries `state0` … `state19` of that command, all
 *   kept alive (`MCPORTER_KEEPALIVE=state0,…`), its daemon started with
 *   `mcporter daemon start` and each entry called once with `mcporter call`.
 *
 * For each side it reports, in MiB, RSS and PSS (proportional set size:
 * shared pages divided among the processes sharing them, so the sum over
 * processes is what the machine actually spends) of the manager process (the
 * daemon) and of the 20 server process trees (every descendant of the
 * daemon), medians over every sample of every round, and mcpx/peer ratios.
 * The sides run one after the other, never together, so their servers share
 * no pages with each other.
 *
 * Usage: `deno run -A bench/idle_memory.ts [--instances 20] [--rounds 3]
 * [--samples 3] [--interval 1000] [--mcpx-layout sessions|servers]
 * [--skip-peer] [--json]`. See bench/README.md, "Idle memory".
 *
 * @module
 */

import { parseArgs } from "node:util";
import { requestDaemon } from "../wire/daemon_request.ts";
import { choosePeer, enginesNote, type Peer } from "./peer.ts";
import { markdownTable, median, ratio } from "./stats.ts";
import { counter, helpAndExit, log } from "./_cli.ts";
import { add, type Mem, memoryKiB, ZERO } from "./_memory.ts";
import { ROOT } from "./_paths.ts";
import { MARKER_VAR, onInterrupt, serverTrees, sleep, trackProcesses } from "./_processes.ts";
import { mcpx as mcpxArgv, output, strippedEnv, xdgHomes } from "./_world.ts";

const USAGE = `usage: deno run -A bench/idle_memory.ts [options]

  --instances N          idle server processes per side (default 20)
  --rounds N             full setups per side, sides alternating (default 3)
  --samples N            memory samples per round once idle (default 3)
  --interval MS          between samples (default 1000)
  --settle MS            idle time after the last call before the first sample
                         (default 2000; V8 and Node shrink an idle heap some 30 s
                         after the last work, so 40000 measures a settled daemon)
  --mcpx-layout L        sessions (default: one server, N session keys) or
                         servers (N entries, as the peer is configured)
  --skip-peer            mcpx only (no node/npm needed)
  --json                 print the result as JSON
`;
const { values } = parseArgs({
  args: Deno.args,
  options: {
    instances: { type: "string" },
    rounds: { type: "string" },
    samples: { type: "string" },
    interval: { type: "string" },
    settle: { type: "string" },
    "mcpx-layout": { type: "string", default: "sessions" },
    "skip-peer": { type: "boolean" },
    json: { type: "boolean" },
    help: { type: "boolean", short: "h" },
  },
});
helpAndExit(values.help, USAGE);
const int = counter(USAGE);
const count = int("instances", values.instances, 20);
const rounds = int("rounds", values.rounds, 3);
const samples = int("samples", values.samples, 3);
const interval = int("interval", values.interval, 1000, 0);
const settle = int("settle", values.settle, 2000, 0);
const layout = values["mcpx-layout"];
if (layout !== "sessions" && layout !== "servers") {
  console.error(`error: --mcpx-layout is sessions or servers, got "${layout}"\n\n${USAGE}`);
  Deno.exit(2);
}
const tmp = await Deno.makeTempDir({ prefix: "mcpx-bench-memory-" });
const marker = crypto.randomUUID();
const SERVER = {
  command: Deno.execPath(),
  args: ["run", "-A", "--config", `${ROOT}deno.json`, `${ROOT}tests/fixtures/servers/stateful.ts`],
};
const names = Array.from({ length: count }, (_, i) => `state${i}`);
/**
 * Entry i of a config with one entry per server. mcpx runs identical entries
 * (same command, arguments and environment) as one shared process, so each
 * entry gets its own `BENCH_INSTANCE`; mcporter's config gets the same.
 */
const entry = (i: number) => ({ ...SERVER, env: { BENCH_INSTANCE: String(i) } });

/** The caller's environment without mcpx's or mcporter's own variables, and the run marker. */
const base = { ...strippedEnv(), [MARKER_VAR]: marker }; // inherited by both daemons; see sweep()

/** Every process this run started: the marked ones and those seen under a daemon. */
const { remember, sweep } = trackProcesses(marker);

// ---------------------------------------------------------------- commands

async function run(
  argv: string[],
  env: Record<string, string>,
  cwd: string,
): Promise<{ ok: boolean; stdout: string; stderr: string }> {
  const out = await output(argv, env, cwd, 120_000);
  return { ok: out.code === 0, stdout: out.stdout, stderr: out.stderr };
}

// ---------------------------------------------------------------- one side

/** One memory sample of a manager and its server trees, in KiB. */
interface Sample {
  manager: Mem;
  servers: Mem;
  trees: number;
  processes: number;
}
function sample(manager: number): Sample {
  const trees = serverTrees(manager);
  remember(trees.flat());
  return {
    manager: memoryKiB(manager),
    servers: trees.flat().map(memoryKiB).reduce(add, ZERO),
    trees: trees.length,
    processes: trees.flat().length,
  };
}

/** What one round of one side measured. */
interface Round {
  /** The manager right after its first server was warmed. */
  firstOnly: Mem;
  samples: Sample[];
  /** Anything that went differently from the plan (e.g. fewer servers held). */
  problems: string[];
}

async function idleSamples(manager: number): Promise<Sample[]> {
  await sleep(settle); // let them settle idle
  const out: Sample[] = [];
  for (let i = 0; i < samples; i++) {
    if (i) await sleep(interval);
    out.push(sample(manager));
  }
  return out;
}

async function mcpxRound(n: number): Promise<Round> {
  const dir = `${tmp}/mcpx-${n}`;
  await Deno.mkdir(dir, { recursive: true });
  const env = { ...base, MCPX_STATE_DIR: `${dir}/state`, MCPX_CACHE_DIR: `${dir}/cache` };
  const servers = layout === "sessions"
    ? { state: { ...SERVER, mcpx: { scope: "session", max: count, idleTimeout: "1h" } } }
    : Object.fromEntries(
      names.map((name, i) => [name, { ...entry(i), mcpx: { idleTimeout: "1h" } }]),
    );
  await Deno.writeTextFile(`${dir}/.mcp.json`, JSON.stringify({ mcpServers: servers }));
  const target = (i: number) =>
    layout === "sessions"
      ? { namespace: "state", session: `s${i}` }
      : { namespace: names[i], session: undefined };
  const mcpx = async (...args: string[]) => {
    const out = await run(mcpxArgv(...args), env, dir);
    if (!out.ok) throw new Error(`mcpx ${args.join(" ")}: ${out.stderr}`);
    return out.stdout;
  };
  try {
    const first = target(0);
    await mcpx(
      "call",
      `${first.namespace}.whoami`,
      "{}",
      ...(first.session ? ["--session", first.session] : []),
    );
    const { daemons } = JSON.parse(await mcpx("daemons", "--json")) as {
      daemons: { pid: number; socket: string }[];
    };
    const daemon = daemons[0];
    remember([daemon.pid]);
    const firstOnly = memoryKiB(daemon.pid);
    for (let i = 1; i < count; i++) {
      const t = target(i);
      await requestDaemon(daemon.socket, "call", {
        target: `${t.namespace}.whoami`,
        arguments: {},
        ...(t.session ? { session: t.session } : {}),
      });
    }
    const got = await idleSamples(daemon.pid);
    const problems = got[0].trees === count
      ? []
      : [`mcpx daemon had ${got[0].trees} child processes, expected ${count}`];
    return { firstOnly, samples: got, problems };
  } finally {
    await run(mcpxArgv("stop"), env, dir).catch(() => undefined);
    await sweep("after mcpx stop");
  }
}

async function peerRound(peer: Peer, n: number): Promise<Round> {
  const dir = `${tmp}/peer-${n}`;
  await Deno.mkdir(dir, { recursive: true });
  const config = `${dir}/mcporter.json`;
  // `imports: []` stops mcporter from merging editor configs found under $HOME.
  await Deno.writeTextFile(
    config,
    JSON.stringify({
      mcpServers: Object.fromEntries(names.map((name, i) => [name, entry(i)])),
      imports: [],
    }),
  );
  const env = {
    ...base,
    ...xdgHomes(dir),
    MCPORTER_KEEPALIVE: names.join(","),
    NO_COLOR: "1",
  };
  const mcporter = (...args: string[]) =>
    run([peer.node, peer.bin, "--config", config, ...args], env, dir);
  const describe = (what: string, o: { stdout: string; stderr: string }) =>
    `\`${what}\`: ${(o.stdout + o.stderr).trim().split("\n").slice(-6).join(" / ")}`;
  try {
    const start = await mcporter("daemon", "start");
    if (!start.ok) throw new Error(describe("mcporter daemon start", start));
    const metaDir = `${dir}/state/mcporter/daemon`;
    const meta = [...Deno.readDirSync(metaDir)].find((e) => e.name.endsWith(".json"));
    if (!meta) throw new Error(`mcporter daemon start left no metadata in ${metaDir}`);
    const { pid } = JSON.parse(await Deno.readTextFile(`${metaDir}/${meta.name}`)) as {
      pid: number;
    };
    remember([pid]);
    const problems: string[] = [];
    let firstOnly = ZERO;
    for (let i = 0; i < count; i++) {
      const out = await mcporter("call", `${names[i]}.whoami`);
      const served = Number(out.stdout.trim());
      if (!out.ok || !serverTrees(pid).some((t) => t.includes(served))) {
        problems.push(
          describe(`mcporter call ${names[i]}.whoami`, out) +
            " (answer not from a process under the daemon)",
        );
      }
      if (i === 0) firstOnly = memoryKiB(pid);
    }
    const got = await idleSamples(pid);
    const status = await mcporter("daemon", "status");
    const connected = (status.stdout.match(/: connected/g) ?? []).length;
    if (connected !== count || got[0].trees !== count) {
      problems.push(
        `mcporter held ${got[0].trees} server process trees (daemon status: ${connected} ` +
          `connected); ${describe("mcporter daemon status", status)}`,
      );
    }
    return { firstOnly, samples: got, problems };
  } finally {
    await mcporter("daemon", "stop").catch(() => undefined);
    await sweep("after mcporter daemon stop");
  }
}

// ---------------------------------------------------------------- run

onInterrupt(async () => {
  log("\ninterrupted: stopping what the bench started");
  await sweep("interrupted", 0);
  await Deno.remove(tmp, { recursive: true }).catch(() => {});
  Deno.exit(130);
});

const mcpxRounds: Round[] = [];
const peerRounds: Round[] = [];
const notes: string[] = [];
let peer: Peer | undefined;
let peerProblem: string | undefined;
let failure: unknown;
try {
  ({ peer, problem: peerProblem } = await choosePeer(values["skip-peer"]));
  const note = peer &&
    enginesNote(peer, "Its daemon held the servers and answered every call here.");
  if (note) notes.push(note);
  for (let r = 0; r < rounds; r++) {
    const order = r % 2 === 0 ? ["mcpx", "peer"] : ["peer", "mcpx"];
    for (const side of order) {
      if (side === "mcpx") {
        log(`round ${r + 1}/${rounds}: mcpx (${layout}) warming ${count} servers`);
        mcpxRounds.push(await mcpxRound(r));
      } else if (peer) {
        log(`round ${r + 1}/${rounds}: mcporter warming ${count} servers`);
        peerRounds.push(await peerRound(peer, r));
      }
    }
  }
} catch (error) {
  failure = error;
} finally {
  await sweep("at the end");
  await Deno.remove(tmp, { recursive: true }).catch(() => {});
}

// ---------------------------------------------------------------- report

const mib = (kib: number) => Math.round(kib / 102.4) / 10;
type Metric = (r: Round, s: Sample) => Mem;
/** Median over every sample of every round, in MiB. */
function med(rs: Round[], metric: Metric): { rssMiB: number; pssMiB: number } | undefined {
  const all = rs.flatMap((r) => r.samples.map((s) => metric(r, s)));
  if (!all.length) return undefined;
  return {
    rssMiB: mib(median(all.map((m) => m.rss))),
    pssMiB: mib(median(all.map((m) => m.pss))),
  };
}
const trees = (rs: Round[]) => rs[0]?.samples[0]?.trees ?? 0;
const rows: [string, string, Metric][] = [
  ["manager", "daemon process", (_, s) => s.manager],
  ["managerFirstOnly", "daemon with its first server only", (r) => r.firstOnly],
  ["servers", "server process trees, total", (_, s) => s.servers],
  [
    "serverEach",
    "one server tree, mean",
    (_, s) => ({ rss: s.servers.rss / (s.trees || 1), pss: s.servers.pss / (s.trees || 1) }),
  ],
  ["total", "daemon + server trees", (_, s) => add(s.manager, s.servers)],
];
const result = {
  instances: count,
  rounds,
  samplesPerRound: samples,
  mcpxLayout: layout,
  deno: Deno.version.deno,
  node: peer?.nodeVersion,
  peer: peer ? `mcporter ${peer.version}` : { unavailable: peerProblem },
  mcpx: {
    serverTrees: trees(mcpxRounds),
    processes: mcpxRounds[0]?.samples[0]?.processes ?? 0,
    ...Object.fromEntries(rows.map(([key, , m]) => [key, med(mcpxRounds, m)])),
    problems: mcpxRounds.flatMap((r) => r.problems),
  },
  ...(peer
    ? {
      mcporter: {
        serverTrees: trees(peerRounds),
        processes: peerRounds[0]?.samples[0]?.processes ?? 0,
        ...Object.fromEntries(rows.map(([key, , m]) => [key, med(peerRounds, m)])),
        problems: peerRounds.flatMap((r) => r.problems),
      },
    }
    : {}),
  notes,
  ...(failure ? { failure: String((failure as Error).message ?? failure) } : {}),
};
const fmt = (v: number | undefined) => v === undefined ? "—" : v.toFixed(1);

if (values.json) console.log(JSON.stringify(result, null, 2));
else {
  const out: string[] = [];
  const n = mcpxRounds.length * samples;
  out.push(
    `Idle memory, MiB: ${count} idle stateful-fixture servers per side, each warmed by one ` +
      `call; medians over ${n} samples (${mcpxRounds.length} rounds × ${samples}); ` +
      `deno ${Deno.version.deno}` + (peer ? `, node ${peer.nodeVersion}` : ""),
    "",
  );
  /** The totals row names how many trees each side held (the same count, normally). */
  const label = (l: string) => {
    if (!l.startsWith("server process trees")) return l;
    const [a, b] = [trees(mcpxRounds), trees(peerRounds)];
    return !peer || a === b ? `${a} ${l}` : `${l} (mcpx ${a}, peer ${b})`;
  };
  if (peer) {
    const header = [
      "process",
      "mcpx RSS",
      "peer RSS",
      "RSS mcpx/peer",
      "mcpx PSS",
      "peer PSS",
      "PSS mcpx/peer",
    ];
    out.push(markdownTable(
      header,
      rows.map(([, l, metric]) => {
        const a = med(mcpxRounds, metric);
        const b = med(peerRounds, metric);
        return [
          label(l),
          fmt(a?.rssMiB),
          fmt(b?.rssMiB),
          ratio(a?.rssMiB, b?.rssMiB),
          fmt(a?.pssMiB),
          fmt(b?.pssMiB),
          ratio(a?.pssMiB, b?.pssMiB),
        ];
      }),
    ));
  } else {
    out.push(markdownTable(
      ["process", "RSS MiB", "PSS MiB"],
      rows.map(([, l, metric]) => {
        const a = med(mcpxRounds, metric);
        return [label(l), fmt(a?.rssMiB), fmt(a?.pssMiB)];
      }),
    ));
  }
  out.push(
    "",
    `mcpx: ${
      layout === "sessions"
        ? `one server entry, scope "session", called under ${count} session keys`
        : `${count} server entries`
    }; ${result.mcpx.processes} processes in its server trees.`,
  );
  if (peer) {
    out.push(
      `peer: mcporter ${peer.version} keep-alive daemon, ${count} entries (MCPORTER_KEEPALIVE=` +
        `state0,…,state${
          count - 1
        }), \`mcporter daemon start\` then \`mcporter call stateN.whoami\` ` +
        `each; ${result.mcporter?.processes ?? 0} processes in its server trees.`,
    );
  }
  const problems = [...result.mcpx.problems, ...(result.mcporter?.problems ?? [])];
  const all = [
    ...(peerProblem ? [`Peer not measured: ${peerProblem}.`] : []),
    ...(failure ? [`The bench stopped early: ${result.failure}`] : []),
    ...problems,
    ...notes,
  ];
  if (all.length) out.push("", ...all.map((l) => `- ${l}`));
  console.log(out.join("\n"));
}
Deno.exit(failure ? 1 : 0);
