/**
 * The hash the trust store records per server (decision 0018): what each
 * server of a configuration runs, as written, and SHA-256 of its canonical
 * JSON. config/load.ts keeps the hashes with a file's compiled entry, so a
 * command that checks trust hashes nothing while the file is unchanged.
 *
 * @module
 */

import { canonicalJson } from "./_canonical_json.ts";
import { PROCESS_KEYS } from "./_process.ts";
import { own, setOwn } from "../core/own.ts";
import { sha256Hex } from "../core/sha256.ts";

/**
 * What each server of a configuration runs, as written: its process keys, and
 * for an alias its target's. Servers are keyed by their name under `mcpServers`.
 *
 * @param document The parsed configuration file (`LoadedConfig.document`).
 * @returns Server name → the JSON-compatible value a hash is taken of.
 */
export function runnables(document: Record<string, unknown>): Record<string, unknown> {
  const servers = isObject(document.mcpServers) ? document.mcpServers : {};
  const pick = (entry: unknown) =>
    isObject(entry)
      ? Object.fromEntries(PROCESS_KEYS.filter((k) => k in entry).map((k) => [k, entry[k]]))
      : {};
  const out: Record<string, unknown> = {};
  for (const [name, entry] of Object.entries(servers)) {
    const target = isObject(entry) && typeof entry.aliasOf === "string" ? entry.aliasOf : undefined;
    setOwn(
      out,
      name,
      target === undefined
        ? pick(entry)
        : { ...pick(entry), aliasOf: { server: target, ...pick(own(servers, target)) } },
    );
  }
  return out;
}

/**
 * The hash the trust store records per server: SHA-256 of the canonical JSON
 * (sorted keys) of what it runs ({@link runnables}).
 *
 * @param document The parsed configuration file.
 * @returns Server name → 64 hex chars.
 * @example
 * ```ts
 * import { runnableHashes } from "./runnable_hash.ts";
 * const doc = (description: string) => ({
 *   mcpServers: { a: { command: "x", args: ["1"], mcpx: { description } } },
 * });
 * const [one, two] = await Promise.all([runnableHashes(doc("a")), runnableHashes(doc("b"))]);
 * if (one.a !== two.a || one.a.length !== 64) throw new Error();
 * ```
 */
export async function runnableHashes(
  document: Record<string, unknown>,
): Promise<Record<string, string>> {
  const entries = await Promise.all(
    Object.entries(runnables(document)).map(async ([name, runnable]) =>
      [name, await sha256Hex(canonicalJson(runnable))] as const
    ),
  );
  return Object.fromEntries(entries);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}
