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
import { markdownTable, median, ms, ratio } from "./stats.ts";
import { counter, helpAndExit, log } from "./_cli.ts";
import { ROOT } from "./_paths.ts";
import { syntheticLog } from "./_synthetic_log.ts";
import { openIngested } from "../logs/ingest.ts";
import { type CallsRow, callsView } from "../logs/stats.ts";
import { mcpxArgv } from "../dev/mcpx_argv.ts";

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
helpAndExit(flags.help, USAGE);
const count = counter(USAGE);
const total = count("records", flags.records, flags.quick ? 200_000 : 1_000_000);
const runs = count("runs", flags.runs, flags.quick ? 1 : 3);
const incrementalRuns = count("incremental-runs", flags["incremental-runs"], flags.quick ? 5 : 10);
const NEW_RECORDS = 1000;

// ---------------------------------------------------------------- the log

const tmp = await Deno.makeTempDir({ prefix: "mcpx-bench-log-" });
const state = `${tmp}/state`;
const dir = `${state}/logs`;
await Deno.mkdir(dir, { recursive: true });

log(`generating ${total.toLocaleString("en")} records in ${dir} …`);
const genStart = performance.now();
const synthetic = syntheticLog(dir);
synthetic.generate(total - synthetic.written);
let bytes = 0;
for (const e of Deno.readDirSync(dir)) bytes += Deno.statSync(`${dir}/${e.name}`).size;
log(
  `  ${synthetic.written.toLocaleString("en")} records, ${
    (bytes / 1024 / 1024).toFixed(0)
  } MiB in ${[...Deno.readDirSync(dir)].length} files (${
    ((performance.now() - genStart) / 1000).toFixed(1)
  } s)`,
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
const indexed = synthetic.written;

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
    args: mcpxArgv(args).slice(1),
    env,
    clearEnv: true,
    cwd: tmp,
    stdout: "piped",
    stderr: "piped",
  });
for (let i = 0; i < incrementalRuns; i++) {
  // In process: 1,000 new records, then ingest them and answer `stats calls`.
  synthetic.generate(NEW_RECORDS);
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
  synthetic.generate(NEW_RECORDS);
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
