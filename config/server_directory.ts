/**
 * The directory a server's process starts in, which is where relative paths
 * in its tools' arguments resolve (`filePath: "./shots/a.png"`), by the kind
 * of pool (decision 0060):
 *
 * - an entry that sets `cwd`: that directory, always;
 * - a `cwd`-scoped pool (one instance per caller's directory): the caller's
 *   working directory, the directory its scope key names;
 * - any other stdio pool (`global`, `session`, `repo`, …: one process serves
 *   callers in many directories): the configuration file's directory;
 * - a remote server: its own machine's, which mcpx does not know.
 *
 * @module
 */

import type { ServerSpec } from "./types.ts";

/**
 * The spec an instance of `spec` under scope key `key` starts with: its
 * `cwd` made the caller's directory for a `cwd`-scoped pool whose entry sets
 * none, else `spec` itself.
 *
 * @param spec The server.
 * @param key The instance's scope key (`{ kind: "cwd", value: "/work/x" }`).
 */
export function startedIn(
  spec: ServerSpec,
  key: { kind: string; value?: unknown },
): ServerSpec {
  if (
    spec.transport !== "stdio" || !spec.cwdDefaulted || key.kind !== "cwd" ||
    typeof key.value !== "string"
  ) {
    return spec;
  }
  return { ...spec, cwd: key.value };
}

/**
 * Where relative paths in `spec`'s tool arguments resolve when that is not
 * the caller's own working directory: the directory its process starts in,
 * for `mcpx types` to say so. Undefined when it is the caller's (a
 * `cwd`-scoped pool whose entry sets no `cwd`) or not known (a remote server).
 *
 * @param spec The server.
 * @returns An absolute directory, or undefined.
 */
export function pathsResolveIn(spec: ServerSpec): string | undefined {
  if (spec.transport !== "stdio") return undefined;
  if (spec.cwdDefaulted && spec.pool.scope === "cwd") return undefined;
  return spec.cwd;
}
