/**
 * The three real servers of `bench:memory --real` (private to bench/):
 * server-everything, server-filesystem and server-memory from npm, pinned in
 * dev/real_servers.ts, as the same three entries on both sides, each warmed
 * by one call whose answer is checked.
 *
 * @module
 */

import { SERVERS } from "../dev/real_servers.ts";

/** One configured server and the call that warms it. */
export interface RealEntry {
  /** The entry's name, also mcpx's namespace. */
  name: string;
  /** The `mcpServers` entry, the same on both sides (no `mcpx` block: default settings). */
  config: { command: string; args: string[]; env?: Record<string, string> };
  /** The tool called once. */
  tool: string;
  /** Its arguments, as mcpx takes them (one JSON object). */
  arguments: Record<string, string>;
  /** What a correct answer prints, on either side. */
  expect: RegExp;
}

/**
 * The three entries. `dir` holds what they touch: server-filesystem is
 * allowed `dir/files` only, and server-memory keeps its graph in
 * `dir/memory.jsonl` (not beside its package in npm's cache).
 *
 * @param dir An existing folder, the same for every round and side.
 */
export function realEntries(dir: string): RealEntry[] {
  const [command, ...rest] = SERVERS.everything;
  return [
    {
      name: "everything",
      config: { command, args: [...rest] },
      tool: "echo",
      arguments: { message: "hi" },
      expect: /Echo: hi/,
    },
    {
      name: "filesystem",
      config: {
        command: SERVERS.filesystem[0],
        args: [...SERVERS.filesystem.slice(1), `${dir}/files`],
      },
      tool: "list_allowed_directories",
      arguments: {},
      expect: new RegExp(`${dir}/files`.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")),
    },
    {
      name: "memory",
      config: {
        command: SERVERS.memory[0],
        args: [...SERVERS.memory.slice(1)],
        env: { MEMORY_FILE_PATH: `${dir}/memory.jsonl` },
      },
      tool: "read_graph",
      arguments: {},
      expect: /entities/,
    },
  ];
}

/** `mcporter call` arguments for `e`: `name.tool key=value…`. */
export const peerCallArgs = (e: RealEntry): string[] => [
  `${e.name}.${e.tool}`,
  ...Object.entries(e.arguments).map(([k, v]) => `${k}=${v}`),
];

/**
 * Puts each package in npm's cache (network allowed, once): runs the entry's
 * command with stdin closed, so the server starts, reads end of input and
 * exits.
 *
 * @throws When a command does not exit within 300 s, or its package did not install.
 */
export async function primeRealEntries(
  entries: RealEntry[],
  env: Record<string, string>,
  cwd: string,
): Promise<void> {
  await Deno.mkdir(`${cwd}/files`, { recursive: true });
  for (const e of entries) {
    const out = await new Deno.Command(e.config.command, {
      args: e.config.args,
      env: { ...env, ...e.config.env },
      clearEnv: true,
      cwd,
      stdin: "null",
      stdout: "null",
      stderr: "piped",
      signal: AbortSignal.timeout(300_000),
    }).output();
    const stderr = new TextDecoder().decode(out.stderr);
    if (/npm (error|ERR!)/.test(stderr)) {
      throw new Error(`${e.config.args.join(" ")} did not install: ${stderr.trim().slice(-300)}`);
    }
  }
}
