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
 * Run: `deno task bench:log-bounds [--seconds 15] [--lines 200000] [--bytes 200]`.
 *
 * @module
 */

import { parseArgs } from "node:util";
import { fixtureServer, world } from "../tests/_helpers.ts";
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

{
  await using w = await world();
  await w.writeConfig({
    mcpServers: {
      flood: fixtureServer({ env: { MISBEHAVE_FLOOD: "1" }, mcpx: { logLevel: "info" } }),
    },
  });
  const logs = `${w.dir}/.state/mcpx/logs`;
  const warm = await w.mcpx(["call", "flood.echo", '{"text":"warm"}']);
  if (warm.code !== 0) throw new Error(warm.stderr);
  const before = sizes(logs).jsonl;
  const args = JSON.stringify({ count: 1e12, bytes: Number(flags.bytes), ms: seconds * 1000 });
  const flood = await w.mcpx(["call", "--timeout", `${seconds + 60}s`, "flood.flood", args]);
  if (flood.code !== 0) throw new Error(flood.stderr);
  const sent = flood.stdout.trim();
  // The last window's summary is written when it ends.
  await new Promise((r) => setTimeout(r, 1500));
  const written = sizes(logs).jsonl - before;
  const ingest = await w.mcpx(["log", "-n", "1"]);
  if (ingest.code !== 0) throw new Error(ingest.stderr);
  const after = sizes(logs);
  console.log(
    `flood: ${seconds} s, ${sent} messages of ${flags.bytes} characters\n` +
      `  JSONL written: ${mb(written)}; index.db: ${mb(after.index)}; ` +
      `log directory: ${mb(after.total)} (default logging.maxDirSize: 268.44 MB)`,
  );
}

{
  await using w = await world();
  await w.writeConfig({ mcpServers: {} });
  await Deno.writeTextFile(
    `${w.dir}/lines.ts`,
    `for (let i = 0; i < ${lines}; i++) console.log("line " + i);\n`,
  );
  const logs = `${w.dir}/.state/mcpx/logs`;
  const run = await w.mcpx(["run", "./lines.ts"], { timeoutMs: 600_000 });
  if (run.code !== 0) throw new Error(run.stderr);
  const printed = new TextEncoder().encode(run.stdout).length;
  const runFiles = sizes(logs);
  const ingest = await w.mcpx(["log", "-n", "1"]);
  if (ingest.code !== 0) throw new Error(ingest.stderr);
  const after = sizes(logs);
  console.log(
    `console: ${lines} lines, ${mb(printed)} printed\n` +
      `  run's JSONL: ${mb(runFiles.jsonl)} (${(runFiles.jsonl / printed).toFixed(2)}x); ` +
      `with index.db: ${mb(after.total)} (${(after.total / printed).toFixed(2)}x)`,
  );
}

{
  await using w = await world();
  await w.writeConfig({ mcpServers: {} });
  const logs = `${w.dir}/.state/mcpx/logs`;
  await Deno.mkdir(logs, { recursive: true, mode: 0o700 });
  syntheticLog(logs).generate(100_000);
  const flags = ["--log-sql-max-rows", "1000000", "--log-sql-timeout", "5m"];
  const query = "SELECT * FROM log";
  const json = await w.mcpx(["--json", ...flags, "log", "sql", query], { timeoutMs: 600_000 });
  const table = await w.mcpx([...flags, "log", "sql", query], { timeoutMs: 600_000 });
  const bytes = (text: string) => new TextEncoder().encode(text).length;
  console.log(
    `log sql: SELECT * FROM log on 100,000 records, log.sqlMaxBytes 8.39 MB\n` +
      `  --json printed ${mb(bytes(json.stdout))}; the table ${mb(bytes(table.stdout))}`,
  );
}
