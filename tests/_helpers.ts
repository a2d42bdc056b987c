/**
 * Process-level test helpers: an isolated mcpx world in a temporary folder
 * (its own config, state and cache directories), running the real CLI as a
 * subprocess, and checking the process table.
 *
 * @module
 */

import { mcpxArgv, ROOT } from "../dev/mcpx_argv.ts";
import { installedLauncher } from "../cli/install.ts";
import { frontSocket } from "../cli/relay/front_socket.ts";
import { fixtureServer } from "../dev/fixture_servers.ts";
import { SERVERS } from "../dev/real_servers.ts";

// How to run mcpx, the fixture servers and the real servers are declared in dev/, which the
// benches import too (bench/ imports nothing from tests/, issue 26); re-exported here so that
// a test finds every helper in one module.
export { launcherArgv, MCPX_ENTRY, mcpxArgv, ROOT } from "../dev/mcpx_argv.ts";
export { type Fixture, fixtureArgv, fixtureServer } from "../dev/fixture_servers.ts";
export { SERVERS } from "../dev/real_servers.ts";

/** What one CLI run printed. */
export interface RunResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** An isolated mcpx world. Dispose it to stop its daemons and remove the folder. */
export interface World extends AsyncDisposable {
  dir: string;
  env: Record<string, string>;
  /** Unique value of `MCPX_TEST_MARK` every process of this world inherits. */
  mark: string;
  /** Writes `.mcp.json` (or `name`) in `dir` and returns its path. */
  writeConfig(config: unknown, name?: string): Promise<string>;
  /** Runs `mcpx <args>` with cwd `dir` (or `options.cwd`). */
  mcpx(
    args: string[],
    options?: {
      stdin?: string;
      cwd?: string;
      env?: Record<string, string>;
      timeoutMs?: number;
      /** Flags for `deno run` itself, before the entry (e.g. `--preload <file>`). */
      denoFlags?: string[];
    },
  ): Promise<RunResult>;
  /** Like `mcpx`, but parses stdout as JSON (adds `--json`); throws with stderr on failure. */
  json<T = any>(
    args: string[],
    options?: { cwd?: string; env?: Record<string, string> },
  ): Promise<T>;
  /** Pids of live processes carrying this world's mark: daemons and servers, not the front (cli/relay/front.ts). */
  processes(): number[];
}

/** Options of {@link world}. */
export interface WorldOptions {
  /**
   * `security.trustProjectConfigs` for the world's commands: `always` (the
   * default here, so a test's own `.mcp.json` starts without `mcpx trust`), or
   * `ask`, mcpx's own default, for tests of trust itself (config/trust.ts).
   */
  trust?: "always" | "ask";
  /**
   * Servers this test makes send frames the SDK's schema refuses, on purpose
   * (a misbehaving fixture): the frames mcpx receives from them do not fail
   * the test. What mcpx sends is always checked (engine/wire_check.ts).
   */
  badFramesFrom?: string[];
}

/** Creates an isolated world in a new temporary folder. */
export async function world(options: WorldOptions = {}): Promise<World> {
  const dir = await Deno.realPath(await Deno.makeTempDir({ prefix: "mcpx-test-" }));
  const mark = crypto.randomUUID();
  const env: Record<string, string> = {
    ...Deno.env.toObject(),
    HOME: dir,
    XDG_STATE_HOME: `${dir}/.state`,
    XDG_CACHE_HOME: `${dir}/.cache`,
    XDG_CONFIG_HOME: `${dir}/.config`,
    MCPX_TEST_MARK: mark,
    // Servers from npm share the machine's npx cache, not the fake HOME.
    npm_config_cache: Deno.env.get("npm_config_cache") ?? `${Deno.env.get("HOME")}/.npm`,
    // Deno's own cache lives under XDG_CACHE_HOME too: keep the machine's, or
    // every world would download mcpx's npm dependencies again.
    DENO_DIR: denoDir(),
    // Every frame a daemon exchanges with a server is checked against the SDK's schema
    // (engine/wire_check.ts); a failure line fails the test when the world is disposed.
    MCPX_WIRE_CHECK: `${dir}/wire-check.jsonl`,
    // Discovery lists a fresh configuration's servers whole before answering, as tests of other
    // features need; tests of discovery set SHIPPED_DISCOVERY_WAIT back (1s),
    // under which a server still starting is shown as starting (decision 0010).
    MCPX_DISCOVERY_WAIT: "10m",
  };
  delete env.MCPX_CONFIG;
  delete env.MCPX_SESSION_ID;
  // The world's `.mcp.json` is a project file found upward: trusted here unless a test asks.
  if ((options.trust ?? "always") === "always") env.MCPX_SECURITY_TRUST_PROJECT_CONFIGS = "always";
  else delete env.MCPX_SECURITY_TRUST_PROJECT_CONFIGS;
  // `mcpx` as `deno task install` writes it: this checkout and this Deno filled in, so a test
  // that gives the command another PATH still runs it.
  const launcher = `${dir}/.bin/mcpx`;
  await Deno.mkdir(`${dir}/.bin`);
  await Deno.writeTextFile(
    launcher,
    installedLauncher(
      await Deno.readTextFile(`${ROOT}cli/mcpx`),
      ROOT.slice(0, -1),
      Deno.execPath(),
    ),
  );
  await Deno.chmod(launcher, 0o755);
  const self: World = {
    dir,
    env,
    mark,
    async writeConfig(config, name = ".mcp.json") {
      const path = `${dir}/${name}`;
      await Deno.writeTextFile(
        path,
        typeof config === "string" ? config : JSON.stringify(config, null, 2),
      );
      return path;
    },
    async mcpx(args, options = {}) {
      // A bounded command is killed, and the test fails, when it outlives its limit.
      const limit = options.timeoutMs ? AbortSignal.timeout(options.timeoutMs) : undefined;
      // As users run it (the launcher, which relays warm commands), unless deno's own flags are given.
      let [command, ...commandArgs] = [launcher, ...args];
      if (options.denoFlags) {
        const [deno, run, ...denoArgs] = mcpxArgv(args);
        [command, ...commandArgs] = [deno, run, ...options.denoFlags, ...denoArgs];
      }
      const child = new Deno.Command(command, {
        args: commandArgs,
        env: { ...env, ...options.env },
        clearEnv: true,
        cwd: options.cwd ?? dir,
        stdin: options.stdin === undefined ? "null" : "piped",
        stdout: "piped",
        stderr: "piped",
        ...(limit ? { signal: limit } : {}),
      }).spawn();
      if (options.stdin !== undefined) {
        const writer = child.stdin.getWriter();
        await writer.write(new TextEncoder().encode(options.stdin));
        await writer.close();
      }
      const out = await child.output();
      const decoder = new TextDecoder();
      const result = {
        code: out.code,
        stdout: decoder.decode(out.stdout),
        stderr: decoder.decode(out.stderr),
      };
      if (limit?.aborted) {
        throw new Error(
          `mcpx ${
            args.join(" ")
          } took over ${options.timeoutMs} ms and was killed:\n${result.stderr}`,
        );
      }
      return result;
    },
    async json(args, options) {
      const result = await self.mcpx(["--json", ...args], options);
      try {
        return JSON.parse(result.stdout);
      } catch {
        throw new Error(
          `mcpx ${args.join(" ")} exited ${result.code}:\n${result.stdout}\n${result.stderr}`,
        );
      }
    },
    processes() {
      return processesMarked(mark);
    },
    async [Symbol.asyncDispose]() {
      await self.mcpx(["stop", "--all"]);
      for (const pid of processesMarked(mark, { front: true })) {
        try {
          Deno.kill(pid, "SIGKILL");
        } catch { /* gone */ }
      }
      // The front's socket is outside the world's folder (wire/locate.ts `socketFallbackDirs`).
      await Deno.remove(frontSocket(env)).catch(() => {});
      const allowed = new Set(options.badFramesFrom ?? []);
      const wire = (await Deno.readTextFile(env.MCPX_WIRE_CHECK).catch(() => ""))
        .split("\n").filter((line) => {
          if (line.trim() === "") return false;
          const failure = JSON.parse(line) as { server: string; direction: string };
          return !(failure.direction === "received" && allowed.has(failure.server));
        }).join("\n");
      await Deno.remove(dir, { recursive: true }).catch(() => {});
      if (wire !== "") {
        throw new Error(`frames failed the SDK's wire schema (engine/wire_check.ts):\n${wire}`);
      }
    },
  };
  return self;
}

/** The Deno cache directory of the test process (`DENO_DIR`, else the XDG default). */
function denoDir(): string {
  const explicit = Deno.env.get("DENO_DIR");
  if (explicit) return explicit;
  const xdg = Deno.env.get("XDG_CACHE_HOME") || `${Deno.env.get("HOME")}/.cache`;
  return `${xdg}/deno`;
}

/** Pids whose environment holds `MCPX_TEST_MARK=<mark>` (reads /proc); the front only when `front`. */
export function processesMarked(mark: string, options: { front?: boolean } = {}): number[] {
  const needle = `MCPX_TEST_MARK=${mark}`;
  const pids: number[] = [];
  for (const entry of Deno.readDirSync("/proc")) {
    if (!/^\d+$/.test(entry.name) || Number(entry.name) === Deno.pid) continue;
    try {
      const environ = Deno.readTextFileSync(`/proc/${entry.name}/environ`);
      if (!environ.split("\0").includes(needle)) continue;
      const stat = Deno.readTextFileSync(`/proc/${entry.name}/stat`);
      if (/\) Z /.test(stat)) continue; // a zombie has already exited
      // The front process (cli/relay/front.ts) is the user's, not a configuration's: not counted.
      if (!options.front && frontProcess(entry.name)) continue;
      pids.push(Number(entry.name));
    } catch { /* gone or not ours */ }
  }
  return pids;
}

/** Whether process `pid` runs the front (decision 0068). */
function frontProcess(pid: string): boolean {
  try {
    return Deno.readTextFileSync(`/proc/${pid}/cmdline`).split("\0")
      .some((arg) => arg.endsWith("cli/relay/front.ts"));
  } catch {
    return false;
  }
}

/** Waits until `check()` is true or `ms` passes; returns the last result. */
export async function eventually(
  check: () => boolean | Promise<boolean>,
  ms = 10_000,
): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await check()) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return await check();
}

/**
 * Runs `mcpx <args>` in `w` on a terminal, as a user's shell would: `script`
 * gives it a pseudo-terminal and copies what it wrote (stdout and stderr
 * alike) to `text`.
 */
export async function onTerminal(
  w: Pick<World, "dir" | "env">,
  args: string[],
): Promise<{ code: number; text: string }> {
  const quote = (word: string) => `'${word.replaceAll("'", "'\\''")}'`;
  const out = await new Deno.Command("script", {
    args: ["-qec", mcpxArgv(args).map(quote).join(" "), "/dev/null"],
    env: w.env,
    clearEnv: true,
    cwd: w.dir,
    stdin: "null",
  }).output();
  return { code: out.code, text: new TextDecoder().decode(out.stdout) };
}

/** A free TCP port on loopback. */
export function freePort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  return port;
}

/** A server entry for `mcpServers` that starts one of {@link SERVERS} over stdio. */
export function stdioServer(
  name: keyof typeof SERVERS,
  extraArgs: string[] = [],
  mcpx?: Record<string, unknown>,
): { command: string; args: string[]; mcpx?: Record<string, unknown> } {
  const [command, ...args] = SERVERS[name];
  return { command, args: [...args, ...extraArgs], ...(mcpx ? { mcpx } : {}) };
}

/**
 * `discovery.wait` as mcpx ships it (1 s), for the tests of discovery and
 * script runs that must see a server still starting: {@link world} sets it
 * to 10 minutes for every other test.
 */
export const SHIPPED_DISCOVERY_WAIT = { MCPX_DISCOVERY_WAIT: "1s" };

/**
 * A fixture server that never answers `initialize`. Its first start may take
 * 40 s (`firstStartTimeout`), so that code which waits for it fails a test at
 * its bound instead of hanging the suite for the default 5 minutes.
 */
export function hangingServer(): ReturnType<typeof fixtureServer> {
  return fixtureServer({
    env: { MISBEHAVE_START_DELAY_MS: "600000" },
    mcpx: { firstStartTimeout: "40s" },
  });
}

/** A child process a test runs beside the CLI; dispose it to kill its process group. */
export interface Background extends AsyncDisposable {
  readonly pid: number;
  /** Resolves once the process has exited. */
  readonly status: Promise<Deno.CommandStatus>;
  /** True once the process has exited. */
  exited(): boolean;
  /** Everything it wrote to stdout and stderr so far. */
  output(): string;
}

/**
 * Starts `command args` in its own process group (so `npx` and the node
 * process under it go together) and collects its output.
 */
export function background(
  command: string,
  args: string[],
  options: { env: Record<string, string>; cwd?: string },
): Background {
  const child = new Deno.Command(command, {
    args,
    env: options.env,
    clearEnv: true,
    cwd: options.cwd,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
    detached: true,
  }).spawn();
  let text = "";
  let done = false;
  const pump = async (stream: ReadableStream<Uint8Array>) => {
    const decoder = new TextDecoder();
    for await (const chunk of stream) text += decoder.decode(chunk, { stream: true });
  };
  const pumps = Promise.all([pump(child.stdout), pump(child.stderr)]).catch(() => {});
  const status = child.status.then((s) => {
    done = true;
    return s;
  });
  return {
    pid: child.pid,
    status,
    exited: () => done,
    output: () => text,
    async [Symbol.asyncDispose]() {
      for (const signal of ["SIGTERM", "SIGKILL"] as const) {
        if (done) break;
        try {
          Deno.kill(-child.pid, signal);
        } catch { /* group gone */ }
        if (await settles(status, 3000)) break;
      }
      await status;
      await pumps;
    },
  };
}

async function settles(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<false>((resolve) => timer = setTimeout(() => resolve(false), ms));
  try {
    return await Promise.race([promise.then(() => true), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** Runs `mcpx <args>` in the background in world `w` (e.g. a foreground `mcpx daemon`). */
export function backgroundMcpx(
  w: World,
  args: string[],
  options: { env?: Record<string, string> } = {},
): Background {
  const [deno, ...denoArgs] = mcpxArgv(args);
  return background(deno, denoArgs, { env: { ...w.env, ...options.env }, cwd: w.dir });
}

/** A remote server-everything a test started, and the URL of its endpoint. */
export interface RemoteServer extends AsyncDisposable {
  url: string;
  process: Background;
}

/**
 * Starts `@modelcontextprotocol/server-everything` over Streamable HTTP
 * (`/mcp`) or SSE (`/sse`) on a free port, and waits until it says it
 * listens there (its own words, so a port another test grabbed meanwhile is
 * never mistaken for it; then it exits and is started on another port). The
 * process does not carry the world's mark, so `w.processes()` lists only
 * what mcpx started.
 */
export async function remoteEverything(
  w: World,
  transport: "streamableHttp" | "sse",
): Promise<RemoteServer> {
  const [command, ...args] = SERVERS.everything;
  let output = "";
  for (let attempt = 0; attempt < 3; attempt++) {
    const port = freePort();
    const env: Record<string, string> = { ...w.env, PORT: String(port) };
    delete env.MCPX_TEST_MARK;
    const process = background(command, [...args, transport], { env, cwd: w.dir });
    const said = new RegExp(`(listening on|running on) port ${port}\\b`);
    await eventually(() => process.exited() || said.test(process.output()), 60_000);
    if (!process.exited() && said.test(process.output())) {
      return {
        url: `http://127.0.0.1:${port}/${transport === "sse" ? "sse" : "mcp"}`,
        process,
        [Symbol.asyncDispose]: () => process[Symbol.asyncDispose](),
      };
    }
    await process[Symbol.asyncDispose]();
    output = process.output();
  }
  throw new Error(`server-everything ${transport} did not start listening:\n${output}`);
}

/** The command line of a live process, as its arguments (empty when gone). */
export function commandLine(pid: number): string[] {
  try {
    return Deno.readTextFileSync(`/proc/${pid}/cmdline`).split("\0").filter(Boolean);
  } catch {
    return [];
  }
}

/** True while a process with this pid exists and is not a zombie. */
export function alive(pid: number): boolean {
  try {
    return !/\) Z /.test(Deno.readTextFileSync(`/proc/${pid}/stat`));
  } catch {
    return false;
  }
}

/** A stack-trace line ("    at foo (file.ts:1:2)"), which no CLI output may contain. */
export const STACK_LINE = /^\s+at .+[:(]/m;

/**
 * The schema cache's index files in `dir` (a world's `.cache/mcpx`), not a
 * write's temporary file; none when the folder is not there yet.
 */
export function schemaCacheFiles(dir: string): string[] {
  try {
    return [...Deno.readDirSync(dir)]
      .filter((e) => e.isFile && /^schemas-[0-9a-f]+\.json$/.test(e.name)).map((e) => e.name);
  } catch {
    return [];
  }
}
