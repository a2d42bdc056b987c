/**
 * Memory of a daemon holding 20 idle instances (issue 4, "Tests and
 * measurements"): one stateful fixture server (tests/fixtures/servers/
 * stateful.ts) scoped by session, called once under each of 20 session keys,
 * then left idle. Reports, in MiB, the daemon's RSS and PSS (proportional set
 * size: shared pages divided among the processes sharing them, so the sum
 * over processes is what the machine actually spends) and the same for the
 * 20 server processes together.
 *
 * Usage: `deno run -A bench/idle_memory.ts [--instances 20] [--json]`.
 *
 * @module
 */

import { parseArgs } from "node:util";
import { fileURLToPath } from "node:url";
import { requestDaemon } from "../client/daemon_request.ts";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const { values } = parseArgs({
  args: Deno.args,
  options: { instances: { type: "string", default: "20" }, json: { type: "boolean" } },
});
const count = Number(values.instances);

const tmp = await Deno.makeTempDir({ prefix: "mcpx-bench-memory-" });
const mark = crypto.randomUUID();
const env = {
  ...Deno.env.toObject(),
  MCPX_STATE_DIR: `${tmp}/state`,
  MCPX_CACHE_DIR: `${tmp}/cache`,
  MCPX_BENCH_MARK: mark,
};
delete (env as Record<string, string>).MCPX_SESSION_ID;
await Deno.writeTextFile(
  `${tmp}/.mcp.json`,
  JSON.stringify({
    mcpServers: {
      state: {
        command: Deno.execPath(),
        args: [
          "run",
          "-A",
          "--config",
          `${ROOT}deno.json`,
          `${ROOT}tests/fixtures/servers/stateful.ts`,
        ],
        mcpx: { scope: "session", max: count, idleTimeout: "1h" },
      },
    },
  }),
);
const mcpx = async (...args: string[]) => {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--config", `${ROOT}deno.json`, `${ROOT}cli/main.ts`, ...args],
    env,
    clearEnv: true,
    cwd: tmp,
  }).output();
  const text = new TextDecoder().decode(out.stdout);
  if (!out.success) {
    throw new Error(`mcpx ${args.join(" ")}: ${new TextDecoder().decode(out.stderr)}`);
  }
  return text;
};

/** VmRSS and Pss of a process, in KiB (0 when gone). */
function memoryKiB(pid: number): { rss: number; pss: number } {
  const field = (text: string, name: string) =>
    Number(new RegExp(`^${name}:\\s+(\\d+) kB`, "m").exec(text)?.[1] ?? 0);
  try {
    return {
      rss: field(Deno.readTextFileSync(`/proc/${pid}/status`), "VmRSS"),
      pss: field(Deno.readTextFileSync(`/proc/${pid}/smaps_rollup`), "Pss"),
    };
  } catch {
    return { rss: 0, pss: 0 };
  }
}

function marked(): number[] {
  const pids: number[] = [];
  for (const entry of Deno.readDirSync("/proc")) {
    if (!/^\d+$/.test(entry.name)) continue;
    try {
      const environ = Deno.readTextFileSync(`/proc/${entry.name}/environ`);
      if (environ.split("\0").includes(`MCPX_BENCH_MARK=${mark}`)) pids.push(Number(entry.name));
    } catch { /* gone or not ours */ }
  }
  return pids;
}

const mib = (kib: number) => Math.round(kib / 102.4) / 10;
try {
  await mcpx("call", "state.whoami", "{}", "--session", "s0");
  const { daemons } = JSON.parse(await mcpx("daemons", "--json")) as {
    daemons: { pid: number; socket: string }[];
  };
  const daemon = daemons[0];
  const idleDaemon = memoryKiB(daemon.pid); // one instance, before the others
  for (let i = 1; i < count; i++) {
    await requestDaemon(daemon.socket, "call", {
      namespace: "state",
      tool: "whoami",
      arguments: {},
      session: `s${i}`,
    });
  }
  await new Promise((r) => setTimeout(r, 2000)); // let them settle idle
  const servers = marked().filter((pid) => pid !== daemon.pid);
  const d = memoryKiB(daemon.pid);
  const each = servers.map(memoryKiB);
  const sum = (k: "rss" | "pss") => each.reduce((a, m) => a + m[k], 0);
  const result = {
    instances: servers.length,
    daemon: { rssMiB: mib(d.rss), pssMiB: mib(d.pss), rssMiBWithOneInstance: mib(idleDaemon.rss) },
    servers: {
      rssMiB: mib(sum("rss")),
      pssMiB: mib(sum("pss")),
      rssMiBEach: mib(sum("rss") / (servers.length || 1)),
      pssMiBEach: mib(sum("pss") / (servers.length || 1)),
    },
  };
  if (values.json) console.log(JSON.stringify(result, null, 2));
  else {
    console.log(
      `daemon holding ${servers.length} idle instances (stateful fixture, deno ${Deno.version.deno})`,
    );
    console.log("| process | RSS MiB | PSS MiB |");
    console.log("| --- | --- | --- |");
    console.log(`| daemon | ${result.daemon.rssMiB} | ${result.daemon.pssMiB} |`);
    console.log(
      `| daemon with its first instance only | ${result.daemon.rssMiBWithOneInstance} | - |`,
    );
    console.log(
      `| ${servers.length} servers, total | ${result.servers.rssMiB} | ${result.servers.pssMiB} |`,
    );
    console.log(
      `| one server, mean | ${result.servers.rssMiBEach} | ${result.servers.pssMiBEach} |`,
    );
  }
} finally {
  await mcpx("stop").catch(() => "");
  for (const pid of marked()) {
    try {
      Deno.kill(pid, "SIGKILL");
    } catch { /* gone */ }
  }
  await Deno.remove(tmp, { recursive: true }).catch(() => {});
}
