/**
 * Times a command over repeated runs: with hyperfine (`-N`, no shell) when it
 * is installed, otherwise with a loop of `performance.now()` around
 * `new Deno.Command(...).output()`.
 *
 * @module
 */

/** How runs are timed. */
export type Timer = { kind: "hyperfine"; version: string } | { kind: "loop" };

/** One command to time. */
export interface TimedCommand {
  /** argv; `cmd[0]` is the program. */
  cmd: string[];
  env: Record<string, string>;
  cwd: string;
  runs: number;
  warmup: number;
  /** Run before every timed run and not timed (e.g. stopping a daemon). */
  prepare?: string[];
  /** Where hyperfine writes its JSON export. */
  exportPath: string;
}

/** Wall-clock times of each timed run, in milliseconds, or why timing failed. */
export type Timing = { timesMs: number[] } | { error: string };

/** hyperfine when it is on PATH, otherwise the in-process loop. */
export async function detectTimer(): Promise<Timer> {
  try {
    const out = await new Deno.Command("hyperfine", { args: ["--version"], stderr: "null" })
      .output();
    if (out.success) {
      return { kind: "hyperfine", version: new TextDecoder().decode(out.stdout).trim() };
    }
  } catch { /* not installed */ }
  return { kind: "loop" };
}

/** POSIX shell quoting, as hyperfine's `-N` argument splitter reads it. */
export function shellQuote(args: string[]): string {
  return args.map((a) => /^[\w@%+=:,./-]+$/.test(a) ? a : `'${a.replaceAll("'", `'\\''`)}'`)
    .join(" ");
}

/** Times `command.cmd` with `timer`. */
export function time(timer: Timer, command: TimedCommand): Promise<Timing> {
  return timer.kind === "hyperfine" ? viaHyperfine(command) : viaLoop(command);
}

async function viaHyperfine(c: TimedCommand): Promise<Timing> {
  const args = [
    "-N",
    "--style",
    "none",
    "--warmup",
    String(c.warmup),
    "--runs",
    String(c.runs),
    "--export-json",
    c.exportPath,
    ...(c.prepare ? ["--prepare", shellQuote(c.prepare)] : []),
    shellQuote(c.cmd),
  ];
  const out = await new Deno.Command("hyperfine", {
    args,
    env: c.env,
    clearEnv: true,
    cwd: c.cwd,
    stdin: "null",
    stdout: "null",
    stderr: "piped",
  }).output();
  if (!out.success) {
    return { error: new TextDecoder().decode(out.stderr).trim() || `hyperfine exit ${out.code}` };
  }
  const report = JSON.parse(await Deno.readTextFile(c.exportPath));
  return { timesMs: (report.results[0].times as number[]).map((s) => s * 1000) };
}

async function runOnce(argv: string[], c: TimedCommand): Promise<string | undefined> {
  const out = await new Deno.Command(argv[0], {
    args: argv.slice(1),
    env: c.env,
    clearEnv: true,
    cwd: c.cwd,
    stdin: "null",
    stdout: "null",
    stderr: "piped",
  }).output();
  if (out.success) return undefined;
  const tail = new TextDecoder().decode(out.stderr).trim().split("\n").slice(-3).join("\n");
  return `${shellQuote(argv)} exited ${out.code}${tail ? `: ${tail}` : ""}`;
}

async function viaLoop(c: TimedCommand): Promise<Timing> {
  const timesMs: number[] = [];
  for (let i = 0; i < c.warmup + c.runs; i++) {
    if (c.prepare) {
      const failed = await runOnce(c.prepare, c);
      if (failed) return { error: `prepare: ${failed}` };
    }
    const started = performance.now();
    const failed = await runOnce(c.cmd, c);
    const elapsed = performance.now() - started;
    if (failed) return { error: failed };
    if (i >= c.warmup) timesMs.push(elapsed);
  }
  return { timesMs };
}
