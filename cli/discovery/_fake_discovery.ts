/**
 * A command context for the discovery commands' in-process tests: a schema
 * cache of one namespace `fs` (tool `read_file`) and one, `empty`, whose
 * listing failed; settings from a small table. Nothing else is faked.
 *
 * @module
 */

import { memoryIo } from "../../core/io.ts";
import type { CliContext } from "../context.ts";
import type { NamespaceEntry } from "../../discovery/types.ts";

/** One namespace `fs` with one tool `read_file`, as the discovery view gives it. */
export const FS: NamespaceEntry = {
  namespace: "fs",
  server: "fs",
  description: "Files",
  tools: [{
    namespace: "fs",
    server: "fs",
    tool: "read_file",
    fn: "read_file",
    description: "Read a file",
    tags: [],
    inputSchema: { type: "object", properties: { path: { type: "string" } } },
  }],
};

/** A context whose schema cache holds {@link FS} (and `empty`, a namespace without tools). */
export function fsContext() {
  const io = memoryIo();
  const settings: Record<string, unknown> = {
    "discovery.wait": "5s",
    "catalog.budget": 2000,
    "catalog.bias": "",
  };
  const ctx = {
    io,
    env: {},
    direct: undefined,
    setting: (name: string) => Promise.resolve(settings[name]),
    namespaces: () =>
      Promise.resolve({
        namespaces: [structuredClone(FS), {
          namespace: "empty",
          server: "empty",
          description: "",
          tools: [],
          error: "listing failed: boom",
        }],
        disabled: [],
        entry: () => undefined,
      }),
    config: () => Promise.resolve({ path: "/x/.mcp.json", servers: [] }),
  } as unknown as CliContext;
  return { ctx, io };
}
