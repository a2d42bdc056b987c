/**
 * Lease acquisition overhead inside the daemon: the time from `Pool.lease()`
 * being called to the lease being granted, for a warm shared instance and a
 * warm exclusive one (issue 4, "Tests and measurements": target under 1 ms,
 * reported as a median over 1,000 leases). Runs a real pool in process with
 * the stateful fixture server (tests/fixtures/servers/stateful.ts), so no
 * socket, HTTP or MCP round trip is counted: that is what `call.end`'s
 * `leaseMs` attribute measures in a running daemon.
 *
 * Usage: `deno run -A bench/lease.ts [--leases 1000] [--json]`.
 *
 * @module
 */

import { parseArgs } from "node:util";
import { loadConfig } from "../config/load.ts";
import { Pool } from "../engine/pool.ts";
import { percentile, summarize } from "./stats.ts";
import { ROOT } from "./_paths.ts";

const { values } = parseArgs({
  args: Deno.args,
  options: { leases: { type: "string", default: "1000" }, json: { type: "boolean" } },
});
const leases = Number(values.leases);
if (!Number.isInteger(leases) || leases < 1) {
  console.error(`error: --leases wants an integer ≥ 1, got "${values.leases}"`);
  Deno.exit(2);
}

const tmp = await Deno.makeTempDir({ prefix: "mcpx-bench-lease-" });
const server = (sharing: string) => ({
  command: Deno.execPath(),
  args: ["run", "-A", "--config", `${ROOT}deno.json`, `${ROOT}tests/fixtures/servers/stateful.ts`],
  mcpx: { sharing, scope: "session", max: 4 },
});
await Deno.writeTextFile(
  `${tmp}/mcp.json`,
  JSON.stringify({ mcpServers: { shared: server("shared"), exclusive: server("exclusive") } }),
);
const env = Deno.env.toObject();
const config = await loadConfig({ cwd: tmp, env, path: `${tmp}/mcp.json` });

interface Row {
  sharing: string;
  leases: number;
  medianMs: number;
  p90Ms: number;
  p99Ms: number;
  maxMs: number;
}

const rows: Row[] = [];
try {
  for (const spec of config.servers) {
    const pool = new Pool(spec, env);
    try {
      const ctx = { session: "bench" };
      await pool.ensure(ctx); // warm: the instance is started and initialized
      for (let i = 0; i < 100; i++) (await pool.lease(ctx)).release(); // JIT warm-up
      const times: number[] = [];
      for (let i = 0; i < leases; i++) {
        const asked = performance.now();
        const lease = await pool.lease(ctx);
        times.push(performance.now() - asked);
        lease.release();
      }
      const s = summarize(times);
      rows.push({
        sharing: spec.pool.sharing,
        leases,
        medianMs: s.median,
        p90Ms: s.p90,
        p99Ms: percentile(times, 99),
        maxMs: s.max,
      });
    } finally {
      await pool.stop("stop");
    }
  }
} finally {
  await Deno.remove(tmp, { recursive: true });
}

if (values.json) {
  console.log(JSON.stringify({ target: "median < 1 ms", rows }, null, 2));
} else {
  const us = (ms: number) => `${(ms * 1000).toFixed(1)} µs`;
  console.log(
    `lease acquisition on a warm instance, ${leases} leases each (target: median < 1 ms)`,
  );
  console.log("| sharing | median | p90 | p99 | max |");
  console.log("| --- | --- | --- | --- | --- |");
  for (const r of rows) {
    console.log(
      `| ${r.sharing} | ${us(r.medianMs)} | ${us(r.p90Ms)} | ${us(r.p99Ms)} | ${us(r.maxMs)} |`,
    );
  }
}
