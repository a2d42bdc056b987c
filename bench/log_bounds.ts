/**
 * What a flood makes mcpx write (issue 24, "Server log messages"; decision
 * 0063), measured in a world of its own:
 *
 * 1. A server (tests/fixtures/servers/misbehaving.ts `flood`) sends log
 *    messages as fast as it can for `--seconds` (default 15): the bytes of
 *    JSONL the daemon wrote, index.db once `mcpx log` has built it, and the
 *    log directory against `logging.maxDirSize`.
 * 2. A script prints `--lines` (default 200,000) console lines: the bytes of
 *    its run's log files against the bytes it printed.
 * 3. `mcpx log sql 'SELECT * FROM log'` on 100,000 synthetic records
 *    (bench/_synthetic_log.ts), rows unbounded: the bytes printed as `--json`
 *    and as a table against `log.sqlMaxBytes` (8 MiB).
 *
 * Each part runs in a bench world of its own (bench/_world.ts {@link createWorld}:
 * its own config and XDG folders, every process it starts stopped at the end).
 *
 * Run: `deno task bench:log-bounds [--seconds 15] [--lines 200000] [--bytes 200]`.
 *
 * @module
 */

import { parseArgs } from "node:util";
import { fixtureServer } from "../dev/fixture_servers.ts";
import { createWorld, type Exec, failed, mcpx, type World } from "./_world.ts";
import { syntheticLog } from "./_synthetic_log.ts";

const flags = parseArgs({
  options: {
    seconds: { type: "string", default: "15" },
    lines: { type: "string", default: "200000" },
    bytes: { type: "string", default: "200" },
  },
}).values;
const seconds = Number(flags.seconds);
const lines = Number(flags.lines);
const MB = 1_000_000;

function sizes(dir: string): { jsonl: number; index: number; total: number; files: string[] } {
  const out = { jsonl: 0, index: 0, total: 0, files: [] as string[] };
  try {
    for (const entry of Deno.readDirSync(dir)) {
      if (!entry.isFile) continue;
      const size = Deno.statSync(`${dir}/${entry.name}`).size;
      out.total += size;
      if (entry.name.endsWith(".jsonl")) {
        out.jsonl += size;
        out.files.push(entry.name);
      }
      if (entry.name.startsWith("index.db")) out.index += size;
    }
  } catch { /* none yet */ }
  return out;
}

const mb = (n: number) => `${(n / MB).toFixed(2)} MB`;

/**
 * Runs `measure` in a fresh bench world whose config holds `servers`, then
 * stops what it started and removes its folder, whether or not `measure` threw.
 */
async function inWorld(
  servers: Record<string, unknown>,
  measure: (w: World) => Promise<void>,
): Promise<void> {
  const w = await createWorld({ prefix: "mcpx_bench_log_bounds_" });
  try {
    await Deno.writeTextFile(w.configPath, JSON.stringify({ mcpServers: servers }, null, 2));
    await measure(w);
  } finally {
    await w.close();
  }
}

/** The world's mcpx directory of logs (its `XDG_STATE_HOME` is `<tmp>/state`). */
const logsOf = (w: World) => `${w.tmp}/state/mcpx/logs`;

/**
 * `mcpx <args>` in world `w`, bounded by `timeoutMs`.
 *
 * @throws {Error} When it exits other than 0 (its exit code and last lines).
 */
async function mcpxOk(w: World, args: string[], timeoutMs = 60_000): Promise<Exec> {
  const result = await w.exec(mcpx(...args), w.env, timeoutMs);
  if (result.code !== 0) throw new Error(`mcpx ${args.join(" ")}: ${failed(result)}`);
  return result;
}

await inWorld({
  flood: fixtureServer({ env: { MISBEHAVE_FLOOD: "1" }, mcpx: { logLevel: "info" } }),
}, async (w) => {
  const logs = logsOf(w);
  await mcpxOk(w, ["call", "flood.echo", '{"text":"warm"}']);
  const before = sizes(logs).jsonl;
  const args = JSON.stringify({ count: 1e12, bytes: Number(flags.bytes), ms: seconds * 1000 });
  const flood = await mcpxOk(
    w,
    ["call", "--timeout", `${seconds + 60}s`, "flood.flood", args],
    (seconds + 90) * 1000,
  );
  const sent = flood.stdout.trim();
  // The last window's summary is written when it ends.
  await new Promise((r) => setTimeout(r, 1500));
  const written = sizes(logs).jsonl - before;
  await mcpxOk(w, ["log", "-n", "1"]);
  const after = sizes(logs);
  console.log(
    `flood: ${seconds} s, ${sent} messages of ${flags.bytes} characters\n` +
      `  JSONL written: ${mb(written)}; index.db: ${mb(after.index)}; ` +
      `log directory: ${mb(after.total)} (default logging.maxDirSize: 268.44 MB)`,
  );
});

await inWorld({}, async (w) => {
  await Deno.writeTextFile(
    `${w.tmp}/lines.ts`,
    `for (let i = 0; i < ${lines}; i++) console.log("line " + i);\n`,
  );
  const logs = logsOf(w);
  const run = await mcpxOk(w, ["run", "./lines.ts"], 600_000);
  const printed = new TextEncoder().encode(run.stdout).length;
  const runFiles = sizes(logs);
  await mcpxOk(w, ["log", "-n", "1"]);
  const after = sizes(logs);
  console.log(
    `console: ${lines} lines, ${mb(printed)} printed\n` +
      `  run's JSONL: ${mb(runFiles.jsonl)} (${(runFiles.jsonl / printed).toFixed(2)}x); ` +
      `with index.db: ${mb(after.total)} (${(after.total / printed).toFixed(2)}x)`,
  );
});

await inWorld({}, async (w) => {
  const logs = logsOf(w);
  await Deno.mkdir(logs, { recursive: true, mode: 0o700 });
  syntheticLog(logs).generate(100_000);
  const flags = ["--log-sql-max-rows", "1000000", "--log-sql-timeout", "5m"];
  const query = "SELECT * FROM log";
  // Not held to exit 0: what each prints at log.sqlMaxBytes is the measure.
  const json = await w.exec(mcpx("--json", ...flags, "log", "sql", query), w.env, 600_000);
  const table = await w.exec(mcpx(...flags, "log", "sql", query), w.env, 600_000);
  const bytes = (text: string) => new TextEncoder().encode(text).length;
  console.log(
    `log sql: SELECT * FROM log on 100,000 records, log.sqlMaxBytes 8.39 MB\n` +
      `  --json printed ${mb(bytes(json.stdout))}; the table ${mb(bytes(table.stdout))}`,
  );
});
