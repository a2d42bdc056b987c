/**
 * `deno task bench:config`: how long loading a configuration takes as it
 * grows (issue 9, "Bounded, and not quadratic"), for 100, 1,000 and 10,000
 * servers, for this checkout (after) and an earlier revision (before, default
 * {@link ISSUE9_BASE}).
 *
 * Three measures per file and side, each in a process of its own:
 *
 * - **loader**: `loadConfig()` (config/load.ts) timed inside the process by
 *   bench/_config_probe.ts: read, fingerprint, parse, validate; no compiled
 *   configuration, so the text is parsed every time.
 * - **`mcpx config`** and **`mcpx ls`**: the whole command, timed from spawn to
 *   exit, with the compiled configuration deleted before each run (so the
 *   command parses the file, as its first run after an edit does). `ls` reads a
 *   schema cache the bench writes, in which every server is listed with one
 *   tool, so no server is started.
 *
 * A run that outlives `--limit` seconds is stopped and shown as `> limit`; the
 * rest of that cell's runs are skipped.
 *
 * Flags: --servers 100,1000,10000, --runs 3, --limit 120, --before <rev>, --skip-before, --help.
 *
 * @module
 */

import { parseArgs } from "node:util";
import { markdownTable, median } from "./stats.ts";
import { counter, helpAndExit, log } from "./_cli.ts";
import { ROOT } from "./_paths.ts";
import { writeResults } from "./_report.ts";
import { timedOutput } from "./_world.ts";
import { fingerprintFile } from "../config/fingerprint.ts";
import { chooseSides, scratch, SIDES_FLAGS, SIDES_USAGE, sidesNote, thisCommit } from "./_sides.ts";

const USAGE = `usage: deno task bench:config [options]

  --servers LIST   configuration sizes, comma-separated (default 100,1000,10000)
  --runs N         runs per cell; medians are shown (default 3)
  --limit S        seconds a run may take before it is stopped (default 120)
${SIDES_USAGE}`;

const { values: flags } = parseArgs({
  args: Deno.args,
  options: {
    servers: { type: "string", default: "100,1000,10000" },
    limit: { type: "string" },
    ...SIDES_FLAGS,
  },
});
helpAndExit(flags.help, USAGE);
const count = counter(USAGE);
const runs = count("runs", flags.runs, 3);
const limitMs = count("limit", flags.limit, 120) * 1000;
const sizes = flags.servers.split(",").map(Number);
if (sizes.some((n) => !Number.isInteger(n) || n < 1)) {
  console.error(
    `error: --servers wants counts like 100,1000,10000, got "${flags.servers}"\n\n${USAGE}`,
  );
  Deno.exit(2);
}

const { tmp, marker, cleanup, removeListeners } = await scratch("mcpx_bench_config_");

/** A configuration of `n` servers, each as a user would write one, with an `mcpx` block. */
function configText(n: number): string {
  const servers: Record<string, unknown> = {};
  for (let i = 0; i < n; i++) {
    servers[`server-${i}`] = {
      command: "npx",
      args: ["-y", `@example/mcp-server-${i}@1.0.0`, "--port", String(3000 + (i % 1000))],
      env: { LOG_LEVEL: "info" },
      mcpx: {
        description: `example server number ${i}`,
        tags: ["example", i % 2 ? "odd" : "even"],
        ...(i % 10 === 0 ? { sharing: "exclusive", scope: "session" } : {}),
      },
    };
  }
  return JSON.stringify({ mcpServers: servers }, null, 2) + "\n";
}

/**
 * Writes a schema cache listing every server with one tool, with the side's
 * own writer (engine/schema_cache.ts of its checkout), so each side reads
 * the layout it writes (a single file before decision 0028, an index and a
 * file per server since).
 */
async function writeSchemaCache(
  root: string,
  path: string,
  n: number,
  configPath: string,
): Promise<void> {
  const writer = await import(`${root}engine/schema_cache.ts`);
  const cache = writer.emptySchemaCache(configPath);
  const listedAt = new Date().toISOString();
  for (let i = 0; i < n; i++) {
    cache.servers[`server-${i}`] = {
      listedAt,
      serverInfo: { name: `example-${i}`, version: "1.0.0" },
      tools: [{ name: "echo", description: "Echoes", inputSchema: { type: "object" } }],
    };
  }
  await writer.writeSchemaCache(path, cache);
}

/** Milliseconds of a run, or `Infinity` when it was stopped at the limit. */
async function timed(
  argv: string[],
  env: Record<string, string>,
): Promise<{ ms: number; out: string }> {
  try {
    const { out: r, ms } = await timedOutput(argv, env, tmp, limitMs);
    const text = (b: Uint8Array) => new TextDecoder().decode(b);
    if (!r.success) {
      if (ms >= limitMs - 50) return { ms: Infinity, out: "" };
      throw new Error(`${argv.slice(-3).join(" ")}: exit ${r.code}: ${text(r.stderr).slice(-400)}`);
    }
    return { ms, out: text(r.stdout) };
  } catch (error) {
    if (error instanceof DOMException && error.name === "TimeoutError") {
      return { ms: Infinity, out: "" };
    }
    if ((error as Error).name === "AbortError") return { ms: Infinity, out: "" };
    throw error;
  }
}

/** Up to `runs` times of `measure`, stopping after a run that hit the limit. */
async function cell(what: string, measure: () => Promise<number>): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    log(`${what}, run ${i + 1} of ${runs}`);
    const ms = await measure();
    times.push(ms);
    if (!Number.isFinite(ms)) break;
  }
  return times;
}

const msText = (values: number[]) => {
  if (values.length === 0) return "—";
  if (values.some((v) => !Number.isFinite(v))) return `> ${limitMs / 1000} s`;
  const m = median(values);
  return m >= 1000 ? `${(m / 1000).toFixed(2)} s` : `${m.toFixed(0)} ms`;
};

try {
  const sides = await chooseSides(flags, tmp, marker);

  type Times = { loader: number[]; config: number[]; ls: number[] };
  const results: Record<string, Record<number, Times>> = {};
  const fileBytes: Record<number, number> = {};
  for (const n of sizes) {
    const file = `${tmp}/servers-${n}.json`;
    const text = configText(n);
    await Deno.writeTextFile(file, text);
    fileBytes[n] = new TextEncoder().encode(text).length;
    // The key of the schema cache `ls` reads; fingerprinting is the same code on both sides.
    const { fingerprint } = await fingerprintFile(file, { env: {} });
    for (const s of sides) {
      const env = s.env({ MCPX_CONFIG: file });
      const cacheDir = `${env.XDG_CACHE_HOME}/mcpx`;
      const probe = [
        Deno.execPath(),
        "run",
        "-A",
        "--config",
        `${s.root}deno.json`,
        `${ROOT}bench/_config_probe.ts`,
        s.root,
        file,
      ];
      const loader = await cell(`${s.name}: loader, ${n} servers`, async () => {
        const r = await timed(probe, env);
        if (!Number.isFinite(r.ms)) return Infinity;
        const line = JSON.parse(r.out);
        if (line.servers !== n) {
          throw new Error(`${s.name}: loaded ${line.servers} servers, not ${n}`);
        }
        if (line.fingerprint !== fingerprint) throw new Error(`${s.name}: another fingerprint`);
        return line.ms;
      });
      // Every server listed already, so `ls` starts nothing.
      await Deno.mkdir(cacheDir, { recursive: true });
      await writeSchemaCache(s.root, `${cacheDir}/schemas-${fingerprint}.json`, n, file);
      const cold = async (...args: string[]) => {
        try {
          for (const entry of Deno.readDirSync(cacheDir)) {
            if (/^config-.*\.json$/.test(entry.name)) Deno.removeSync(`${cacheDir}/${entry.name}`);
          }
        } catch { /* no cache folder yet */ }
        return (await timed(s.mcpx(...args), env)).ms;
      };
      const config = await cell(`${s.name}: mcpx config, ${n} servers`, () => cold("config"));
      const ls = await cell(`${s.name}: mcpx ls, ${n} servers`, () => cold("ls"));
      (results[s.name] ??= {})[n] = { loader, config, ls };
    }
  }

  const rows = sizes.map((n) => [
    n.toLocaleString("en-US"),
    `${(fileBytes[n] / 1024 / 1024).toFixed(2)}`,
    ...sides.flatMap((s) => {
      const t = results[s.name][n];
      return [msText(t.loader), msText(t.config), msText(t.ls)];
    }),
  ]);
  const header = [
    "servers",
    "file MiB",
    ...sides.flatMap((s) => [`${s.name}: loader`, `${s.name}: mcpx config`, `${s.name}: mcpx ls`]),
  ];
  const commit = await thisCommit();
  const lines = [
    `# bench:config — ${new Date().toISOString()}`,
    "",
    sidesNote(commit, flags, runs),
    "",
    markdownTable(header, rows),
    "",
  ];
  const after = results.after;
  const pairs = sizes.filter((n) => sizes.includes(n * 10));
  for (const n of pairs) {
    for (const key of ["loader", "config", "ls"] as const) {
      const small = median(after[n][key]);
      const large = median(after[n * 10][key]);
      if (!Number.isFinite(small) || !Number.isFinite(large)) continue;
      const r = large / small;
      lines.push(
        `- ${r <= 12 ? "PASS" : "MISS"}: after, ${key}: ${(n * 10).toLocaleString("en-US")} ` +
          `servers take ${r.toFixed(2)}× the time of ${n.toLocaleString("en-US")} (at most 12×)`,
      );
    }
  }
  const report = lines.join("\n") + "\n";
  console.log(report);
  await writeResults("config_load", report, {
    commit,
    before: flags.before,
    runs,
    limitMs,
    fileBytes,
    results,
  });
} finally {
  removeListeners();
  await cleanup();
}
