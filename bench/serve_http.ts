/**
 * `deno task bench:serve`: calls per second through `mcpx serve --http`
 * against `mcporter serve --http` on the same server (issue 26's
 * "`serve --http` calls/s, 1 and 8 clients" row), in one run.
 *
 * Both gateways listen on 127.0.0.1 (a free port each) over `bench`'s world
 * (bench/_world.ts: one configuration holding server-everything, npm
 * offline). Clients are the MCP SDK's own (`@modelcontextprotocol/client`,
 * Streamable HTTP), in this process: mcpx's clients call `mcpx_call` with
 * `{ target: "everything.echo", arguments: { message: "hi" } }`, mcporter's
 * call its bridged `everything__echo` with `{ message: "hi" }`. Every answer
 * is checked (`Echo: hi`); a failed or wrong one stops the bench.
 *
 * For each client count (1 and 8), the sides' bursts alternate, mcpx then
 * the peer, round after round (5 rounds of 3 s by default); a burst is
 * bounded in time (`--seconds`) and count (`--max-calls`), each call by
 * {@link CALL_TIMEOUT_MS}. The ratio is the median of the rounds' ratios.
 * The peer runs on the node its package declares (bench/peer.ts).
 *
 * Flags: --rounds N, --seconds S, --clients L, --max-calls N, --warmup N,
 * --skip-peer, --keep-node-ca-certs, --help. Exits 1 when a call failed or
 * answered wrong (or setup failed), 2 on a usage error, 130 when interrupted.
 * See bench/README.md, "serve --http".
 *
 * @module
 */

import { parseArgs } from "node:util";
import { markdownTable, median, ms, percentile } from "./stats.ts";
import { choosePeer, enginesNote, type Peer } from "./peer.ts";
import { counter, helpAndExit, log } from "./_cli.ts";
import { noVerdict } from "./interleaved.ts";
import { loadNote, machineAndCommit, reportTail, type Target, writeResults } from "./_report.ts";
import { CALL_ARGS, createWorld, failed, mcpx, SERVER_PACKAGE, WORLD_FLAGS } from "./_world.ts";
import {
  type BenchClient,
  type Burst,
  burst,
  CALL_TIMEOUT_MS,
  checkedCall,
  checkMcpxCall,
  checkPeerCall,
  connectClient,
  type Gateway,
  perSecond,
  startListening,
  stopListening,
} from "./_serve_gateways.ts";

const USAGE = `usage: deno task bench:serve [--rounds N] [--seconds S] [--clients L]
                             [--max-calls N] [--warmup N] [--skip-peer] [--keep-node-ca-certs]

  --rounds N            timed bursts per side and client count, interleaved (default 5)
  --seconds S           length of one burst (default 3)
  --clients L           concurrent clients, comma-separated (default 1,8)
  --max-calls N         most calls one burst starts (default 20000)
  --warmup N            untimed calls per client before a client count's rounds (default 100)
  --quick               --rounds 3 --seconds 2
  --skip-peer           mcpx only
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
    rounds: { type: "string" },
    seconds: { type: "string" },
    clients: { type: "string" },
    "max-calls": { type: "string" },
    warmup: { type: "string" },
  },
});
helpAndExit(flags.help, USAGE);
const count = counter(USAGE);
const rounds = count("rounds", flags.rounds, flags.quick ? 3 : 5);
const seconds = count("seconds", flags.seconds, flags.quick ? 2 : 3);
const maxCalls = count("max-calls", flags["max-calls"], 20_000);
const warmup = count("warmup", flags.warmup, 100, 0);
const clientCounts = (flags.clients ?? "1,8").split(",").map((v) => count("clients", v, 1));

const started = performance.now();
const loadStart = Deno.loadavg();
const cores = navigator.hardwareConcurrency;

// ---------------------------------------------------------------- the world

const world = await createWorld({
  prefix: "mcpx-bench-serve-",
  keepNodeCaCerts: flags["keep-node-ca-certs"],
});
const { tmp, env, keepAliveEnv, exec, mcporter, show } = world;
let peer: Peer | undefined;
const gateways: Gateway[] = [];
const commands: string[] = [];

/** `mcpx serve --http --port 0` over the world's configuration, its daemon warmed first. */
async function startMcpx(): Promise<Gateway> {
  log("mcpx: one call starts the daemon and the server, then `mcpx serve --http --port 0`");
  const warm = await exec(mcpx("call", "everything.echo", CALL_ARGS), env, 120_000);
  if (warm.code !== 0) throw new Error(`could not warm the mcpx daemon: ${failed(warm)}`);
  const daemons = await exec(mcpx("daemons", "--json"), env, 60_000);
  const daemon = (JSON.parse(daemons.stdout) as { daemons: { pid: number }[] }).daemons[0];
  if (!daemon) throw new Error(`mcpx daemons --json named no daemon: ${daemons.stdout}`);
  const argv = mcpx("serve", "--http", "--port", "0");
  commands.push(`mcpx: \`${show(argv)}\` (daemon warmed by \`mcpx call everything.echo\`)`);
  const s = await startListening(argv, env, tmp, 120_000);
  return {
    id: "mcpx",
    label: "mcpx serve --http",
    ...s,
    roots: { serve: s.child.pid, daemon: daemon.pid },
    tool: "",
    arguments: {},
    check: checkMcpxCall,
    toolCount: 0,
  };
}

/** mcporter's keep-alive daemon holding `everything`, then `mcporter serve --http 0`. */
async function startPeer(p: Peer): Promise<Gateway> {
  log("mcporter: keep-alive daemon (MCPORTER_KEEPALIVE=everything), then `serve --http 0`");
  const start = await exec(mcporter("daemon", "start"), keepAliveEnv, 120_000);
  const primed = await exec(mcporter("call", "everything.echo", "message=hi"), keepAliveEnv);
  const status = await exec(mcporter("daemon", "status"), keepAliveEnv);
  if (start.code !== 0 || primed.code !== 0 || !/everything: connected/.test(status.stdout)) {
    throw new Error(
      `mcporter daemon did not come up: ${status.stdout.trim()} ${start.stderr.trim()} ` +
        primed.stderr.trim(),
    );
  }
  const metaDir = `${tmp}/state/mcporter/daemon`;
  const meta = [...Deno.readDirSync(metaDir)].find((e) => e.name.endsWith(".json"));
  if (!meta) throw new Error(`mcporter daemon start left no metadata in ${metaDir}`);
  const { pid } = JSON.parse(await Deno.readTextFile(`${metaDir}/${meta.name}`)) as {
    pid: number;
  };
  const argv = mcporter("serve", "--http", "0");
  commands.push(
    `peer: \`${show(argv)}\` (MCPORTER_KEEPALIVE=everything; its daemon started by ` +
      `\`${show(mcporter("daemon", "start"))}\` and one \`call everything.echo message=hi\`)`,
  );
  const s = await startListening(argv, keepAliveEnv, tmp, 120_000);
  return {
    id: "peer",
    label: `mcporter ${p.version} serve --http`,
    ...s,
    roots: { serve: s.child.pid, daemon: pid },
    tool: "",
    arguments: {},
    check: checkPeerCall,
    toolCount: 0,
  };
}

/**
 * Lists `g`'s tools and picks the echo call: mcpx's `mcpx_call` (its input
 * schema names the target `target`, or `tool`), mcporter's `everything__echo`.
 */
async function chooseCall(g: Gateway): Promise<void> {
  await using client = await connectClient(g.url);
  const { tools } = await client.listTools();
  g.toolCount = tools.length;
  if (g.id === "mcpx") {
    const call = tools.find((t) => t.name === "mcpx_call");
    const props = Object.keys(call?.inputSchema.properties ?? {});
    const key = ["target", "tool"].find((k) => props.includes(k));
    if (!call || !key || !props.includes("arguments")) {
      throw new Error(`mcpx serve lists no usable mcpx_call: ${JSON.stringify(call ?? tools)}`);
    }
    g.tool = call.name;
    g.arguments = { [key]: "everything.echo", arguments: { message: "hi" } };
  } else {
    const echo = tools.find((t) => t.name === "everything__echo");
    if (!echo) {
      throw new Error(`mcporter serve lists no everything__echo: ${tools.map((t) => t.name)}`);
    }
    g.tool = echo.name;
    g.arguments = { message: "hi" };
  }
  await checkedCall(g, client); // a first call, checked, before any client count
}

// ---------------------------------------------------------------- run

const bursts: Burst[] = [];
const notes: string[] = [];
let failure: unknown;
let peerProblem: string | undefined;

try {
  log(
    `${rounds} rounds of ${seconds} s per side for ${clientCounts.join(" and ")} client(s), ` +
      `interleaved; temp folder ${tmp}`,
  );
  ({ peer, problem: peerProblem } = await choosePeer(flags["skip-peer"], {
    logUnavailable: true,
  }));
  if (peer) {
    world.peer = peer;
    const note = enginesNote(peer, "Every call's answer was checked.");
    if (note) notes.push(note);
  }
  await world.prime();
  gateways.push(await startMcpx());
  if (peer) gateways.push(await startPeer(peer));
  for (const g of gateways) {
    await chooseCall(g);
    log(
      `  ${g.label}: ${g.url} — ${g.toolCount} tools; calls ${g.tool} ${
        JSON.stringify(g.arguments)
      }`,
    );
  }

  for (const n of clientCounts) {
    const clients = new Map<Gateway, BenchClient[]>();
    try {
      for (const g of gateways) {
        const list: BenchClient[] = [];
        clients.set(g, list);
        for (let i = 0; i < n; i++) list.push(await connectClient(g.url));
        await Promise.all(list.map(async (c) => {
          for (let i = 0; i < warmup; i++) await checkedCall(g, c);
        }));
      }
      for (let r = 1; r <= rounds; r++) {
        if (world.interrupted) break;
        const line: string[] = [];
        for (const g of gateways) {
          const b = await burst(g, clients.get(g)!, r, seconds, maxCalls);
          bursts.push(b);
          line.push(`${g.id} ${perSecond(b).toFixed(1)}/s`);
        }
        log(`  ${n} client(s), round ${r}/${rounds}: ${line.join(", ")}`);
      }
    } finally {
      for (const list of clients.values()) {
        await Promise.all(list.map((c) => c[Symbol.asyncDispose]()));
      }
    }
  }
} catch (error) {
  failure = error;
  log(`stopped: ${(error as Error).message ?? error}`);
} finally {
  for (const g of gateways) await stopListening(g.child);
  await world.close();
}
if (world.interrupted) Deno.exit(130);

// ---------------------------------------------------------------- report

/** The bursts of one side at one client count, in round order. */
const of = (id: Gateway["id"], n: number) =>
  bursts.filter((b) => b.gateway === id && b.clients === n);
const rates = (bs: Burst[]) => bs.map(perSecond);
const fmt = (v: number | undefined, digits = 1) =>
  v === undefined || !Number.isFinite(v) ? "—" : v.toFixed(digits);
/** Per round, mcpx's calls/s ÷ the peer's, for rounds where both ran. */
const roundRatios = (n: number) => {
  const a = of("mcpx", n);
  const b = of("peer", n);
  return a.flatMap((x) => {
    const y = b.find((p) => p.round === x.round);
    return y ? [perSecond(x) / perSecond(y)] : [];
  });
};
const latency = (bs: Burst[]) => {
  const all = bs.flatMap((b) => b.callMs);
  return all.length ? `${ms(percentile(all, 50))} (${ms(percentile(all, 90))})` : "—";
};
const perCall = (bs: Burst[], key: "serveCpuMs" | "daemonCpuMs" | "clientCpuMs") => {
  const calls = bs.reduce((s, b) => s + b.calls, 0);
  return calls ? bs.reduce((s, b) => s + b[key], 0) / calls : undefined;
};
const summary = clientCounts.map((n) => {
  const m = of("mcpx", n);
  const p = of("peer", n);
  const ratios = roundRatios(n);
  return {
    clients: n,
    mcpx: {
      per_second_median: m.length ? median(rates(m)) : null,
      per_second_rounds: rates(m),
      calls: m.reduce((s, b) => s + b.calls, 0),
      serve_cpu_ms_per_call: perCall(m, "serveCpuMs") ?? null,
      daemon_cpu_ms_per_call: perCall(m, "daemonCpuMs") ?? null,
      client_cpu_ms_per_call: perCall(m, "clientCpuMs") ?? null,
    },
    peer: {
      per_second_median: p.length ? median(rates(p)) : null,
      per_second_rounds: rates(p),
      calls: p.reduce((s, b) => s + b.calls, 0),
      serve_cpu_ms_per_call: perCall(p, "serveCpuMs") ?? null,
      daemon_cpu_ms_per_call: perCall(p, "daemonCpuMs") ?? null,
      client_cpu_ms_per_call: perCall(p, "clientCpuMs") ?? null,
    },
    ratio_median_of_rounds: ratios.length ? median(ratios) : null,
    ratio_rounds: ratios,
  };
});

const table = markdownTable(
  [
    "clients",
    "mcpx calls/s median (min–max)",
    "peer calls/s median (min–max)",
    "mcpx/peer (median of rounds)",
    "mcpx call ms p50 (p90)",
    "peer call ms p50 (p90)",
  ],
  clientCounts.map((n) => {
    const s = summary.find((x) => x.clients === n)!;
    const span = (v: number[]) =>
      v.length ? ` (${fmt(Math.min(...v), 0)}–${fmt(Math.max(...v), 0)})` : "";
    return [
      String(n),
      `${fmt(s.mcpx.per_second_median ?? undefined)}${span(s.mcpx.per_second_rounds)}`,
      `${fmt(s.peer.per_second_median ?? undefined)}${span(s.peer.per_second_rounds)}`,
      s.ratio_median_of_rounds === null ? "—" : `${s.ratio_median_of_rounds.toFixed(2)}×`,
      latency(of("mcpx", n)),
      latency(of("peer", n)),
    ];
  }),
);
const cpuTable = markdownTable(
  [
    "clients",
    "mcpx serve",
    "mcpx daemon + server",
    "mcpx client",
    "peer serve",
    "peer daemon + server",
    "peer client",
  ],
  summary.map((s) => [
    String(s.clients),
    fmt(s.mcpx.serve_cpu_ms_per_call ?? undefined, 2),
    fmt(s.mcpx.daemon_cpu_ms_per_call ?? undefined, 2),
    fmt(s.mcpx.client_cpu_ms_per_call ?? undefined, 2),
    fmt(s.peer.serve_cpu_ms_per_call ?? undefined, 2),
    fmt(s.peer.daemon_cpu_ms_per_call ?? undefined, 2),
    fmt(s.peer.client_cpu_ms_per_call ?? undefined, 2),
  ]),
);
const roundsTable = markdownTable(
  ["clients", "round", "mcpx calls/s", "peer calls/s", "mcpx/peer"],
  clientCounts.flatMap((n) =>
    of("mcpx", n).map((m) => {
      const p = of("peer", n).find((b) => b.round === m.round);
      return [
        String(n),
        String(m.round),
        fmt(perSecond(m)),
        p ? fmt(perSecond(p)) : "—",
        p ? `${(perSecond(m) / perSecond(p)).toFixed(2)}×` : "—",
      ];
    })
  ),
);

const withheld = noVerdict(0, [loadStart[0]], cores);
const targets: Target[] = clientCounts.filter((n) => n === 1 || n === 8).map((n) => {
  const s = summary.find((x) => x.clients === n)!;
  const r = s.ratio_median_of_rounds;
  return {
    target: `\`serve --http\` calls/s with ${n} client${n > 1 ? "s" : ""}: at least 1.0× ` +
      "mcporter's (issue 26)",
    status: r === null || failure ? "n/a" : withheld ? "n/a" : r >= 1 ? "PASS" : "MISS",
    detail: r === null
      ? "not measured"
      : `${r.toFixed(2)}× (median of ${s.ratio_rounds.length} rounds' ratios)` +
        (withheld ? `; no verdict: ${withheld}` : ""),
  };
});
for (const b of bursts) {
  if (b.capped) {
    notes.push(`${b.gateway}, ${b.clients} client(s), round ${b.round}: hit --max-calls.`);
  }
}
if (peerProblem) notes.unshift(`Peer not measured: ${peerProblem}.`);
if (failure) notes.unshift(`The bench stopped early: ${(failure as Error).message ?? failure}`);
const loadEnd = Deno.loadavg();
notes.push(
  "Clients and gateways share this machine's cores: the clients run in the bench's process " +
    "(the same SDK client for both sides), so a side whose answers cost its client more CPU " +
    "also leaves its gateway less.",
  loadNote(loadStart, loadEnd),
);
const totalSeconds = (performance.now() - started) / 1000;

const report = [
  `# mcpx bench:serve — ${new Date().toISOString()}`,
  "",
  table,
  "",
  `${rounds} rounds of ${seconds} s per side and client count, interleaved (mcpx, peer, mcpx, …); ` +
  "calls/s = checked answers ÷ the burst's wall time; a call = the SDK client's `callTool`, " +
  "request to checked answer.",
  "",
  "### CPU ms per call (user + system)",
  "",
  cpuTable,
  "",
  "serve: the serve process's tree; daemon + server: the daemon behind it and the server " +
  "process tree it holds (`/proc/<pid>/stat`); client: the bench's own process, where the SDK " +
  "clients run.",
  "",
  "### Rounds",
  "",
  roundsTable,
  "",
  "## Commands",
  "",
  ...commands.map((c) => `- ${c}`),
  ...gateways.map((g) =>
    `- ${g.label} call: \`${g.tool}\` \`${
      JSON.stringify(g.arguments)
    }\` (${g.toolCount} tools listed)`
  ),
  "",
  ...reportTail(targets, notes, totalSeconds),
].join("\n");
console.log(report);

const path = await writeResults("serve_http", report + "\n", {
  date: new Date().toISOString(),
  total_seconds: totalSeconds,
  ...await machineAndCommit(loadStart, loadEnd, peer),
  peer: peer
    ? {
      package: "mcporter",
      version: peer.version,
      install: peer.installCommand,
      node: peer.node,
      node_source: peer.nodeSource,
    }
    : { unavailable: peerProblem },
  settings: {
    rounds,
    seconds,
    clients: clientCounts,
    max_calls: maxCalls,
    warmup_calls_per_client: warmup,
    call_timeout_ms: CALL_TIMEOUT_MS,
    server: SERVER_PACKAGE,
    node_extra_ca_certs_removed: world.caStripped,
  },
  gateways: gateways.map((g) => ({
    id: g.id,
    label: g.label,
    url: String(g.url),
    tool: g.tool,
    arguments: g.arguments,
    tools_listed: g.toolCount,
  })),
  summary,
  bursts: bursts.map(({ callMs, ...b }) => ({
    ...b,
    per_second: perSecond(b),
    call_ms_p50: percentile(callMs, 50),
    call_ms_p90: percentile(callMs, 90),
  })),
  targets,
  notes,
  ...(failure ? { failure: String((failure as Error).message ?? failure) } : {}),
});
log(`results: ${path} (and .json)`);
Deno.exit(failure ? 1 : 0);
