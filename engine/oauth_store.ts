/**
 * Where mcpx keeps what OAuth gave it for one remote server: a private file
 * (mode 0600, in a 0700 folder) under `<paths.state>/oauth/`, one per
 * configuration file + server name + exact URL (spec 002, "OAuth": a
 * credential is scoped to the file and server it was granted for and used
 * only for that endpoint). It holds the tokens, the client information
 * (registered dynamically or given with `--client-id`), and, between
 * `mcpx auth --no-browser` and `--code`, the PKCE verifier, the state and
 * the discovery state. Decision 0042.
 *
 * A refresh is done under {@link withStoreLock}: an exclusive `flock` on a
 * sibling `.lock` file, which the kernel releases when its holder exits, so
 * no stale lock outlives a crashed process.
 *
 * @module
 */

import type {
  OAuthDiscoveryState,
  StoredOAuthClientInformation,
  StoredOAuthTokens,
} from "@modelcontextprotocol/client";
import { ensurePrivateDir, PRIVATE_FILE_MODE, writePrivateFile } from "../core/private_fs.ts";
import { join } from "../core/posix_path.ts";
import { moveDamagedAside, parseSalvaging } from "../core/damaged_json.ts";

/** What one store entry is about: the configuration file, the server's name, its exact URL. */
export interface OAuthStoreKey {
  /** The configuration file as found (absolute), or the direct target's generated file. */
  configPath: string;
  /** The key under `mcpServers`. */
  server: string;
  /** The server's URL exactly as configured. */
  url: string;
}

/** One server's OAuth state, as the file holds it (JSON). */
export interface OAuthStoreEntry extends OAuthStoreKey {
  version: 1;
  /** The client as the authorization server knows it. */
  clientInformation?: StoredOAuthClientInformation;
  /** True when `clientInformation` was given (`--client-id`, the `auth` block), not registered. */
  configuredClient?: boolean;
  tokens?: StoredOAuthTokens;
  /** When `tokens.access_token` stops working (epoch ms), from `expires_in` at save time. */
  expiresAt?: number;
  /** When the tokens were saved (epoch ms). */
  savedAt?: number;
  /** Between starting an authorization and completing it: the PKCE verifier. */
  codeVerifier?: string;
  /** Between starting an authorization and completing it: the `state` sent. */
  state?: string;
  /** The redirect URI the authorization was started with (a loopback URL). */
  redirectUri?: string;
  /** What discovery found (RFC 9728, RFC 8414), kept so `--code` talks to the same server. */
  discoveryState?: OAuthDiscoveryState;
  /** The scope a server's challenge asked for last (401 or 403 `insufficient_scope`). */
  challengedScope?: string;
}

/** `<stateDir>/oauth`: the folder of every entry. */
export function oauthDir(stateDir: string): string {
  return join(stateDir, "oauth");
}

/**
 * The file of one entry: `<stateDir>/oauth/<sha256 of the key, 32 hex>.json`.
 *
 * @example
 * ```ts
 * import { entryPath } from "./oauth_store.ts";
 * const key = { configPath: "/p/.mcp.json", server: "gh", url: "https://x/mcp" };
 * const a = await entryPath("/s", key);
 * if (!a.startsWith("/s/oauth/") || a === await entryPath("/s", { ...key, url: "https://x/mcp/" })) {
 *   throw new Error(a);
 * }
 * ```
 */
export async function entryPath(stateDir: string, key: OAuthStoreKey): Promise<string> {
  const text = JSON.stringify([key.configPath, key.server, key.url]);
  const digest = new Uint8Array(
    await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)),
  );
  const hex = [...digest.slice(0, 16)].map((b) => b.toString(16).padStart(2, "0")).join("");
  return join(oauthDir(stateDir), `${hex}.json`);
}

/**
 * The entry at `path`, or undefined when there is none. A file that is not an
 * entry (not whole JSON, or not the shape {@link writeEntry} writes) is
 * damaged: it is moved aside as `<file>.damaged-<time>` with a warning naming
 * it, the server it was for when that much can be read, and that its tokens
 * are lost (core/damaged_json.ts `moveDamagedAside`, decision 0019), and
 * read as no entry. An entry of another version (a newer mcpx) is left alone.
 *
 * @throws Deno's error when the file cannot be read or moved (permissions).
 */
export async function readEntry(path: string): Promise<OAuthStoreEntry | undefined> {
  let bytes: Uint8Array;
  try {
    bytes = await Deno.readFile(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return undefined;
    throw error;
  }
  const read = readEntryText(new TextDecoder().decode(bytes));
  if (!("why" in read)) return read.entry;
  const server = typeof read.doc?.server === "string" ? read.doc.server : serverNamedIn(bytes);
  moveDamagedAside({
    path,
    what: "the OAuth token file",
    why: read.why,
    lost: `the tokens in it${server ? ` for server "${server}"` : ""} are lost; ` +
      `sign in again with \`mcpx auth ${server ?? "<server>"}\``,
  }, { expect: bytes });
  return undefined;
}

/**
 * A token file's text read as an entry: the entry (undefined for one of
 * another layout version, which is not damage: a later mcpx's), or why it is
 * damaged (decision 0019) with what could be parsed of it. The one judgement
 * {@link readEntry} and `mcpx doctor` (cli/doctor/doctor_damaged.ts) share.
 */
export function readEntryText(
  text: string,
): { entry: OAuthStoreEntry | undefined } | { why: string; doc?: Record<string, unknown> } {
  const { value, damaged } = parseSalvaging(text);
  const doc = value && typeof value === "object" && !Array.isArray(value)
    ? value as Record<string, unknown>
    : undefined;
  if (damaged) return { why: "it is not whole JSON", ...(doc ? { doc } : {}) };
  if (doc && typeof doc.version === "number" && doc.version !== 1) return { entry: undefined };
  if (doc?.version === 1 && typeof doc.server === "string") {
    return { entry: doc as unknown as OAuthStoreEntry };
  }
  return { why: "it is not an entry mcpx wrote", ...(doc ? { doc } : {}) };
}

/**
 * The server a damaged entry's text names, when its `"server": "…"` member is
 * whole (an entry is written with it before the tokens): for the warning only.
 */
function serverNamedIn(bytes: Uint8Array): string | undefined {
  const found = /"server"\s*:\s*("(?:[^"\\]|\\.)*")/.exec(new TextDecoder().decode(bytes));
  try {
    return found ? JSON.parse(found[1]) : undefined;
  } catch {
    return undefined;
  }
}

/** Writes `entry` to `path` (atomically, 0600; its folder 0700). */
export async function writeEntry(path: string, entry: OAuthStoreEntry): Promise<void> {
  const dir = path.slice(0, path.lastIndexOf("/"));
  ensurePrivateDir(dir, "OAuth tokens", { from: dir.slice(0, dir.lastIndexOf("/")) });
  await writePrivateFile(path, JSON.stringify(entry, null, 2) + "\n");
}

/** Removes the entry at `path` and its lock file; true when there was an entry. */
export async function removeEntry(path: string): Promise<boolean> {
  let had = true;
  await Deno.remove(path).catch((error) => {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
    had = false;
  });
  await Deno.remove(`${path.slice(0, -".json".length)}.lock`).catch(() => {});
  return had;
}

/** Every entry in the store, with its file. */
export async function listEntries(
  stateDir: string,
): Promise<{ path: string; entry: OAuthStoreEntry }[]> {
  const out: { path: string; entry: OAuthStoreEntry }[] = [];
  try {
    for await (const item of Deno.readDir(oauthDir(stateDir))) {
      if (!item.isFile || !item.name.endsWith(".json")) continue;
      const path = join(oauthDir(stateDir), item.name);
      const entry = await readEntry(path);
      if (entry) out.push({ path, entry });
    }
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  }
  return out;
}

/**
 * Runs `work` holding the entry's lock: an exclusive `flock` on
 * `<entry>.lock` (created 0600), taken by one process at a time on this
 * machine and released when `work` settles or the holder dies. Callers
 * re-read the entry inside `work`: another process may have refreshed the
 * tokens while this one waited.
 *
 * @param path The entry's file ({@link entryPath}).
 */
export async function withStoreLock<T>(path: string, work: () => Promise<T>): Promise<T> {
  const dir = path.slice(0, path.lastIndexOf("/"));
  ensurePrivateDir(dir, "OAuth tokens", { from: dir.slice(0, dir.lastIndexOf("/")) });
  const file = await Deno.open(`${path.slice(0, -".json".length)}.lock`, {
    create: true,
    write: true,
    mode: PRIVATE_FILE_MODE,
  });
  try {
    await file.lock(true);
    return await work();
  } finally {
    await file.unlock().catch(() => {});
    file.close();
  }
}

/**
 * When tokens saved at `savedAt` (epoch ms) stop working, from their
 * `expires_in` (seconds, RFC 6749 §5.1); undefined when the server gave none.
 */
export function expiryOf(tokens: StoredOAuthTokens, savedAt: number): number | undefined {
  return typeof tokens.expires_in === "number" ? savedAt + tokens.expires_in * 1000 : undefined;
}
