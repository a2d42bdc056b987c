/**
 * `deno task bench:events`: does a stalled event reader slow the daemon's
 * calls? (issue 28, "calls/s with a stalled reader ≥ 0.95× without";
 * decision 0080). Calls per second through the daemon's `call` route on its
 * unix socket (what `mcpx call` sends, without the process start), `--callers`
 * loops at once against a fast stdio fixture server (tests/fixtures/servers/
 * misbehaving.ts `echo`), in interleaved rounds: A with no event reader, B
 * with one that opens `GET /v1/events?since=0` and never reads a byte, so the
 * daemon's write of the retained events fills the socket and stalls. Each
 * round is A then B, so a slow moment of the machine lands on both; the ratio
 * is the median of the per-round ratios B/A. The daemon's own CPU time per
 * call (from /proc) is reported beside it, the machine's load, and the floor
 * (an empty `deno run` of a file outside any deno.json) for scale.
 *
 * Flags: --rounds N (default 12), --calls N per side per round (default 3000),
 * --callers N (default 4), --help.
 *
 * @module
 */

import { parseArgs } from "node:util";
import { counter, helpAndExit, log } from "./_cli.ts";
import { markdownTable, median } from "./stats.ts";
import { loadNote, writeResults } from "./_report.ts";
import { mcpx, strippedEnv, xdgHomes } from "./_world.ts";
import { fixtureServer } from "../dev/fixture_servers.ts";
import { requestDaemon } from "../wire/daemon_request.ts";

/** Issue 28's target: calls/s with a stalled reader over calls/s without. */
const TARGET_RATIO = 0.95;

const USAGE = `usage: deno task bench:events [--rounds N] [--calls N] [--callers N]

  --rounds N    A/B rounds (default 12)
  --calls N     calls per side per round (default 3000)
  --callers N   calls in flight at once (default 4)
`;

const { values: flags } = parseArgs({
  args: Deno.args,
  options: {
    help: { type: "boolean", short: "h" },
    rounds: { type: "string" },
    calls: { type: "string" },
    callers: { type: "string" },
  },
});
helpAndExit(flags.help, USAGE);
const count = counter(USAGE);
const rounds = count("rounds", flags.rounds, 12);
const callsPerSide = count("calls", flags.calls, 3000);
const callers = count("callers", flags.callers, 4);

const loadStart = Deno.loadavg();
const tmp = await Deno.realPath(await Deno.makeTempDir({ prefix: "mcpx-bench-events-" }));
const config = `${tmp}/mcpx.json`;
await Deno.writeTextFile(config, JSON.stringify({ mcpServers: { fx: fixtureServer() } }));
const env = {
  ...strippedEnv(),
  ...xdgHomes(tmp),
  HOME: tmp,
  MCPX_CONFIG: config,
  // Deno's cache stays the user's (XDG_CACHE_HOME would move it and download everything again).
  DENO_DIR: Deno.env.get("DENO_DIR") ?? JSON.parse(
    new TextDecoder().decode(
      (await new Deno.Command(Deno.execPath(), { args: ["info", "--json"] }).output()).stdout,
    ),
  ).denoDir,
};

/** Runs `mcpx <args>` in the bench's world; its stdout. */
async function run(...args: string[]): Promise<string> {
  const [program, ...rest] = mcpx(...args);
  const out = await new Deno.Command(program, { args: rest, env, clearEnv: true, cwd: tmp })
    .output();
  const text = new TextDecoder().decode(out.stdout);
  if (!out.success) {
    throw new Error(`mcpx ${args.join(" ")}: ${new TextDecoder().decode(out.stderr)}`);
  }
  return text;
}

/** The daemon's CPU time so far (user + system), ms, from /proc; undefined elsewhere. */
function daemonCpuMs(pid: number): number | undefined {
  try {
    const fields = Deno.readTextFileSync(`/proc/${pid}/stat`).split(") ")[1].split(" ");
    // utime and stime are fields 14 and 15 of stat(5), in clock ticks (100 a second on Linux).
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return undefined;
  }
}

/** `calls` calls in `callers` loops; wall ms. */
async function side(socket: string, calls = callsPerSide): Promise<number> {
  let next = 0;
  const started = performance.now();
  await Promise.all(Array.from({ length: callers }, async () => {
    while (next < calls) {
      next++;
      await requestDaemon(socket, "call", { target: "fx.echo", arguments: { text: "hi" } });
    }
  }));
  return performance.now() - started;
}

/**
 * A reader that asks for every retained event and never reads: the daemon
 * writes until the socket's buffers are full, then its write waits.
 */
async function stalledReader(socket: string): Promise<Deno.Conn> {
  const conn = await Deno.connect({ transport: "unix", path: socket });
  await conn.write(
    new TextEncoder().encode("GET /v1/events?since=0 HTTP/1.1\r\nhost: mcpx\r\n\r\n"),
  );
  return conn;
}

/** The floor: an empty `deno run` of a file outside any deno.json, median of 5, ms. */
async function floorMs(): Promise<number> {
  await Deno.writeTextFile(`${tmp}/empty.ts`, "");
  const times: number[] = [];
  for (let i = 0; i < 5; i++) {
    const started = performance.now();
    await new Deno.Command(Deno.execPath(), { args: ["run", `${tmp}/empty.ts`], cwd: tmp })
      .output();
    times.push(performance.now() - started);
  }
  return median(times);
}

interface Round {
  a: { perS: number; cpuPerCallMs?: number };
  b: { perS: number; cpuPerCallMs?: number };
  ratio: number;
}

let pid = 0;
try {
  await run("call", "fx.echo", '{"text":"warm"}');
  const { daemons } = JSON.parse(await run("--json", "daemons")) as {
    daemons: { socket: string; pid: number }[];
  };
  const socket = daemons[0].socket;
  pid = daemons[0].pid;
  const floor = await floorMs();
  // Warm-up, and enough events retained (two a call, ~300 bytes each) that a reader from 0
  // leaves megabytes unread: far more than a unix socket's buffers hold.
  await side(socket, Math.max(callsPerSide, 3000));
  const measure = async (withReader: boolean) => {
    const reader = withReader ? await stalledReader(socket) : undefined;
    const cpuBefore = daemonCpuMs(pid);
    try {
      const wall = await side(socket);
      const cpuAfter = daemonCpuMs(pid);
      // The stalled reader was answered: the stream began (and stalled on its full socket).
      if (reader) {
        const head = new Uint8Array(64);
        const n = await reader.read(head);
        if (!new TextDecoder().decode(head.subarray(0, n ?? 0)).startsWith("HTTP/1.1 200")) {
          throw new Error("the stalled reader's GET /v1/events was not answered 200");
        }
      }
      return {
        perS: callsPerSide / (wall / 1000),
        ...(cpuBefore !== undefined && cpuAfter !== undefined
          ? { cpuPerCallMs: (cpuAfter - cpuBefore) / callsPerSide }
          : {}),
      };
    } finally {
      reader?.close();
    }
  };
  const results: Round[] = [];
  for (let i = 0; i < rounds; i++) {
    const a = await measure(false);
    const b = await measure(true);
    results.push({ a, b, ratio: b.perS / a.perS });
    log(`round ${i + 1}: ${a.perS.toFixed(0)} vs ${b.perS.toFixed(0)} calls/s`);
  }
  // The daemon still answers, and its bus still serves a reader that reads.
  await requestDaemon(socket, "health", {});
  const loadEnd = Deno.loadavg();
  const ratio = median(results.map((r) => r.ratio));
  const cpu = (pick: (r: Round) => number | undefined) => {
    const values = results.map(pick).filter((v): v is number => v !== undefined);
    return values.length ? `${median(values).toFixed(2)}` : "n/a";
  };
  const table = markdownTable(
    ["round", "A: no reader (calls/s)", "B: stalled reader (calls/s)", "B/A"],
    [
      ...results.map((r, i) => [
        String(i + 1),
        r.a.perS.toFixed(0),
        r.b.perS.toFixed(0),
        r.ratio.toFixed(3),
      ]),
      [
        "median",
        median(results.map((r) => r.a.perS)).toFixed(0),
        median(results.map((r) => r.b.perS)).toFixed(0),
        ratio.toFixed(3),
      ],
    ],
  );
  const verdict = ratio >= TARGET_RATIO ? "meets" : "misses";
  const report = [
    "# A stalled event reader against calls/s",
    "",
    `${callsPerSide} calls per side per round, ${callers} in flight, ${rounds} rounds (A B).`,
    "",
    table,
    "",
    `Median ratio ${ratio.toFixed(3)}: ${verdict} the target ${TARGET_RATIO}.`,
    `Daemon CPU per call (median, ms): A ${cpu((r) => r.a.cpuPerCallMs)}, B ${
      cpu((r) => r.b.cpuPerCallMs)
    } (/proc, 10 ms ticks).`,
    `Floor (empty deno run): ${floor.toFixed(1)} ms.`,
    loadNote(loadStart, loadEnd),
    "",
  ].join("\n");
  console.log(report);
  const path = await writeResults("events_stalled_reader", report, {
    rounds: results,
    ratio,
    target: TARGET_RATIO,
    callsPerSide,
    callers,
    floorMs: floor,
    loadStart,
    loadEnd,
  });
  log(`written: ${path}`);
} finally {
  await run("stop", "--all").catch(() => {});
  await Deno.remove(tmp, { recursive: true }).catch(() => {});
}
