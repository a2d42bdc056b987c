/**
 * The two gateways `bench:serve` drives (private to bench/): `mcpx serve
 * --http` and `mcporter serve --http`, each a long-lived process listening on
 * loopback, reached by the MCP SDK's client over Streamable HTTP; the bursts
 * of calls made through them; and the CPU time their process trees spend.
 *
 * @module
 */

import {
  type CallToolResult,
  Client,
  StreamableHTTPClientTransport,
} from "@modelcontextprotocol/client";
import { cpuUsage } from "node:process";
import { processTable } from "./_processes.ts";

/** The most one call may take before the burst fails, in ms. */
export const CALL_TIMEOUT_MS = 10_000;

/** A gateway listening on loopback, and how a correct echo call through it looks. */
export interface Gateway {
  id: "mcpx" | "peer";
  label: string;
  /** The serve process (the launcher `exec`s deno, so this is the serving process itself). */
  child: Deno.ChildProcess;
  /** `http://127.0.0.1:<port>/mcp`. */
  url: URL;
  /** What the process wrote on stderr (its last 16 KiB). */
  stderr(): string;
  /** The pids whose trees do the gateway's work: the serve process and the daemon behind it. */
  roots: { serve: number; daemon: number };
  /** The tool each call names, and its arguments (set once the tools are listed). */
  tool: string;
  arguments: Record<string, unknown>;
  /** Why a call's result is wrong, or undefined when it is `Echo: hi`. */
  check(result: CallToolResult): string | undefined;
  /** How many tools its `tools/list` answered. */
  toolCount: number;
}

/**
 * Starts `argv` with exactly `env` in `cwd` and waits for the URL it prints
 * on stderr (`http://127.0.0.1:<port>/mcp`); stderr is drained for the
 * process's whole life, keeping its last 16 KiB.
 *
 * @param timeoutMs How long to wait for the URL, in ms.
 * @returns The child, its URL and its stderr so far.
 * @throws When it exits or stays silent past `timeoutMs` (stderr quoted).
 */
export async function startListening(
  argv: string[],
  env: Record<string, string>,
  cwd: string,
  timeoutMs: number,
): Promise<{ child: Deno.ChildProcess; url: URL; stderr: () => string }> {
  const child = new Deno.Command(argv[0], {
    args: argv.slice(1),
    env,
    clearEnv: true,
    cwd,
    stdin: "null",
    stdout: "null",
    stderr: "piped",
  }).spawn();
  let text = "";
  const found = Promise.withResolvers<URL>();
  (async () => {
    const decoder = new TextDecoder();
    for await (const chunk of child.stderr) {
      text = (text + decoder.decode(chunk, { stream: true })).slice(-16_384);
      const m = /http:\/\/127\.0\.0\.1:\d+\/mcp\b/.exec(text);
      if (m) found.resolve(new URL(m[0]));
    }
  })().catch(() => {});
  const exited = child.status.then((s) => {
    throw new Error(`exited (code ${s.code}) before listening: ${text.trim().slice(-500)}`);
  });
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`not listening after ${timeoutMs} ms: ${text.trim().slice(-500)}`)),
      timeoutMs,
    );
  });
  try {
    const url = await Promise.race([found.promise, exited, late]);
    return { child, url, stderr: () => text };
  } catch (error) {
    try {
      child.kill("SIGKILL");
    } catch { /* gone */ }
    throw error;
  } finally {
    clearTimeout(timer);
    exited.catch(() => {});
  }
}

/** Stops a gateway's process: SIGTERM, up to 5 s, then SIGKILL. */
export async function stopListening(child: Deno.ChildProcess): Promise<void> {
  try {
    child.kill("SIGTERM");
  } catch { /* gone */ }
  const gone = await Promise.race([
    child.status.then(() => true),
    new Promise<false>((r) => setTimeout(() => r(false), 5_000)),
  ]);
  if (!gone) {
    try {
      child.kill("SIGKILL");
    } catch { /* gone */ }
    await child.status;
  }
}

/** A connected SDK client, closed within 5 s when disposed. */
export type BenchClient = Client & AsyncDisposable;

/**
 * Connects one SDK client (default options: the 2025-era `initialize`, as
 * both gateways speak it) over Streamable HTTP.
 */
export async function connectClient(url: URL): Promise<BenchClient> {
  const client = new Client({ name: "mcpx-bench-serve", version: "0" });
  await client.connect(new StreamableHTTPClientTransport(url));
  return Object.assign(client, {
    [Symbol.asyncDispose]: () =>
      Promise.race([
        client.close().catch(() => {}),
        new Promise<void>((r) => setTimeout(r, 5_000)),
      ]),
  });
}

/** Thrown when a call through a gateway fails or answers wrong: the bench stops. */
export class WrongAnswer extends Error {
  constructor(gateway: string, detail: string) {
    super(`${gateway}: ${detail}`);
    this.name = "WrongAnswer";
  }
}

/** One call through `g` by `client`, checked; its wall time in ms. */
export async function checkedCall(g: Gateway, client: Client): Promise<number> {
  const t0 = performance.now();
  let result: CallToolResult;
  try {
    result = await client.callTool(
      { name: g.tool, arguments: g.arguments },
      { timeout: CALL_TIMEOUT_MS },
    ) as CallToolResult;
  } catch (error) {
    throw new WrongAnswer(g.label, `the call failed: ${(error as Error).message ?? error}`);
  }
  const ms = performance.now() - t0;
  const wrong = g.check(result);
  if (wrong) throw new WrongAnswer(g.label, wrong);
  return ms;
}

/** What one burst through one gateway measured. */
export interface Burst {
  gateway: Gateway["id"];
  clients: number;
  round: number;
  /** Calls answered (every one checked). */
  calls: number;
  /** From the burst's start to its last answer, in ms. */
  wallMs: number;
  /** Each call's wall time, in ms. */
  callMs: number[];
  /** CPU (user + system) of the serve process's tree during the burst, in ms. */
  serveCpuMs: number;
  /** CPU of the daemon's tree (the daemon and the server it holds) during the burst, in ms. */
  daemonCpuMs: number;
  /** CPU of the bench's own process (the clients) during the burst, in ms. */
  clientCpuMs: number;
  /** Stopped at the count cap rather than at the time limit. */
  capped: boolean;
}

/**
 * One burst: every client calls through `g` one call after another until
 * `seconds` have passed or `maxCalls` calls have started; calls in flight at
 * the deadline finish and count. Every answer is checked.
 *
 * @throws {WrongAnswer} On the first failed or wrong call.
 */
export async function burst(
  g: Gateway,
  clients: Client[],
  round: number,
  seconds: number,
  maxCalls: number,
): Promise<Burst> {
  const callMs: number[] = [];
  let started = 0;
  let capped = false;
  const serve0 = treeCpuMs([g.roots.serve]);
  const daemon0 = treeCpuMs([g.roots.daemon]);
  const client0 = cpuUsage();
  const t0 = performance.now();
  const deadline = t0 + seconds * 1000;
  await Promise.all(clients.map(async (client) => {
    while (performance.now() < deadline) {
      if (started >= maxCalls) {
        capped = true;
        return;
      }
      started++;
      callMs.push(await checkedCall(g, client));
    }
  }));
  const wallMs = performance.now() - t0;
  const client1 = cpuUsage(client0);
  return {
    gateway: g.id,
    clients: clients.length,
    round,
    calls: callMs.length,
    wallMs,
    callMs,
    serveCpuMs: treeCpuMs([g.roots.serve]) - serve0,
    daemonCpuMs: treeCpuMs([g.roots.daemon]) - daemon0,
    clientCpuMs: (client1.user + client1.system) / 1000,
    capped,
  };
}

/** Calls per second of a burst. */
export const perSecond = (b: Pick<Burst, "calls" | "wallMs">): number =>
  b.calls / (b.wallMs / 1000);

/** Clock ticks per second of `/proc/<pid>/stat`'s times (`getconf CLK_TCK`; 100 on Linux). */
const TICKS_PER_S = 100;

/**
 * The CPU time (user + system, `/proc/<pid>/stat` fields 14 and 15) of every
 * live process in the trees under `roots`, roots included, in ms. A process
 * that exited is not counted, so compare two readings of long-lived trees.
 */
export function treeCpuMs(roots: number[]): number {
  const table = processTable();
  const children = new Map<number, number[]>();
  for (const [pid, { ppid }] of table) children.set(ppid, [...(children.get(ppid) ?? []), pid]);
  const seen = new Set<number>();
  const visit = (pid: number) => {
    if (seen.has(pid) || !table.has(pid)) return;
    seen.add(pid);
    for (const child of children.get(pid) ?? []) visit(child);
  };
  roots.forEach(visit);
  let ticks = 0;
  for (const pid of seen) {
    try {
      const stat = Deno.readTextFileSync(`/proc/${pid}/stat`);
      const rest = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      ticks += Number(rest[11]) + Number(rest[12]);
    } catch { /* gone */ }
  }
  return ticks * 1000 / TICKS_PER_S;
}

/** The text of the first content block of a tool result, or undefined. */
const firstText = (r: { content?: unknown }): string | undefined => {
  const block = Array.isArray(r.content) ? r.content[0] : undefined;
  return block?.type === "text" && typeof block.text === "string" ? block.text : undefined;
};

/**
 * mcpx's `mcpx_call` result: not an error, and, as the tool's own result is
 * answered as is (decision 0076), server-everything's `Echo: hi` as its first
 * text block.
 */
export function checkMcpxCall(r: CallToolResult): string | undefined {
  if (r.isError) return `isError: ${firstText(r)?.slice(0, 300)}`;
  return firstText(r) === "Echo: hi"
    ? undefined
    : `wrong answer: ${JSON.stringify(r).slice(0, 300)}`;
}

/** mcporter's bridged `everything__echo` result: not an error, and `Echo: hi`. */
export function checkPeerCall(r: CallToolResult): string | undefined {
  if (r.isError) return `isError: ${firstText(r)?.slice(0, 300)}`;
  return firstText(r) === "Echo: hi"
    ? undefined
    : `wrong answer: ${JSON.stringify(r).slice(0, 300)}`;
}
