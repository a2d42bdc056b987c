/**
 * Compiled configurations: the validated result of parsing a configuration,
 * stored under the cache directory so later runs skip the JSONC parser
 * (~40 ms of start-up, measured) and the validation.
 *
 * Sound by construction: the entry is keyed by the configuration's
 * fingerprint (its real path and bytes) and records the value of every
 * environment variable the text names in `${…}`; the same bytes under the
 * same values parse to the same result, anything else is parsed afresh.
 *
 * @module
 */

import type { ParsedConfig } from "./parse.ts";
import { VERSION } from "../version.ts";

interface CompiledEntry {
  version: 1;
  mcpxVersion: string;
  /** Every variable named in `${…}` in the text, with its value (null when unset). */
  env: Record<string, string | null>;
  parsed: ParsedConfig;
}

/** The variables a configuration's text names in `${NAME…}`. */
export function referencedVariables(text: string): string[] {
  return [...new Set([...text.matchAll(/\$\{([A-Za-z_][A-Za-z0-9_]*)/g)].map((m) => m[1]))];
}

function entryPath(cacheDir: string, fingerprint: string): string {
  return `${cacheDir}/config-${fingerprint}.json`;
}

/**
 * The compiled configuration for `fingerprint` when one exists for this mcpx
 * version and every referenced variable still has the recorded value.
 */
export function readCompiled(
  cacheDir: string,
  fingerprint: string,
  env: Record<string, string | undefined>,
): ParsedConfig | undefined {
  let entry: CompiledEntry;
  try {
    entry = JSON.parse(Deno.readTextFileSync(entryPath(cacheDir, fingerprint)));
  } catch {
    return undefined;
  }
  if (entry?.version !== 1 || entry.mcpxVersion !== VERSION || !entry.parsed) return undefined;
  for (const [name, value] of Object.entries(entry.env ?? {})) {
    if ((env[name] ?? null) !== value) return undefined;
  }
  return entry.parsed;
}

/** Stores a compiled configuration (best effort: a read-only cache only costs speed). */
export function writeCompiled(
  cacheDir: string,
  fingerprint: string,
  text: string,
  env: Record<string, string | undefined>,
  parsed: ParsedConfig,
): void {
  const entry: CompiledEntry = {
    version: 1,
    mcpxVersion: VERSION,
    env: Object.fromEntries(referencedVariables(text).map((name) => [name, env[name] ?? null])),
    parsed,
  };
  try {
    Deno.mkdirSync(cacheDir, { recursive: true });
    const path = entryPath(cacheDir, fingerprint);
    const tmp = `${path}.${Deno.pid}.tmp`;
    Deno.writeTextFileSync(tmp, JSON.stringify(entry));
    Deno.renameSync(tmp, path);
  } catch { /* not writable: parse again next time */ }
}
