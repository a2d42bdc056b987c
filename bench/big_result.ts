/**
 * `deno task bench:big-result`: how long `mcpx call` takes to print a large
 * tool result, and how much memory the daemon needs for it (issue 9,
 * "Bounded, and not quadratic"), for this checkout (after) and an earlier
 * revision (before, default {@link ISSUE9_BASE}), next to `cat` printing the
 * same bytes from a file.
 *
 * The server is tests/fixtures/servers/big_result.ts (`text {bytes}`: that
 * many bytes of ASCII) from this checkout, for both sides. Each measurement
 * starts a fresh daemon (`mcpx stop`, then a 2 MiB call that starts the
 * daemon and the server and takes the path a large answer takes once), waits
 * 1 s, reads the daemon's `VmRSS` (idle), then
 * times `mcpx call big.text '{"bytes":N}'` with its stdout read by the bench
 * and checked byte for byte, and reads the daemon's `VmHWM` (its peak
 * resident memory since it started). Growth = peak − idle: what the result
 * cost the daemon. The CLI's own peak is `/usr/bin/time -f %M` when that
 * exists.
 *
 * Flags: --sizes 8,32,64 (MiB), --runs 3, --before <rev>, --skip-before, --help.
 *
 * @module
 */

import { parseArgs } from "node:util";
import { markdownTable, median } from "./stats.ts";
import { counter, helpAndExit, log } from "./_cli.ts";
import { procStatusKiB } from "./_memory.ts";
import { sleep } from "./_processes.ts";
import { writeResults } from "./_report.ts";
import { timedOutput } from "./_world.ts";
import {
  chooseSides,
  scratch,
  type Side,
  SIDES_FLAGS,
  SIDES_USAGE,
  sidesNote,
  thisCommit,
} from "./_sides.ts";
import { bigText } from "../dev/big_text.ts";
import { fixtureServer } from "../dev/fixture_servers.ts";

const USAGE = `usage: deno task bench:big-result [options]

  --sizes LIST     result sizes in MiB, comma-separated (default 8,32,64)
  --runs N         measurements per size and side; medians are shown (default 3)
${SIDES_USAGE}`;

const { values: flags } = parseArgs({
  args: Deno.args,
  options: {
    sizes: { type: "string", default: "8,32,64" },
    ...SIDES_FLAGS,
  },
});
helpAndExit(flags.help, USAGE);
const runs = counter(USAGE)("runs", flags.runs, 3);
const sizes = flags.sizes.split(",").map(Number);
if (sizes.some((n) => !Number.isFinite(n) || n <= 0)) {
  console.error(`error: --sizes wants MiB like 8,32,64, got "${flags.sizes}"\n\n${USAGE}`);
  Deno.exit(2);
}

const MiB = 1 << 20;
/** The call that starts each daemon before it is measured: 2 MiB. */
const WARM_BYTES = 2 * MiB;
const TIME = "/usr/bin/time";
const hasTime = (() => {
  try {
    return Deno.statSync(TIME).isFile;
  } catch {
    return false;
  }
})();

const sides: Side[] = [];
const { tmp, marker, cleanup, removeListeners } = await scratch("mcpx_bench_big_", async () => {
  for (const s of sides) await exec(s.mcpx("stop"), s.env(), 30_000).catch(() => {});
});

interface Exec {
  code: number;
  stdout: Uint8Array;
  stderr: string;
  ms: number;
}

/** Runs `argv`, its stdout read whole by the bench, and times it from spawn to exit. */
async function exec(argv: string[], env: Record<string, string>, timeoutMs = 600_000) {
  const { out, ms } = await timedOutput(argv, env, tmp, timeoutMs);
  return { code: out.code, stdout: out.stdout, stderr: new TextDecoder().decode(out.stderr), ms };
}

const lastLines = (r: Exec) => r.stderr.trim().split("\n").slice(-3).join(" ");

/** One measurement of one side at one size. */
interface Sample {
  ms: number;
  idleKiB: number;
  peakKiB: number;
  cliPeakKiB: number;
}

/** Starts a fresh daemon for `s`, then times the call of `bytes` and reads the memory figures. */
async function measure(s: Side, bytes: number, expected: Uint8Array): Promise<Sample> {
  await exec(s.mcpx("stop"), s.env(), 60_000);
  // The warm call takes the same path as the measured one (a streamed answer of several
  // blocks), so the idle figure includes the code and heap any large answer needs first.
  const warm = await exec(
    s.mcpx("call", "big.text", JSON.stringify({ bytes: WARM_BYTES })),
    s.env(),
  );
  if (warm.code !== 0) throw new Error(`${s.name}: warm call failed: ${lastLines(warm)}`);
  const daemons = await exec(s.mcpx("--json", "daemons"), s.env(), 60_000);
  const pid = JSON.parse(new TextDecoder().decode(daemons.stdout)).daemons?.[0]?.pid as number;
  if (!pid) throw new Error(`${s.name}: no daemon after the warm call: ${lastLines(daemons)}`);
  await sleep(1000);
  const idleKiB = procStatusKiB(pid, "VmRSS");
  const call = s.mcpx("call", "big.text", JSON.stringify({ bytes }));
  const argv = hasTime ? [TIME, "-f", "cli-peak-kib %M", ...call] : call;
  const r = await exec(argv, s.env());
  if (r.code !== 0) throw new Error(`${s.name}: call of ${bytes} bytes: ${lastLines(r)}`);
  if (!sameBytes(r.stdout, expected)) {
    throw new Error(`${s.name}: printed ${r.stdout.length} bytes, not the ${bytes} sent`);
  }
  const peakKiB = procStatusKiB(pid, "VmHWM");
  const cli = /cli-peak-kib (\d+)/.exec(r.stderr);
  return { ms: r.ms, idleKiB, peakKiB, cliPeakKiB: cli ? Number(cli[1]) : NaN };
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

const mib = (kib: number) => (Number.isFinite(kib) ? (kib / 1024).toFixed(0) : "—");
const msText = (ms: number) => (Number.isFinite(ms) ? ms.toFixed(0) : "—");

try {
  await Deno.writeTextFile(
    `${tmp}/mcp.json`,
    JSON.stringify({ mcpServers: { big: fixtureServer({ fixture: "big_result" }) } }),
  );
  const env = { MCPX_CONFIG: `${tmp}/mcp.json` };
  sides.push(...await chooseSides(flags, tmp, marker));
  const withEnv = (s: Side): Side => ({ ...s, env: (extra) => s.env({ ...env, ...extra }) });

  const rows: Record<string, unknown>[] = [];
  const table: string[][] = [];
  const results: Record<string, Record<number, Sample[]>> = {};
  const catMs: Record<number, number> = {};
  for (const size of sizes) {
    const bytes = Math.round(size * MiB);
    const text = bigText(bytes);
    // What `mcpx call` prints: the text, and a newline when it lacks one.
    const expected = new TextEncoder().encode(text.endsWith("\n") ? text : `${text}\n`);
    const file = `${tmp}/text-${size}.txt`; // cat prints the same bytes
    await Deno.writeFile(file, expected);
    const cats: number[] = [];
    for (let i = 0; i < runs; i++) {
      const r = await exec(["cat", file], {});
      if (!sameBytes(r.stdout, expected)) throw new Error("cat printed other bytes");
      cats.push(r.ms);
    }
    catMs[size] = median(cats);
    for (const s of sides.map(withEnv)) {
      const samples: Sample[] = [];
      for (let i = 0; i < runs; i++) {
        log(`${s.name}: ${size} MiB, run ${i + 1} of ${runs}`);
        samples.push(await measure(s, bytes, expected));
      }
      (results[s.name] ??= {})[size] = samples;
    }
  }
  await Promise.all(sides.map((s) => exec(withEnv(s).mcpx("stop"), withEnv(s).env(), 60_000)));

  for (const s of sides) {
    let previous: { size: number; ms: number } | undefined;
    for (const size of sizes) {
      const samples = results[s.name][size];
      const ms = median(samples.map((x) => x.ms));
      const idle = median(samples.map((x) => x.idleKiB));
      const peak = median(samples.map((x) => x.peakKiB));
      const growth = median(samples.map((x) => x.peakKiB - x.idleKiB));
      const cliPeak = median(samples.map((x) => x.cliPeakKiB));
      const timeRatio = previous
        ? `${(ms / previous.ms).toFixed(2)}× for ${(size / previous.size).toFixed(1)}× the bytes`
        : "—";
      const growthRatio = growth / (size * 1024);
      table.push([
        s.name,
        `${size}`,
        msText(catMs[size]),
        msText(ms),
        timeRatio,
        mib(idle),
        mib(peak),
        mib(growth),
        `${growthRatio.toFixed(2)}×`,
        mib(cliPeak),
      ]);
      rows.push({
        side: s.name,
        mib: size,
        catMs: catMs[size],
        ms,
        idle,
        peak,
        growth,
        cliPeak,
        samples,
      });
      previous = { size, ms };
    }
  }

  const commit = await thisCommit();
  const lines = [
    `# bench:big-result — ${new Date().toISOString()}`,
    "",
    sidesNote(commit, flags, runs),
    "",
    markdownTable(
      [
        "side",
        "MiB",
        "cat ms",
        "mcpx call ms",
        "time vs previous size",
        "daemon idle RSS MiB",
        "daemon peak (VmHWM) MiB",
        "growth MiB",
        "growth ÷ result",
        "CLI peak MiB",
      ],
      table,
    ),
    "",
  ];
  const afterMs = (size: number) => median(results.after[size]?.map((x) => x.ms) ?? []);
  if (sizes.includes(32) && sizes.includes(64)) {
    const r = afterMs(64) / afterMs(32);
    lines.push(
      `- ${r <= 2.5 ? "PASS" : "MISS"}: 64 MiB takes ${
        r.toFixed(2)
      }× the 32 MiB time (at most 2.5×)`,
    );
  }
  for (const size of sizes) {
    const growth = median(results.after[size].map((x) => x.peakKiB - x.idleKiB)) / 1024;
    const r = growth / size;
    lines.push(
      `- ${r < 4 ? "PASS" : "MISS"}: at ${size} MiB the daemon grew ${growth.toFixed(0)} MiB, ` +
        `${r.toFixed(2)}× the result (under 4×)`,
    );
  }
  const report = lines.join("\n") + "\n";
  console.log(report);
  await writeResults("big_result", report, { commit, before: flags.before, runs, rows });
} finally {
  removeListeners();
  await cleanup();
}
