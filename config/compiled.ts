/**
 * Compiled configurations: the validated result of parsing a configuration,
 * stored under the cache directory so later runs skip the JSONC parser
 * (~40 ms of start-up, measured) and the validation.
 *
 * Sound by construction: the entry is keyed by the configuration's
 * fingerprint (its real path, its bytes and the values of the variables it
 * names in `${…}`) and records a digest of each of those values too; the same
 * bytes under the same values parse to the same result, anything else is
 * parsed afresh.
 *
 * Private by construction: the entry holds expanded values (a `Bearer
 * ${TOKEN}` header is stored with the token), so the file is created with
 * mode 0600, a cache directory mcpx creates gets mode 0700, and the recorded
 * variables are SHA-256 digests, not their values.
 *
 * @module
 */

import type { ParsedConfig } from "./parse.ts";
import { VERSION } from "../version.ts";

interface CompiledEntry {
  version: 2;
  mcpxVersion: string;
  /**
   * Every variable named in `${…}` in the text, with the SHA-256 of its value
   * (64 hex), or null when unset.
   */
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

/** SHA-256 of a variable's value as 64 hex chars, or null when it is unset. */
async function digestOf(value: string | undefined): Promise<string | null> {
  if (value === undefined) return null;
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(value));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * The compiled configuration for `fingerprint` when one exists for this mcpx
 * version and every referenced variable still has the recorded value (compared
 * by SHA-256 digest).
 */
export async function readCompiled(
  cacheDir: string,
  fingerprint: string,
  env: Record<string, string | undefined>,
): Promise<ParsedConfig | undefined> {
  let entry: CompiledEntry;
  try {
    entry = JSON.parse(Deno.readTextFileSync(entryPath(cacheDir, fingerprint)));
  } catch {
    return undefined;
  }
  if (entry?.version !== 2 || entry.mcpxVersion !== VERSION || !entry.parsed) return undefined;
  for (const [name, digest] of Object.entries(entry.env ?? {})) {
    if ((await digestOf(env[name])) !== digest) return undefined;
  }
  return entry.parsed;
}

/**
 * Stores a compiled configuration, readable by its owner only (best effort: a
 * read-only cache only costs speed). Creates `cacheDir` with mode 0700 when it
 * is missing; an existing directory keeps its mode.
 */
export async function writeCompiled(
  cacheDir: string,
  fingerprint: string,
  text: string,
  env: Record<string, string | undefined>,
  parsed: ParsedConfig,
): Promise<void> {
  const names = referencedVariables(text);
  const digests = await Promise.all(names.map((name) => digestOf(env[name])));
  const entry: CompiledEntry = {
    version: 2,
    mcpxVersion: VERSION,
    env: Object.fromEntries(names.map((name, i) => [name, digests[i]])),
    parsed,
  };
  try {
    Deno.mkdirSync(cacheDir, { recursive: true, mode: 0o700 });
    const path = entryPath(cacheDir, fingerprint);
    // A new file (createNew), so the mode applies: a stale file of that name would keep its own.
    const tmp = `${path}.${Deno.pid}.${crypto.randomUUID()}.tmp`;
    Deno.writeTextFileSync(tmp, JSON.stringify(entry), { createNew: true, mode: 0o600 });
    Deno.renameSync(tmp, path);
  } catch { /* not writable: parse again next time */ }
}
