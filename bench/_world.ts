/**
 * The hermetic world bench/run.ts and bench/scripts.ts run mcpx and the peer
 * in (private to bench/), and its parts: the argv builders, the environment
 * without mcpx's and mcporter's variables, and running a command with exactly
 * the environment given.
 *
 * {@link createWorld} makes one temporary folder with the config and the XDG
 * folders, keeps `DENO_DIR`, runs measured commands with npm offline, gives
 * every process it starts the run marker (bench/_processes.ts), and has one
 * cleanup. bench/idle_memory.ts builds a folder per round from the same parts.
 *
 * @module
 */

import { ms, summarize, type Summary } from "./stats.ts";
import { shellQuote, time, type Timer } from "./timer.ts";
import { type Peer, PEER_DIR } from "./peer.ts";
import { log } from "./_cli.ts";
import { ROOT } from "./_paths.ts";
import { markedProcesses, MARKER_VAR, onInterrupt, terminate } from "./_processes.ts";
import { launcherArgv } from "../dev/mcpx_argv.ts";

export const SERVER_PACKAGE = "@modelcontextprotocol/server-everything@2026.8.31";
export const CALL_ARGS = '{"message":"hi"}';

// ---------------------------------------------------------------- options

/** The flags of bench/run.ts and bench/scripts.ts, for `parseArgs`. */
export const WORLD_FLAGS = {
  runs: { type: "string" },
  "slow-runs": { type: "string" },
  warmup: { type: "string" },
  quick: { type: "boolean" },
  "skip-peer": { type: "boolean" },
  "keep-node-ca-certs": { type: "boolean" },
  help: { type: "boolean", short: "h" },
} as const;

// ---------------------------------------------------------------- environment and argv

/**
 * argv of an mcpx command as users run it: the launcher (cli/mcpx, decision
 * 0068), which relays a warm command off a terminal to the front process.
 * `MCPX_RELAY=0` in the environment runs the whole process instead.
 */
export const mcpx = (...args: string[]): string[] => launcherArgv(args, ROOT);

/**
 * The caller's environment without mcpx's or mcporter's own variables, plus
 * `MCPX_SECURITY_TRUST_PROJECT_CONFIGS=always`: the benches' configurations are
 * their own (a round that finds its `.mcp.json` upward, as bench/idle_memory.ts
 * does, would otherwise wait for `mcpx trust`; config/trust.ts).
 */
export function strippedEnv(
  original: Record<string, string> = Deno.env.toObject(),
): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(original)) {
    if (!/^(MCPX_|MCPORTER_)/.test(k)) env[k] = v;
  }
  env.MCPX_SECURITY_TRUST_PROJECT_CONFIGS = "always";
  return env;
}

/** The four XDG folders under `dir`. */
export const xdgHomes = (dir: string): Record<string, string> => ({
  XDG_STATE_HOME: `${dir}/state`,
  XDG_CACHE_HOME: `${dir}/cache`,
  XDG_CONFIG_HOME: `${dir}/config`,
  XDG_DATA_HOME: `${dir}/data`,
});

/** Deno's own cache stays the user's (XDG_CACHE_HOME would otherwise move it). */
async function denoDir(original: Record<string, string>): Promise<string> {
  if (original.DENO_DIR) return original.DENO_DIR;
  const out = await new Deno.Command(Deno.execPath(), { args: ["info", "--json"] }).output();
  return JSON.parse(new TextDecoder().decode(out.stdout)).denoDir;
}

// ---------------------------------------------------------------- commands

export interface Exec {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs `argv` with exactly `env` in `cwd`, no stdin, stdout and stderr read
 * whole, and times it from spawn to exit.
 *
 * @returns Its output and how long it took, in ms.
 * @throws When it cannot start, or outlives `timeoutMs` (the signal's `TimeoutError`).
 */
export async function timedOutput(
  argv: string[],
  env: Record<string, string>,
  cwd: string,
  timeoutMs: number,
): Promise<{ out: Deno.CommandOutput; ms: number }> {
  const started = performance.now();
  const out = await new Deno.Command(argv[0], {
    args: argv.slice(1),
    env,
    clearEnv: true,
    cwd,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
    signal: AbortSignal.timeout(timeoutMs),
  }).output();
  return { out, ms: performance.now() - started };
}

/** Runs `argv` with exactly `env`; throws when it cannot start or outlives `timeoutMs`. */
export async function output(
  argv: string[],
  env: Record<string, string>,
  cwd: string,
  timeoutMs: number,
): Promise<Exec> {
  const { out } = await timedOutput(argv, env, cwd, timeoutMs);
  const text = (b: Uint8Array) => new TextDecoder().decode(b);
  return { code: out.code, stdout: text(out.stdout), stderr: text(out.stderr) };
}

/** `exit N: <last lines of stderr, or stdout>`. */
export const failed = (r: Exec): string =>
  `exit ${r.code}: ${(r.stderr || r.stdout).trim().split("\n").slice(-3).join(" ")}`;

/** Thrown by a world's commands once the run was interrupted. */
export class Interrupted extends Error {
  constructor() {
    super("interrupted");
  }
}

// ---------------------------------------------------------------- the world

/** The hermetic world of bench/run.ts and bench/scripts.ts. */
export interface World {
  /** The temporary folder: config, XDG folders, the bench's own files; removed by cleanup. */
  tmp: string;
  configPath: string;
  /** The run marker ({@link MARKER_VAR}). */
  marker: string;
  /** The caller's environment, untouched. */
  original: Record<string, string>;
  /** For the one-time download of the server package: network allowed. */
  setupEnv: Record<string, string>;
  /** Everything measured: npm offline (loopback only), no update checks. */
  env: Record<string, string>;
  /** {@link env} with mcporter's keep-alive daemon holding `everything`. */
  keepAliveEnv: Record<string, string>;
  /** NODE_EXTRA_CA_CERTS was set and removed from {@link env}. */
  caStripped: boolean;
  /** Set once installed: cleanup then stops its daemon too. */
  peer?: Peer;
  /** argv of a mcporter command on the world's config (needs {@link peer}). */
  mcporter(...args: string[]): string[];
  /** argv as a reader would type it: repo-relative, `$TMP` for the temporary folder. */
  show(argv: string[]): string;
  /** Set on SIGINT/SIGTERM: nothing new starts except the cleanup's stop commands. */
  readonly interrupted: boolean;
  /** Runs `argv` in the temporary folder; a command that cannot run gets code -1. */
  exec(
    argv: string[],
    env: Record<string, string>,
    timeoutMs?: number,
    duringCleanup?: boolean,
  ): Promise<Exec>;
  /** A fresh path for hyperfine's JSON export. */
  exportPath(): string;
  /** Fetches the server package once (network allowed) and warms deno's module cache. */
  prime(): Promise<void>;
  /**
   * Starts mcporter's keep-alive daemon (MCPORTER_KEEPALIVE=everything),
   * primes it with one call, runs `use` while it is up, then stops it.
   *
   * @returns Why it did not come up (logged; `use` is then not run).
   */
  withPeerDaemon(use: () => Promise<void>): Promise<string | undefined>;
  /** Stops everything the bench started; every caller awaits the same run of it. */
  cleanup(): Promise<void>;
  /** {@link cleanup}, then the signal listeners go. */
  close(): Promise<void>;
}

/** Creates the world: folder, config, environment, cleanup on SIGINT/SIGTERM. */
export async function createWorld(
  opts: { prefix: string; keepNodeCaCerts?: boolean },
): Promise<World> {
  const original = Deno.env.toObject();
  const tmp = await Deno.makeTempDir({ prefix: opts.prefix });
  const configPath = `${tmp}/mcp.json`;
  const marker = crypto.randomUUID();

  // One plain `.mcp.json`-style file for both tools. `imports: []` stops
  // mcporter from merging editor configs (Cursor, Claude, …) from $HOME; mcpx
  // ignores the key.
  await Deno.writeTextFile(
    configPath,
    JSON.stringify(
      {
        mcpServers: {
          everything: { command: "npx", args: ["-y", SERVER_PACKAGE, "stdio"] },
        },
        imports: [],
      },
      null,
      2,
    ) + "\n",
  );

  const hermetic: Record<string, string> = {
    ...strippedEnv(original),
    ...xdgHomes(tmp),
    DENO_DIR: await denoDir(original),
    MCPX_CONFIG: configPath,
    [MARKER_VAR]: marker, // every process the bench starts inherits it; see stopEverything()
    NO_COLOR: "1",
  };
  const setupEnv = { ...hermetic };
  const env: Record<string, string> = {
    ...hermetic,
    npm_config_offline: "true",
    npm_config_update_notifier: "false",
  };
  const caStripped = !!env.NODE_EXTRA_CA_CERTS && !opts.keepNodeCaCerts;
  if (caStripped) delete env.NODE_EXTRA_CA_CERTS;
  const keepAliveEnv = { ...env, MCPORTER_KEEPALIVE: "everything" };

  let interrupted = false;
  let exportCount = 0;
  let cleaning: Promise<void> | undefined;

  const world: World = {
    tmp,
    configPath,
    marker,
    original,
    setupEnv,
    env,
    keepAliveEnv,
    caStripped,
    get interrupted() {
      return interrupted;
    },
    mcporter: (...args) => [world.peer!.node, world.peer!.bin, "--config", configPath, ...args],
    show: (argv) =>
      shellQuote(argv)
        .replaceAll(Deno.execPath(), "deno")
        .replaceAll(`${PEER_DIR}node_modules/mcporter/`, "bench/.peer/node_modules/mcporter/")
        .replaceAll(ROOT, "")
        .replaceAll(tmp, "$TMP"),
    async exec(argv, e, timeoutMs = 60_000, duringCleanup = false) {
      if (interrupted && !duringCleanup) throw new Interrupted();
      try {
        return await output(argv, e, tmp, timeoutMs);
      } catch (error) {
        return { code: -1, stdout: "", stderr: String(error) };
      }
    },
    exportPath: () => `${tmp}/hyperfine-${++exportCount}.json`,
    async prime() {
      log("setup: fetching the server package once, warming deno's module cache");
      const fetched = await world.exec(["npx", "-y", SERVER_PACKAGE, "stdio"], setupEnv, 300_000);
      if (fetched.code !== 0) {
        throw new Error(`npx ${SERVER_PACKAGE} failed: ${fetched.stderr.trim()}`);
      }
      const version = await world.exec(mcpx("--version"), env, 300_000);
      if (version.code !== 0) throw new Error(`mcpx --version failed: ${version.stderr.trim()}`);
    },
    async withPeerDaemon(use) {
      const { exec, mcporter } = world;
      log("mcporter, keep-alive daemon warm (MCPORTER_KEEPALIVE=everything)");
      const start = await exec(mcporter("daemon", "start"), keepAliveEnv, 120_000);
      const primed = await exec(mcporter("call", "everything.echo", "message=hi"), keepAliveEnv);
      const status = await exec(mcporter("daemon", "status"), keepAliveEnv);
      let why: string | undefined;
      if (start.code !== 0 || primed.code !== 0 || !/everything: connected/.test(status.stdout)) {
        why = `mcporter daemon did not come up: ${status.stdout.trim()} ${start.stderr.trim()}`;
        log(`  ${why}`);
      } else {
        await use();
      }
      await exec(mcporter("daemon", "stop"), keepAliveEnv, 30_000);
      return why;
    },
    cleanup: () => cleaning ??= stopEverything(),
    async close() {
      await world.cleanup();
      removeListeners();
    },
  };

  async function stopEverything(): Promise<void> {
    log("cleaning up: mcpx stop, mcporter daemon stop, leftover processes, temp folder");
    await world.exec(mcpx("stop"), env, 30_000, true);
    if (world.peer) {
      await world.exec(world.mcporter("daemon", "stop"), keepAliveEnv, 30_000, true);
    }
    const leftovers = await terminate(() => markedProcesses(marker));
    if (leftovers.length) {
      log(`stopped ${leftovers.length} leftover process(es) the bench started: ${leftovers}`);
    }
    await Deno.remove(tmp, { recursive: true }).catch(() => {});
  }

  const removeListeners = onInterrupt(async () => {
    if (interrupted) return;
    interrupted = true;
    log("\ninterrupted: stopping what the bench started");
    await world.cleanup();
    Deno.exit(130);
  });
  return world;
}

// ---------------------------------------------------------------- timing

/** Median and p90 of one command's timed runs, or why timing failed. */
export type Timed = { summary: Summary; timesMs: number[] } | { error: string };

/**
 * Times `argv` in the world with `timer` (`runs` timed runs after `warmup`
 * untimed ones) and logs one line: `name` padded to `pad`, median, p90.
 */
export async function timed(
  world: World,
  timer: Timer,
  name: string,
  pad: number,
  c: {
    argv: string[];
    env: Record<string, string>;
    runs: number;
    warmup: number;
    prepare?: string[];
  },
): Promise<Timed> {
  if (world.interrupted) throw new Interrupted();
  const t0 = performance.now();
  const timing = await time(timer, {
    cmd: c.argv,
    env: c.env,
    cwd: world.tmp,
    runs: c.runs,
    warmup: c.warmup,
    prepare: c.prepare,
    exportPath: world.exportPath(),
  });
  if ("error" in timing) {
    log(`  ${name}: FAILED — ${timing.error.split("\n")[0]}`);
    return timing;
  }
  const summary = summarize(timing.timesMs);
  log(
    `  ${name.padEnd(pad)} median ${ms(summary.median).padStart(7)} ms  p90 ${
      ms(summary.p90).padStart(7)
    } ms  (${c.runs} runs, ${((performance.now() - t0) / 1000).toFixed(1)} s)`,
  );
  return { summary, timesMs: timing.timesMs };
}

/**
 * Runs `argv` once before timing it and checks it (exit 0, stdout matching
 * `expect`); logs a failure.
 *
 * @returns How long it took, and why it is wrong, if it is.
 */
export async function checkOnce(
  world: World,
  name: string,
  argv: string[],
  env: Record<string, string>,
  expect?: RegExp,
): Promise<{ ms: number; error?: string }> {
  const t = performance.now();
  const once = await world.exec(argv, env, 120_000);
  const took = performance.now() - t;
  const error = once.code !== 0
    ? failed(once)
    : expect && !expect.test(once.stdout)
    ? `unexpected output (wanted ${expect}): ${once.stdout.trim().slice(0, 200)}`
    : undefined;
  if (error) log(`  ${name}: FAILED before timing — ${error}`);
  return { ms: took, error };
}
