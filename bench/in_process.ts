/**
 * `deno task bench:in-process`: what a warm command costs once its code is
 * loaded and compiled, against the whole process it runs in today. Each job
 * runs through the command line's in-process entry (cli/main.ts `main`,
 * with an in-memory terminal) 25 times in this one process, against the
 * same warm daemon, and the median of the last 20 is reported: parsing,
 * configuration, settings, trust, the daemon round trip and rendering, with
 * no module loading and no cold code.
 *
 * The gap between this and a whole `mcpx` process (`deno task bench`) is
 * what starting a fresh Deno isolate with mcpx's code costs: the part a
 * relay to a warm process would remove (issue 26, decision 0067).
 *
 * @module
 */

import { CALL_ARGS, createWorld, mcpx } from "./_world.ts";
import { main } from "../cli/main.ts";
import { memoryIo } from "../core/io.ts";
import { markdownTable, median, ms, percentile } from "./stats.ts";
import { log } from "./_cli.ts";

const JOBS: string[][] = [
  ["ls"],
  ["search", "echo"],
  ["types", "everything"],
  ["types", "everything.echo"],
  ["call", "everything.echo", CALL_ARGS],
  ["catalog"],
  ["--version"],
];
const RUNS = 25;
const WARMUP = 5;

const world = await createWorld({ prefix: "mcpx-bench-in-process-" });
const rows: string[][] = [];
try {
  await world.prime();
  log("setup: a first `mcpx call` starts the daemon and lists the server");
  const first = await world.exec(mcpx("call", "everything.echo", CALL_ARGS), world.env, 120_000);
  if (first.code !== 0) throw new Error(`setup failed: ${first.stderr}`);
  for (const argv of JOBS) {
    const times: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const io = memoryIo("");
      const started = performance.now();
      const code = await main(argv, io, world.env, world.tmp);
      const elapsed = performance.now() - started;
      if (code !== 0) throw new Error(`mcpx ${argv.join(" ")} exited ${code}: ${io.stderr}`);
      if (i >= WARMUP) times.push(elapsed);
    }
    rows.push([`mcpx ${argv.join(" ")}`, ms(median(times)), ms(percentile(times, 90))]);
  }
} finally {
  await world.exec(mcpx("stop"), world.env, 30_000, true);
  await world.cleanup();
}
console.log(
  markdownTable(["job (daemon warm, code loaded)", "median ms", "p90 ms"], rows) +
    `\n\nEach: ${RUNS} runs of cli/main.ts main() in one process, the first ${WARMUP} untimed.`,
);
