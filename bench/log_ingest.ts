/**
 * `deno task bench:log`: the log index against `jq` on the same JSONL files.
 * See bench/README.md ("The log index") for what is measured.
 *
 * 1. Generates a log of N records (default 1,000,000) the way the daemon
 *    writes them: three daemons writing at once, each with a few servers,
 *    call.start/call.end pairs with varied durations, 3% failed calls,
 *    sessions, server starts and exits.
 * 2. Cold ingest: index.db deleted, then `openIngested()` (records/s).
 * 3. Incremental: 1,000 new records appended, then ingest + `stats calls`
 *    in process, and the whole `mcpx stats calls` command as a process.
 * 4. jq: the same aggregation (per server and tool: count, errors, exact
 *    nearest-rank p50/p95/p99, max) over the files; jq has no index, so it
 *    reads everything every time. Its answer is checked against mcpx's.
 *
 * Flags: --records N, --runs N (cold and jq runs, default 3), --incremental-runs N
 * (default 10), --quick (200,000 records, 1 run, 5 incremental runs), --keep, --help.
 *
 * @module
 */

import { parseArgs } from "node:util";
import { fileURLToPath } from "node:url";
import { markdownTable, median, ms, ratio } from "./stats.ts";
import {
  encodeRecord,
  type Level,
  type LogRecord,
  recordIds,
  renderTemplate,
} from "../logs/record.ts";
import { openIngested } from "../logs/ingest.ts";
import { type CallsRow, callsView } from "../logs/stats.ts";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const USAGE =
  `usage: deno task bench:log [--records N] [--runs N] [--incremental-runs N] [--quick] [--keep]

  --records N            records in the generated log (default 1000000)
  --runs N               cold-ingest and jq runs (default 3)
  --incremental-runs N   incremental runs of 1,000 new records (default 10)
  --quick                --records 200000 --runs 1 --incremental-runs 5
  --keep                 keep the generated folder and print its path
`;

const { values: flags } = parseArgs({
  args: Deno.args,
  options: {
    records: { type: "string" },
    runs: { type: "string" },
    "incremental-runs": { type: "string" },
    quick: { type: "boolean" },
    keep: { type: "boolean" },
    help: { type: "boolean", short: "h" },
  },
});
if (flags.help) {
  console.log(USAGE);
  Deno.exit(0);
}
function count(name: string, value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) {
    console.error(`error: --${name} wants an integer ≥ 1, got "${value}"\n\n${USAGE}`);
    Deno.exit(2);
  }
  return n;
}
const total = count("records", flags.records, flags.quick ? 200_000 : 1_000_000);
const runs = count("runs", flags.runs, flags.quick ? 1 : 3);
const incrementalRuns = count("incremental-runs", flags["incremental-runs"], flags.quick ? 5 : 10);
const NEW_RECORDS = 1000;
const log = (line: string) => console.error(line);

// ---------------------------------------------------------------- the log

const tmp = await Deno.makeTempDir({ prefix: "mcpx-bench-log-" });
const state = `${tmp}/state`;
const dir = `${state}/logs`;
await Deno.mkdir(dir, { recursive: true });

/** One daemon writing its files, rotated at 10 MiB as the daemon's writer does. */
class Writer {
  #name: string;
  #seq = 0;
  #size = 0;
  #chunks: string[] = [];
  #next = recordIds();
  constructor(name: string) {
    this.#name = name;
  }
  write(r: Omit<LogRecord, "id" | "msg">): void {
    const line = encodeRecord({ ...r, id: this.#next(), msg: renderTemplate(r.template, r.attrs) });
    if (this.#size + line.length > 10 * 1024 * 1024) this.flush(true);
    this.#chunks.push(line);
    this.#size += line.length;
  }
  flush(rotate = false): void {
    if (this.#chunks.length) {
      Deno.writeTextFileSync(this.path, this.#chunks.join(""), { append: true });
      this.#chunks = [];
    }
    if (rotate) {
      this.#seq++;
      this.#size = 0;
    }
  }
  get path(): string {
    return `${dir}/2026-10-01_${this.#name}_${this.#seq}.jsonl`;
  }
}

/** mulberry32: a small seeded generator, so every run writes the same log. */
let seed = 42;
const random = () => {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};
const hex = (n: number) =>
  Array.from({ length: n }, () => Math.floor(random() * 16).toString(16)).join("");

interface Daemon {
  writer: Writer;
  span: string;
  servers: { name: string; tools: string[]; instance: string; pid: number; base: number }[];
}

let clock = Date.parse("2026-10-01T00:00:00.000Z");
let written = 0;
function record(
  d: Daemon,
  level: Level,
  event: string,
  template: string,
  attrs: Record<string, unknown>,
  span: string,
  parent?: string,
): void {
  d.writer.write({
    time: new Date(clock).toISOString(),
    level,
    event,
    template,
    span,
    ...(parent ? { parent } : {}),
    attrs,
  });
  written++;
}

function startDaemon(i: number): Daemon {
  const names = [["fs", "git", "memory"], ["browser", "search"], ["db", "http", "shell"]][i];
  const tools: Record<string, string[]> = {
    fs: ["read_file", "write_file", "list_directory", "search_files"],
    git: ["status", "diff", "log", "commit"],
    memory: ["read_graph", "create_entities", "search_nodes"],
    browser: ["navigate", "click", "take_screenshot", "evaluate_script"],
    search: ["web_search", "fetch"],
    db: ["query", "list_tables"],
    http: ["get", "post"],
    shell: ["run"],
  };
  const d: Daemon = {
    writer: new Writer(`daemon-${hex(8)}-${1000 + i}`),
    span: `dmn-${hex(12)}`,
    servers: [],
  };
  record(d, "info", "daemon.start", "daemon {pid} started for {config}", {
    pid: 1000 + i,
    version: "0.1.0",
    mode: "auto",
    config: `/home/ada/project${i}/.mcp.json`,
  }, d.span);
  for (const name of names) {
    const server = {
      name,
      tools: tools[name],
      instance: `ins-${hex(12)}`,
      pid: 2000 + Math.floor(random() * 30000),
      base: 2 + random() * 200,
    };
    d.servers.push(server);
    record(
      d,
      "info",
      "server.start",
      "server {server} started as pid {pid} for {key} in {startMs} ms",
      {
        server: name,
        namespace: name,
        pid: server.pid,
        key: "global",
        transport: "stdio",
        command: `npx -y @example/${name}-server`,
        startMs: Math.round(200 + random() * 600),
      },
      server.instance,
      d.span,
    );
  }
  return d;
}

function call(d: Daemon): void {
  const s = d.servers[Math.floor(random() * d.servers.length)];
  const tool = s.tools[Math.floor(random() * s.tools.length)];
  const span = `cal-${hex(12)}`;
  const session = `s${Math.floor(random() * 40)}`;
  const about = {
    namespace: s.name,
    tool,
    server: s.name,
    session,
    bytesIn: 20 + Math.floor(random() * 400),
  };
  record(
    d,
    "info",
    "call.start",
    "{namespace}.{tool} called on {instance} ({key})",
    {
      ...about,
      key: "global",
      instance: s.instance,
      pid: s.pid,
      leaseMs: 0.1,
    },
    span,
    s.instance,
  );
  // Durations: the server's base times a long-tailed factor, to 0.1 ms.
  const duration = Math.round(s.base * (0.5 + -Math.log(1 - random() * 0.999)) * 10) / 10;
  clock += Math.ceil(duration);
  const end = { ...about, key: "global", instance: s.instance, ms: duration, leaseMs: 0.1 };
  if (random() < 0.03) {
    const error = `${s.name}.${tool} did not answer within ${
      Math.round(duration)
    } ms (callTimeout); the request was cancelled`;
    record(d, "warn", "call.end", "{namespace}.{tool} failed after {ms} ms: {error}", {
      ...end,
      ok: false,
      error,
      bytesOut: 0,
    }, span);
  } else {
    record(d, "info", "call.end", "{namespace}.{tool} answered in {ms} ms", {
      ...end,
      ok: true,
      bytesOut: 50 + Math.floor(random() * 20000),
    }, span);
  }
}

function restart(d: Daemon): void {
  const s = d.servers[Math.floor(random() * d.servers.length)];
  const why = random() < 0.3 ? "crash" : "idle";
  record(d, why === "crash" ? "warn" : "info", "server.exit", "server {server} exited ({why})", {
    server: s.name,
    pid: s.pid,
    key: "global",
    why,
    ...(why === "crash" ? { signal: "SIGKILL" } : { code: 0 }),
    uptimeMs: 3_600_000,
    calls: 100,
  }, s.instance);
  s.instance = `ins-${hex(12)}`;
  s.pid = 2000 + Math.floor(random() * 30000);
  record(
    d,
    "info",
    "server.start",
    "server {server} started as pid {pid} for {key} in {startMs} ms",
    {
      server: s.name,
      namespace: s.name,
      pid: s.pid,
      key: "global",
      transport: "stdio",
      command: `npx -y @example/${s.name}-server`,
      startMs: Math.round(200 + random() * 600),
    },
    s.instance,
    d.span,
  );
}

/** Appends `n` records (about n/2 calls) across the daemons, time moving forward. */
function generate(daemons: Daemon[], n: number): void {
  const target = written + n;
  while (written < target - 1) {
    const d = daemons[Math.floor(random() * daemons.length)];
    clock += Math.floor(random() * 20);
    if (random() < 0.0005) restart(d);
    else call(d);
  }
  while (written < target) {
    record(
      daemons[0],
      "debug",
      "daemon.tick",
      "reaper checked {n} pools",
      { n: 3 },
      daemons[0].span,
    );
  }
  for (const d of daemons) d.writer.flush();
}

log(`generating ${total.toLocaleString("en")} records in ${dir} …`);
const genStart = performance.now();
const daemons = [0, 1, 2].map(startDaemon);
generate(daemons, total - written);
let bytes = 0;
for (const e of Deno.readDirSync(dir)) bytes += Deno.statSync(`${dir}/${e.name}`).size;
log(
  `  ${written.toLocaleString("en")} records, ${(bytes / 1024 / 1024).toFixed(0)} MiB in ${
    [...Deno.readDirSync(dir)].length
  } files (${((performance.now() - genStart) / 1000).toFixed(1)} s)`,
);

// ---------------------------------------------------------------- mcpx

function removeIndex(): void {
  for (const f of ["index.db", "index.db-journal"]) {
    try {
      Deno.removeSync(`${dir}/${f}`);
    } catch { /* absent */ }
  }
}

const coldMs: number[] = [];
for (let i = 0; i < runs; i++) {
  removeIndex();
  const t0 = performance.now();
  const { db, ingested } = openIngested(dir);
  const elapsed = performance.now() - t0;
  db.close();
  coldMs.push(elapsed);
  log(
    `cold ingest ${i + 1}/${runs}: ${ingested.records.toLocaleString("en")} records in ${
      ms(elapsed)
    } ms (${Math.round(ingested.records / (elapsed / 1000)).toLocaleString("en")} records/s)`,
  );
}
const indexed = written;

const queryMs: number[] = [];
const incrementalMs: number[] = [];
const incrementalIngestMs: number[] = [];
const cliMs: number[] = [];
let mcpxRows: CallsRow[] = [];
const env: Record<string, string> = {
  ...Deno.env.toObject(),
  MCPX_STATE_DIR: state,
  NO_COLOR: "1",
};
delete env.MCPX_PATHS_STATE;
const cli = (args: string[]) =>
  new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--config", `${ROOT}deno.json`, `${ROOT}cli/main.ts`, ...args],
    env,
    clearEnv: true,
    cwd: tmp,
    stdout: "piped",
    stderr: "piped",
  });
for (let i = 0; i < incrementalRuns; i++) {
  // In process: 1,000 new records, then ingest them and answer `stats calls`.
  generate(daemons, NEW_RECORDS);
  const t0 = performance.now();
  const { db, ingested } = openIngested(dir);
  const t1 = performance.now();
  mcpxRows = callsView(db);
  const t2 = performance.now();
  db.close();
  if (ingested.records !== NEW_RECORDS) {
    throw new Error(`incremental ingest read ${ingested.records} records, expected ${NEW_RECORDS}`);
  }
  incrementalIngestMs.push(t1 - t0);
  queryMs.push(t2 - t1);
  incrementalMs.push(t2 - t0);
  // As a command: 1,000 more, then the whole `mcpx stats calls --json` process.
  generate(daemons, NEW_RECORDS);
  const c0 = performance.now();
  const out = await cli(["stats", "calls", "--json"]).output();
  cliMs.push(performance.now() - c0);
  if (out.code !== 0) {
    throw new Error(`mcpx stats calls failed:\n${new TextDecoder().decode(out.stderr)}`);
  }
  // The command saw every record written so far: its answer is what jq must match.
  mcpxRows = JSON.parse(new TextDecoder().decode(out.stdout)).rows;
}
log(
  `incremental (${NEW_RECORDS} new records) + stats calls, in process: median ${
    ms(median(incrementalMs))
  } ms; as a command: median ${ms(median(cliMs))} ms`,
);

// ---------------------------------------------------------------- jq

const JQ_EXTRACT =
  `select(.event == "call.end") | [.attrs.server, .attrs.tool, .attrs.ms, .attrs.ok]`;
const JQ_AGGREGATE = `group_by(.[0], .[1]) | map(
  (map(.[2]) | sort) as $ms | ($ms | length) as $n |
  def at(p): $ms[((p * $n / 100) | ceil) - 1];
  { server: .[0][0], tool: .[0][1], calls: length, errors: (map(select(.[3] == false)) | length),
    p50: at(50), p95: at(95), p99: at(99), max: $ms[-1] })`;
const jqPath = (() => {
  try {
    const out = new Deno.Command("sh", { args: ["-c", "command -v jq"], stdout: "piped" })
      .outputSync();
    return out.code === 0 ? new TextDecoder().decode(out.stdout).trim() : undefined;
  } catch {
    return undefined;
  }
})();
const jqMs: number[] = [];
let jqRows: Omit<CallsRow, "namespace">[] = [];
let jqVersion = "";
if (jqPath) {
  jqVersion = new TextDecoder().decode(
    new Deno.Command(jqPath, { args: ["--version"], stdout: "piped" }).outputSync().stdout,
  ).trim();
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    const out = await new Deno.Command("sh", {
      args: [
        "-c",
        `cat "$1"/*.jsonl | "$2" -c "$3" | "$2" -s -c "$4"`,
        "sh",
        dir,
        jqPath,
        JQ_EXTRACT,
        JQ_AGGREGATE,
      ],
      stdout: "piped",
      stderr: "piped",
    }).output();
    const elapsed = performance.now() - t0;
    if (out.code !== 0) throw new Error(`jq failed:\n${new TextDecoder().decode(out.stderr)}`);
    jqRows = JSON.parse(new TextDecoder().decode(out.stdout));
    jqMs.push(elapsed);
    log(`jq ${i + 1}/${runs}: ${ms(elapsed)} ms`);
  }
} else {
  log("jq is not installed (apt-get install -y jq): its column is left empty");
}

// The two must agree, or the comparison means nothing.
let agree = "not checked (no jq)";
if (jqPath) {
  const key = (r: { server: string; tool: string }) => `${r.server}.${r.tool}`;
  const mine = new Map(mcpxRows.map((r) => [key(r), r]));
  const wrong = jqRows.filter((j) => {
    const m = mine.get(key(j));
    return !m || m.calls !== j.calls || m.errors !== j.errors || m.p50 !== j.p50 ||
      m.p95 !== j.p95 || m.p99 !== j.p99 || m.max !== j.max;
  });
  agree = wrong.length === 0 && jqRows.length === mcpxRows.length
    ? `yes: ${jqRows.length} server/tool rows, identical counts, errors and percentiles`
    : `NO: ${wrong.length} of ${jqRows.length} rows differ, e.g. ${JSON.stringify(wrong[0])} vs ${
      JSON.stringify(mine.get(key(wrong[0] ?? { server: "", tool: "" })))
    }`;
}

// ---------------------------------------------------------------- report

const coldRate = indexed / (median(coldMs) / 1000);
const jqMedian = jqMs.length ? median(jqMs) : undefined;
const rows = [
  [
    "cold ingest of the whole log",
    ms(median(coldMs)),
    `${Math.round(coldRate).toLocaleString("en")} records/s`,
  ],
  ["incremental ingest of 1,000 new records", ms(median(incrementalIngestMs)), ""],
  ["stats calls query (after ingest)", ms(median(queryMs)), ""],
  ["incremental ingest + stats calls", ms(median(incrementalMs)), ""],
  [
    "`mcpx stats calls --json` as a command (incremental)",
    ms(median(cliMs)),
    "process start included",
  ],
  [
    "jq: the same aggregation over the files",
    jqMedian === undefined ? "n/a" : ms(jqMedian),
    jqVersion || "jq not installed",
  ],
];
const pass = (ok: boolean) => (ok ? "PASS" : "MISS");
/** `a ÷ b` with two significant digits, so 0.0035× does not print as 0.00×. */
function fraction(a: number, b: number | undefined): string {
  if (b === undefined || !Number.isFinite(a) || !Number.isFinite(b) || b === 0) return "—";
  return `${Number((a / b).toPrecision(2))}×`;
}
const load = Deno.loadavg();
const report = [
  `# Log index: ${indexed.toLocaleString("en")} records, ${
    (bytes / 1024 / 1024).toFixed(0)
  } MiB of JSONL`,
  "",
  markdownTable(["measure", "median ms", "note"], rows),
  "",
  "## Against jq",
  "",
  markdownTable(
    ["job", "mcpx median ms", "jq median ms", "mcpx ÷ jq", "jq ÷ mcpx"],
    [
      ["cold: ingest everything, then stats calls", median(coldMs) + median(queryMs)],
      ["incremental: ingest 1,000 new records, then stats calls", median(incrementalMs)],
      ["`mcpx stats calls --json` as a command, incremental", median(cliMs)],
    ].map(([job, mine]) => [
      job as string,
      ms(mine as number),
      jqMedian === undefined ? "n/a" : ms(jqMedian),
      fraction(mine as number, jqMedian),
      ratio(jqMedian, mine as number),
    ]),
  ),
  "",
  "jq has no index: it reads every file for every answer, so its time is the same in each row.",
  "",
  `Same answer as jq: ${agree}.`,
  "",
  "## Targets",
  "",
  `- incremental ingest + query under 100 ms: ${ms(median(incrementalMs))} ms, ${
    pass(median(incrementalMs) < 100)
  }`,
  `- cold ingest over 100,000 records/s: ${Math.round(coldRate).toLocaleString("en")} records/s, ${
    pass(coldRate > 100_000)
  }`,
  "",
  `Runs: ${runs} cold and jq, ${incrementalRuns} incremental. Load average before/after: ${
    load.map((l) => l.toFixed(2)).join(" ")
  } on ${navigator.hardwareConcurrency} CPUs (a busy machine slows every column).`,
].join("\n");
console.log(report);
try {
  await Deno.writeTextFile(
    `${ROOT}bench/results/log_ingest.json`,
    JSON.stringify(
      {
        date: new Date().toISOString(),
        records: indexed,
        bytes,
        runs,
        incrementalRuns,
        coldMs,
        coldRecordsPerSecond: coldRate,
        incrementalIngestMs,
        queryMs,
        incrementalMs,
        cliMs,
        jq: jqPath ? { version: jqVersion, ms: jqMs } : null,
        agree,
        load,
      },
      null,
      2,
    ) + "\n",
  );
} catch { /* results are optional */ }
if (flags.keep) log(`kept ${tmp}`);
else await Deno.remove(tmp, { recursive: true });
