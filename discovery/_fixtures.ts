/**
 * Builders of servers, cache files and tool entries for discovery's tests.
 *
 * @module
 */

import { DEFAULT_POOL, type ServerSpec } from "../config/types.ts";
import type { CachedTool, SchemaCacheFile, ToolEntry } from "./types.ts";

/** A stdio server spec with defaults; `overrides` replace fields. */
export function serverSpec(name: string, overrides: Partial<ServerSpec> = {}): ServerSpec {
  return {
    name,
    namespace: name.replace(/[^A-Za-z0-9_$]/g, "_"),
    disabled: false,
    tags: [],
    toolTags: {},
    toolFilter: { exclude: [] },
    transport: "stdio",
    command: "true",
    args: [],
    env: {},
    headers: {},
    pool: { ...DEFAULT_POOL },
    poolId: "0000000000000000",
    listingId: "0000000000000000",
    ...overrides,
  };
}

/**
 * The memory server's knowledge-graph schema, `{ entities: Entity[] }`, its
 * Entity a described `name` and `entityType`: an object type its tools repeat.
 */
export const GRAPH_SCHEMA: Record<string, unknown> = {
  type: "object",
  properties: {
    entities: {
      type: "array",
      items: {
        type: "object",
        properties: {
          name: { type: "string", description: "The name of the entity" },
          entityType: { type: "string", description: "The type of the entity" },
        },
        required: ["name", "entityType"],
      },
    },
  },
  required: ["entities"],
};

/** A cache file holding `tools` per server name. */
export function cacheOf(tools: Record<string, CachedTool[]>): SchemaCacheFile {
  return {
    version: 2,
    mcpxVersion: "0.0.0-test",
    configPath: null,
    servers: Object.fromEntries(
      Object.entries(tools).map((
        [name, list],
      ) => [name, { listedAt: "2026-01-01T00:00:00Z", tools: list }]),
    ),
  };
}

/** A cached tool with an empty object schema. */
export function cachedTool(name: string, description?: string): CachedTool {
  return { name, description, inputSchema: { type: "object", properties: {} } };
}

/** A tool entry with an empty object schema; `overrides` replace fields. */
export function toolEntry(
  namespace: string,
  fn: string,
  description = "",
  overrides: Partial<ToolEntry> = {},
): ToolEntry {
  return {
    namespace,
    server: namespace,
    tool: fn,
    fn,
    description,
    tags: [],
    inputSchema: { type: "object", properties: {} },
    ...overrides,
  };
}

/** Runs `deno check` on one declaration file; returns its diagnostics, or "" when clean. */
export async function denoCheck(source: string): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "mcpx_types_" });
  try {
    const file = `${dir}/types.d.ts`;
    await Deno.writeTextFile(file, source);
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["check", "--quiet", "--no-config", file],
      cwd: dir,
      stdout: "piped",
      stderr: "piped",
    }).output();
    return out.success
      ? ""
      : new TextDecoder().decode(out.stderr) + new TextDecoder().decode(out.stdout);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}
