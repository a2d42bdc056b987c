/**
 * The configurations of `deno task bench:scale` (bench/scale.ts; private to
 * bench/) and what runs on each: 1, 20 or 100 servers that are one real server
 * (server-everything) under different names, and one server of 1,000 tools
 * (bench/_many_tools_server.ts). Each configuration is a file in the world's
 * temporary folder (bench/_world.ts), with its own environment (`MCPX_CONFIG`)
 * and so its own mcpx daemon, and its own mcporter argv (`--config`).
 *
 * The rows of a configuration are {@link Side}s of bench/_latency_rows.ts, the
 * floor's too, so bench/scale.ts measures them the way bench/run.ts does.
 *
 * @module
 */

import { log } from "./_cli.ts";
import type { Side } from "./_latency_rows.ts";
import { procStatusKiB } from "./_memory.ts";
import { ROOT } from "./_paths.ts";
import { type ProcessTracker, serverTrees, sleep } from "./_processes.ts";
import { CALL_ARGS, failed, mcpx, SERVER_PACKAGE, type World } from "./_world.ts";

/** The namespace of the 1,000-tool server. */
export const MANY = "many";

/** What `mcpx search` finds in the 1,000-tool server, and one tool it must find. */
export const MANY_QUERY = ["create", "issue"];
const MANY_OK = /many\.\w+_issue\b/;

/** `everything`, then `everything_2` … `everything_<n>`: one server under `n` names. */
export const serverNames = (n: number): string[] =>
  Array.from({ length: n }, (_, i) => i === 0 ? "everything" : `everything_${i + 1}`);

/** One configuration the rows run on. */
export interface Configuration {
  /** `servers-20`, `tools-1000`: names the file and the results' keys. */
  id: string;
  /** `20 servers`, `1 server of 1,000 tools`: the table's words. */
  label: string;
  path: string;
  /** Its servers' names, in file order. */
  names: string[];
  /** The world's measured environment, `MCPX_CONFIG` pointing here. */
  env: Record<string, string>;
  /** argv of a mcporter command on this file (needs `world.peer`). */
  mcporter(...args: string[]): string[];
}

/**
 * Writes `<tmp>/<id>.json`: a plain `mcpServers` file, `"imports": []` (which
 * stops mcporter from merging the editors' configs under $HOME).
 */
async function configuration(
  world: World,
  id: string,
  label: string,
  servers: Record<string, unknown>,
): Promise<Configuration> {
  const path = `${world.tmp}/${id}.json`;
  await Deno.writeTextFile(
    path,
    JSON.stringify({ mcpServers: servers, imports: [] }, null, 2) + "\n",
  );
  return {
    id,
    label,
    path,
    names: Object.keys(servers),
    env: { ...world.env, MCPX_CONFIG: path },
    mcporter: (...args) => [world.peer!.node, world.peer!.bin, "--config", path, ...args],
  };
}

/** `n` entries of the same server-everything command ({@link serverNames}). */
export function scaleConfiguration(world: World, n: number): Promise<Configuration> {
  const entry = { command: "npx", args: ["-y", SERVER_PACKAGE, "stdio"] };
  return configuration(
    world,
    `servers-${n}`,
    `${n} server${n === 1 ? "" : "s"}`,
    Object.fromEntries(serverNames(n).map((name) => [name, entry])),
  );
}

/** One entry, {@link MANY}: bench/_many_tools_server.ts listing `tools` tools. */
export function manyToolsConfiguration(world: World, tools: number): Promise<Configuration> {
  const entry = {
    command: Deno.execPath(),
    args: [
      "run",
      "-A",
      "--config",
      `${ROOT}deno.json`,
      `${ROOT}bench/_many_tools_server.ts`,
      "--tools",
      String(tools),
    ],
  };
  return configuration(
    world,
    `tools-${tools}`,
    `1 server of ${tools.toLocaleString("en-US")} tools`,
    { [MANY]: entry },
  );
}

// ---------------------------------------------------------------- mcpx

/** A {@link Side} on `c`'s environment, checked against `expect` before it is timed. */
const on = (c: Configuration, argv: string[], expect: RegExp): Side => ({
  argv,
  env: c.env,
  expect,
});

/** The mcpx side of each job on a server-everything configuration, by job id. */
export function mcpxJobs(c: Configuration): Record<string, Side> {
  return {
    ls: on(c, mcpx("ls"), /everything\s[\s\S]*ready/),
    search: on(c, mcpx("search", "echo"), /everything(_\d+)?\.echo/),
    types: on(c, mcpx("types", "everything"), /function echo/),
    call: on(c, mcpx("call", "everything.echo", CALL_ARGS), /Echo: hi/),
  };
}

/** `mcpx search create issue` on the 1,000-tool configuration. */
export const manySearch = (c: Configuration): Side => on(c, mcpx("search", ...MANY_QUERY), MANY_OK);

/**
 * Lists every server of `c` through its daemon (`mcpx --json ls`, which starts
 * each server not yet in the schema cache) and checks that each is `ready`
 * with `tools` tools or more.
 *
 * @returns Why it is not, or undefined.
 */
export async function warmMcpx(
  world: World,
  c: Configuration,
  tools: number,
): Promise<string | undefined> {
  const ls = await world.exec(mcpx("--json", "ls"), c.env, 900_000);
  if (ls.code !== 0) return `mcpx ls: ${failed(ls)}`;
  const rows = JSON.parse(ls.stdout).namespaces as {
    namespace: string;
    state: string;
    tools: number;
  }[];
  const short = rows.filter((r) => r.state !== "ready" || r.tools < tools);
  if (rows.length !== c.names.length || short.length) {
    return `mcpx ls: ${rows.length} of ${c.names.length} namespaces, not ready: ${
      short.slice(0, 3).map((r) => `${r.namespace} ${r.state} ${r.tools} tools`).join(", ")
    }`;
  }
  return undefined;
}

/** mcpx's daemon of a configuration once warm: its RSS and the server processes it holds. */
export interface DaemonFacts {
  pid: number;
  rssMiB: number;
  /** Its children with their subtrees: one per server process (`npm exec` + `sh` + `node`). */
  serverTrees: number;
  /** The RSS of every process in those trees, summed (shared pages counted in each). */
  serversRssMiB: number;
}

/** The daemons of `c` in `mcpx --json daemons`' output (ops/engine_outputs.ts `DaemonsOutput`). */
function ownDaemons(stdout: string, c: Configuration): { pid: number }[] {
  const { daemons } = JSON.parse(stdout) as { daemons: { pid: number; configPath?: string }[] };
  return daemons.filter((d) => d.configPath === c.path);
}

/** {@link DaemonFacts} of `c`'s daemon, from `mcpx --json daemons` and `/proc`; undefined without one. */
export async function mcpxDaemon(world: World, c: Configuration): Promise<DaemonFacts | undefined> {
  const out = await world.exec(mcpx("--json", "daemons"), c.env);
  if (out.code !== 0) return undefined;
  const daemon = ownDaemons(out.stdout, c)[0];
  if (!daemon) return undefined;
  const trees = serverTrees(daemon.pid);
  const mib = (kib: number) => kib / 1024;
  return {
    pid: daemon.pid,
    rssMiB: mib(procStatusKiB(daemon.pid, "VmRSS")),
    serverTrees: trees.length,
    serversRssMiB: mib(trees.flat().reduce((s, p) => s + (procStatusKiB(p, "VmRSS") || 0), 0)),
  };
}

// ---------------------------------------------------------------- the peer

const PEER_TYPES_OK = /function echo\(message: string\)/;

/**
 * The peer's side of each job on a server-everything configuration whose
 * keep-alive daemon holds `kept` (bench/README.md, "Scale"): `list` needs every
 * server kept alive (it starts the others on every run), `search` has no
 * equivalent.
 */
export function peerJobs(
  c: Configuration,
  kept: string[],
  env: Record<string, string>,
): Record<string, Side | { na: string }> {
  const n = c.names.length;
  const side = (argv: string[], expect: RegExp): Side => ({ argv, env, expect, slow: true });
  return {
    ls: kept.length === n
      ? side(c.mcporter("list"), new RegExp(`Listed ${n} servers? \\(${n} healthy\\)`))
      : {
        na: `\`mcporter list\` starts every server its daemon does not keep alive, on every run; ` +
          `keeping ${n} alive holds ${n} node server trees (about 130 MiB RSS each), so it is ` +
          `measured up to --peer-keepalive-max servers only`,
      },
    search: { na: "mcporter has no search command (closest: read `mcporter list <server>`)" },
    types: side(c.mcporter("list", "everything", "--all-parameters"), PEER_TYPES_OK),
    call: side(c.mcporter("call", "everything.echo", "message=hi"), /Echo: hi/),
  };
}

/** The pid of the live mcporter daemon whose metadata is under the world's state folder. */
function peerDaemonPid(world: World): number | undefined {
  const dir = `${world.tmp}/state/mcporter/daemon`;
  try {
    for (const e of Deno.readDirSync(dir)) {
      if (!e.name.endsWith(".json")) continue;
      const { pid } = JSON.parse(Deno.readTextFileSync(`${dir}/${e.name}`)) as { pid?: number };
      if (pid && procStatusKiB(pid, "VmRSS") > 0) return pid;
    }
  } catch { /* no daemon yet */ }
  return undefined;
}

/** The world's measured environment with mcporter's daemon keeping `kept` alive. */
export const keepAliveEnv = (world: World, kept: string[]): Record<string, string> => ({
  ...world.env,
  MCPORTER_KEEPALIVE: kept.join(","),
});

/**
 * Starts mcporter's keep-alive daemon on `c` holding `kept`
 * ({@link keepAliveEnv}), connects each with one `mcporter call <name>.echo`
 * (one at a time: twenty `npx` starting at once outlive mcporter's 30 s list
 * timeout on 2 cores), checks `mcporter daemon status` shows them all
 * `connected`, runs `use`, then stops the daemon and,
 * through `tracker`, every server process it held (they do not carry the
 * run marker).
 *
 * @returns Why the daemon did not come up (logged; `use` is then not run).
 */
export async function withPeerDaemonOn(
  world: World,
  c: Configuration,
  kept: string[],
  tracker: ProcessTracker,
  use: () => Promise<void>,
): Promise<string | undefined> {
  const env = keepAliveEnv(world, kept);
  log(`mcporter, keep-alive daemon on ${c.label} holding ${kept.length} (one call each)`);
  let why: string | undefined;
  try {
    const start = await world.exec(c.mcporter("daemon", "start"), env, 120_000);
    if (start.code !== 0) why = `mcporter daemon start: ${failed(start)}`;
    const pid = peerDaemonPid(world);
    if (pid) tracker.remember([pid]);
    for (const name of why ? [] : kept) {
      const call = await world.exec(c.mcporter("call", `${name}.echo`, "message=hi"), env, 120_000);
      if (pid) tracker.remember(serverTrees(pid).flat());
      if (call.code !== 0 || !/Echo: hi/.test(call.stdout)) {
        why = `mcporter call ${name}.echo: ${failed(call)}`;
      }
    }
    if (!why) {
      const status = await world.exec(c.mcporter("daemon", "status"), env);
      const connected = (status.stdout.match(/: connected/g) ?? []).length;
      if (connected !== kept.length) {
        why = `mcporter daemon status shows ${connected} of ${kept.length} connected: ` +
          status.stdout.trim().split("\n").slice(0, 4).join(" / ");
      }
    }
    if (why) log(`  ${why}`);
    else await use();
  } finally {
    await world.exec(c.mcporter("daemon", "stop"), env, 30_000, true);
    await tracker.sweep(`after mcporter daemon stop (${c.label})`);
  }
  return why;
}

/** Waits up to `ms` for `c`'s mcpx daemon to be gone after `mcpx stop`. */
export async function stopMcpx(world: World, c: Configuration, ms = 10_000): Promise<void> {
  await world.exec(mcpx("stop"), c.env, 30_000, true);
  for (const until = Date.now() + ms; Date.now() < until;) {
    const left = await world.exec(mcpx("--json", "daemons"), c.env, 30_000, true);
    if (left.code !== 0 || !ownDaemons(left.stdout, c).length) return;
    await sleep(200);
  }
}
