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
 * `--real` measures issue 26's row instead: three real servers from npm
 * (server-everything, server-filesystem, server-memory; bench/_idle_real.ts),
 * the same three entries on both sides, each warmed by one call, then left
 * idle 60 s before sampling. mcpx's front process (cli/relay/front.ts, which
 * the warm calls start off a terminal) is reported as a row of its own.
 *
 * Usage: `deno run -A bench/idle_memory.ts [--instances 20] [--rounds 3]
 * [--samples 3] [--interval 1000] [--mcpx-layout sessions|servers] [--real]
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
import { loadNote, machineAndCommit, writeResults } from "./_report.ts";
import {
  markedProcesses,
  MARKER_VAR,
  onInterrupt,
  serverTrees,
  sleep,
  trackProcesses,
} from "./_processes.ts";
import { mcpx as mcpxArgv, output, strippedEnv, xdgHomes } from "./_world.ts";
import { peerCallArgs, primeRealEntries, realEntries, type RealEntry } from "./_idle_real.ts";

const USAGE = `usage: deno run -A bench/idle_memory.ts [options]

  --instances N          idle server processes per side (default 20)
  --rounds N             full setups per side, sides alternating (default 3)
  --samples N            memory samples per round once idle (default 3)
  --interval MS          between samples (default 1000)
  --settle MS            idle time after the last call before the first sample
                         (default 2000, 60000 with --real; V8 and Node shrink an
                         idle heap some 30 s after the last work, so 40000
                         measures a settled daemon)
  --mcpx-layout L        sessions (default: one server, N session keys) or
                         servers (N entries, as the peer is configured)
  --real                 3 real servers from npm (everything, filesystem, memory),
                         the same 3 entries on both sides, settled 60 s, 1 round
                         by default (issue 26); not with --instances or --mcpx-layout
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
    "mcpx-layout": { type: "string" },
    real: { type: "boolean" },
    "skip-peer": { type: "boolean" },
    json: { type: "boolean" },
    help: { type: "boolean", short: "h" },
  },
});
helpAndExit(values.help, USAGE);
const int = counter(USAGE);
const real = !!values.real;
if (real && (values.instances !== undefined || values["mcpx-layout"] !== undefined)) {
  console.error(`error: --real holds 3 entries on both sides: no --instances or --mcpx-layout

${USAGE}`);
  Deno.exit(2);
}
const rounds = int("rounds", values.rounds, real ? 1 : 3);
const samples = int("samples", values.samples, 3);
const interval = int("interval", values.interval, 1000, 0);
const settle = int("settle", values.settle, real ? 60_000 : 2000, 0);
const layout = real ? "servers" : values["mcpx-layout"] ?? "sessions";
if (layout !== "sessions" && layout !== "servers") {
  console.error(`error: --mcpx-layout is sessions or servers, got "${layout}"\n\n${USAGE}`);
  Deno.exit(2);
}
const loadStart = Deno.loadavg();
const tmp = await Deno.makeTempDir({ prefix: "mcpx-bench-memory-" });
/** With --real, the three real servers (their files in `tmp`), else none. */
const realServers: RealEntry[] = real ? realEntries(tmp) : [];
const count = real ? realServers.length : int("instances", values.instances, 20);
const marker = crypto.randomUUID();
const SERVER = {
  command: Deno.execPath(),
  args: ["run", "-A", "--config", `${ROOT}deno.json`, `${ROOT}tests/fixtures/servers/stateful.ts`],
};
const names = real
  ? realServers.map((e) => e.name)
  : Array.from({ length: count }, (_, i) => `state${i}`);
/**
 * Entry i of a config with one entry per server. mcpx runs identical entries
 * (same command, arguments and environment) as one shared process, so each
 * entry gets its own `BENCH_INSTANCE`; mcporter's config gets the same.
 */
const entry = (i: number) => ({ ...SERVER, env: { BENCH_INSTANCE: String(i) } });

/**
 * The caller's environment without mcpx's or mcporter's own variables, and
 * the run marker; with --real, npm offline too (the packages are put in its
 * cache first, see the run below), so servers start from the cache.
 */
const base: Record<string, string> = { ...strippedEnv(), [MARKER_VAR]: marker }; // see sweep()
const offline = { npm_config_offline: "true", npm_config_update_notifier: "false" };

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
  /** mcpx's front process (cli/relay/front.ts), when one runs: {@link ZERO} for the peer. */
  front: Mem;
  trees: number;
  processes: number;
}
function sample(manager: number, front?: number): Sample {
  const trees = serverTrees(manager);
  remember(trees.flat());
  return {
    manager: memoryKiB(manager),
    servers: trees.flat().map(memoryKiB).reduce(add, ZERO),
    front: front ? memoryKiB(front) : ZERO,
    trees: trees.length,
    processes: trees.flat().length,
  };
}

/**
 * The front process (cli/relay/front.ts) this run's warm `mcpx` commands
 * started off a terminal (decision 0068): a process carrying the run marker
 * whose command line names `relay/front`, and whose environment is the
 * round's (`MCPX_STATE_DIR=stateDir`: a front serves one state folder).
 */
function findFront(stateDir: string): number | undefined {
  return markedProcesses(marker).find((pid) => {
    try {
      const cmd = Deno.readTextFileSync(`/proc/${pid}/cmdline`);
      const environ = Deno.readTextFileSync(`/proc/${pid}/environ`).split("\0");
      return /relay\/front/.test(cmd) && environ.includes(`MCPX_STATE_DIR=${stateDir}`);
    } catch {
      return false;
    }
  });
}

/** What one round of one side measured. */
interface Round {
  /** The manager right after its first server was warmed. */
  firstOnly: Mem;
  samples: Sample[];
  /** Anything that went differently from the plan (e.g. fewer servers held). */
  problems: string[];
}

async function idleSamples(manager: number, front?: number): Promise<Sample[]> {
  await sleep(settle); // let them settle idle
  const out: Sample[] = [];
  for (let i = 0; i < samples; i++) {
    if (i) await sleep(interval);
    out.push(sample(manager, front));
  }
  return out;
}

async function mcpxRound(n: number): Promise<Round> {
  const dir = `${tmp}/mcpx-${n}`;
  await Deno.mkdir(dir, { recursive: true });
  const env = { ...base, MCPX_STATE_DIR: `${dir}/state`, MCPX_CACHE_DIR: `${dir}/cache` };
  const servers = real
    ? Object.fromEntries(realServers.map((e) => [e.name, e.config]))
    : layout === "sessions"
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
  /** A real server's warm-up call, as users run it (the launcher), its answer checked. */
  const realCall = async (e: RealEntry) => {
    const out = await mcpx("call", `${e.name}.${e.tool}`, JSON.stringify(e.arguments));
    if (!e.expect.test(out)) {
      throw new Error(`mcpx call ${e.name}.${e.tool}: unexpected answer ${out.slice(0, 200)}`);
    }
  };
  try {
    const first = target(0);
    if (real) await realCall(realServers[0]);
    else {
      await mcpx(
        "call",
        `${first.namespace}.whoami`,
        "{}",
        ...(first.session ? ["--session", first.session] : []),
      );
    }
    const { daemons } = JSON.parse(await mcpx("daemons", "--json")) as {
      daemons: { pid: number; socket: string }[];
    };
    const daemon = daemons[0];
    remember([daemon.pid]);
    const firstOnly = memoryKiB(daemon.pid);
    for (let i = 1; i < count; i++) {
      if (real) {
        await realCall(realServers[i]);
        continue;
      }
      const t = target(i);
      await requestDaemon(daemon.socket, "call", {
        target: `${t.namespace}.whoami`,
        arguments: {},
        ...(t.session ? { session: t.session } : {}),
      });
    }
    const front = findFront(env.MCPX_STATE_DIR);
    if (front) remember([front]);
    const got = await idleSamples(daemon.pid, front);
    const problems = got[0].trees === count
      ? []
      : [`mcpx daemon had ${got[0].trees} child processes, expected ${count}`];
    if (!front) problems.push("no front process (cli/relay/front.ts) was found for the round");
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
      mcpServers: real
        ? Object.fromEntries(realServers.map((e) => [e.name, e.config]))
        : Object.fromEntries(names.map((name, i) => [name, entry(i)])),
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
    for (let i = 0; i < count && real; i++) {
      const e = realServers[i];
      const out = await mcporter("call", ...peerCallArgs(e));
      if (!out.ok || !e.expect.test(out.stdout)) {
        throw new Error(describe(`mcporter call ${peerCallArgs(e).join(" ")}`, out));
      }
      if (i === 0) firstOnly = memoryKiB(pid);
    }
    for (let i = 0; i < count && !real; i++) {
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
  if (real) {
    log("setup: putting the 3 servers' packages in npm's cache (network allowed, once)");
    await primeRealEntries(realServers, base, tmp);
    Object.assign(base, offline); // every round's servers then start from the cache
  }
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
/** key, label, metric, and whether only mcpx has the process (the peer's cell is then "—"). */
const rows: [string, string, Metric, boolean?][] = [
  ["manager", "daemon process", (_, s) => s.manager],
  ["managerFirstOnly", "daemon with its first server only", (r) => r.firstOnly],
  ["servers", "server process trees, total", (_, s) => s.servers],
  [
    "serverEach",
    "one server tree, mean",
    (_, s) => ({ rss: s.servers.rss / (s.trees || 1), pss: s.servers.pss / (s.trees || 1) }),
  ],
  ["total", "daemon + server trees", (_, s) => add(s.manager, s.servers)],
  ["front", "mcpx front process (cli/relay/front.ts)", (_, s) => s.front, true],
  [
    "totalWithFront",
    "daemon + server trees + front (all that stays resident)",
    (_, s) => add(add(s.manager, s.servers), s.front),
  ],
];
const result = {
  instances: count,
  servers: real ? realServers.map((e) => e.config.args.join(" ")) : "stateful fixture",
  settleMs: settle,
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
        ...Object.fromEntries(
          rows.filter((row) => !row[3]).map(([key, , m]) => [key, med(peerRounds, m)]),
        ),
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
  const what = real
    ? `${count} idle real servers per side (${names.join(", ")}, from npm)`
    : `${count} idle stateful-fixture servers per side`;
  out.push(
    `Idle memory, MiB: ${what}, each warmed by one call, then ${settle / 1000} s idle; ` +
      `medians over ${n} samples (${mcpxRounds.length} rounds × ${samples}); ` +
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
      rows.map(([, l, metric, mcpxOnly]) => {
        const a = med(mcpxRounds, metric);
        const b = mcpxOnly ? undefined : med(peerRounds, metric);
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
        (real ? names.join(",") : `state0,…,state${count - 1}`) +
        `), \`mcporter daemon start\` then \`mcporter call ` +
        (real ? "<entry>.<tool>" : "stateN.whoami") +
        `\` each; ${result.mcporter?.processes ?? 0} processes in its server trees.`,
    );
  }
  if (real) {
    out.push(
      `Calls: ${
        realServers.map((e) => `\`${e.name}.${e.tool} ${JSON.stringify(e.arguments)}\``).join(", ")
      }, each answer checked. mcpx's front process is started by its first warm command run ` +
        "off a terminal (decision 0068) and stays for 10 minutes after the last; it is counted " +
        "only in the last row, which the peer's daemon + server trees are compared with.",
    );
    const a = med(mcpxRounds, (_, s) => s.manager);
    const b = med(peerRounds, (_, s) => s.manager);
    const af = med(mcpxRounds, (_, s) => add(s.manager, s.front));
    if (a && b && af) {
      const verdict = (x: number) => x <= b.rssMiB ? "PASS" : "MISS";
      out.push(
        "",
        `- ${verdict(a.rssMiB)} — idle daemon RSS ≤ mcporter's daemon (issue 26): ` +
          `${fmt(a.rssMiB)} MiB against ${fmt(b.rssMiB)} MiB (${ratio(a.rssMiB, b.rssMiB)})`,
        `- ${verdict(af.rssMiB)} — the same with mcpx's front process counted: ` +
          `${fmt(af.rssMiB)} MiB against ${fmt(b.rssMiB)} MiB (${ratio(af.rssMiB, b.rssMiB)})`,
      );
    }
  }
  const problems = [...result.mcpx.problems, ...(result.mcporter?.problems ?? [])];
  const all = [
    ...(peerProblem ? [`Peer not measured: ${peerProblem}.`] : []),
    ...(failure ? [`The bench stopped early: ${result.failure}`] : []),
    ...problems,
    ...notes,
    loadNote(loadStart, Deno.loadavg()),
  ];
  if (all.length) out.push("", ...all.map((l) => `- ${l}`));
  console.log(out.join("\n"));
  const path = await writeResults(
    real ? "idle_memory_real" : "idle_memory",
    out.join("\n") + "\n",
    {
      date: new Date().toISOString(),
      ...result,
      ...await machineAndCommit(loadStart, Deno.loadavg(), peer).then(({ machine, mcpx }) => ({
        machine,
        commit: mcpx,
      })),
    },
  );
  log(`results: ${path} (and .json)`);
}
Deno.exit(failure ? 1 : 0);
