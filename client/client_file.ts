/**
 * Keeps `mcpx-client.ts` current beside a script at the cost of a hash and
 * a one-line read when nothing changed: the generated text is kept in the
 * cache under a key of everything it is generated from (the namespaces'
 * view, mcpx's version), and the file beside the script is rewritten only
 * when its first line (which carries the text's SHA-256) differs. Generation
 * itself (~7 ms, and the type generator's modules) happens only on a miss.
 *
 * @module
 */

import type { NamespaceEntry } from "../discovery/types.ts";
import { join } from "../core/posix_path.ts";
import { ensurePrivateDir, writePrivateFile } from "../core/private_fs.ts";
import { storageErrorOf } from "../core/errors.ts";
import { ROOT_URL } from "../core/root.ts";
import { sha256Hex as sha256 } from "../core/sha256.ts";

/** What {@link ensureClient} did. */
export interface EnsuredClient {
  /** The client beside the script (or where `mcpx client -o` wrote it). */
  path: string;
  /**
   * The same client in the cache, named by what it was generated from: never
   * rewritten, so a launcher that imports it gets this configuration's
   * namespaces even while another configuration's run rewrites `path`.
   */
  cachedPath: string;
  /** True when `path` was (re)written. */
  wrote: boolean;
  /**
   * Set when `path` is a client written by `mcpx client -o` for other
   * namespaces, which `mcpx run` leaves alone: a sentence saying so.
   */
  kept?: string;
}

/** The first-line note of a client written by `mcpx client -o` (never replaced by `mcpx run`). */
export const CHECKED_IN = " (mcpx client -o)";

/**
 * Makes `<dir>/mcpx-client.ts` and `<dir>/mcpx-globals.d.ts` current for
 * `namespaces`.
 *
 * @param dir The script's directory (or where `mcpx client -o` writes). One
 *   inside `cacheDir` (an `mcpx exec` program's) gets its files 0600, as every
 *   cache file; elsewhere they are the user's files, made as the umask says.
 * @param cacheDir mcpx's cache directory (`<cache>/clients/` holds generated texts,
 *   0600 in a 0700 directory).
 * @param options `fileName` (default `mcpx-client.ts`); `owner`: `client` marks
 *   the file as written by `mcpx client -o`, which a later `run` does not replace.
 * @throws {StorageError} naming the file and the fix when `dir` or the cache
 *   cannot be written (full, read-only, no permission); other file system errors as they came.
 * @throws {UnsafeDirectoryError} when `<cache>/clients/` (or the cache) is not
 *   the user's alone (core/private_fs.ts).
 */
export async function ensureClient(
  namespaces: NamespaceEntry[],
  version: string,
  dir: string,
  cacheDir: string,
  options: { fileName?: string; owner?: "run" | "client" } = {},
): Promise<EnsuredClient> {
  const key = (await sha256(JSON.stringify([version, runtimeStamp(), namespaces]))).slice(0, 32);
  const cachedPath = join(cacheDir, "clients", `${key}.ts`);
  // A run whose client is current reads two first lines, not the cached text (~150 KB for
  // one server, growing with the tools): the whole text is read only to write it somewhere.
  let text: string | undefined;
  let cachedHead = await firstLine(cachedPath);
  // Not a client's first line (client/generate.ts CLIENT_MARKER): generated again.
  if (cachedHead === null || !cachedHead.startsWith("// mcpx-client ")) {
    const { generateClient } = await import("./generate.ts");
    text = await generateClient(namespaces, version);
    ensurePrivateDir(join(cacheDir, "clients"), "mcpx's generated clients", { from: cacheDir });
    await writePrivateFile(cachedPath, text);
    cachedHead = text.slice(0, text.indexOf("\n"));
  }
  const cachedText = async () => text ??= await Deno.readTextFile(cachedPath);
  const inCache = { private: dir === cacheDir || dir.startsWith(`${cacheDir}/`) };
  const path = join(dir, options.fileName ?? "mcpx-client.ts");
  const head = options.owner === "client" ? null : await firstLine(path);
  let wrote: boolean;
  if (options.owner === "client") {
    const full = await cachedText();
    const newline = full.indexOf("\n");
    wrote = await writeIfChanged(
      path,
      full.slice(0, newline) + CHECKED_IN + full.slice(newline),
      inCache,
    );
  } else {
    if (head?.endsWith(CHECKED_IN)) {
      const same = head.slice(0, -CHECKED_IN.length) === cachedHead;
      return {
        path,
        cachedPath,
        wrote: false,
        ...(same ? {} : {
          kept: `${path} was written by \`mcpx client -o\` for other namespaces and is left as ` +
            "it is: an import of it gets those, while the globals come from this configuration; " +
            "run `mcpx client -o` again to update it",
        }),
      };
    }
    // Compared as writeIfChanged compares a generated file: by its first line.
    wrote = head !== cachedHead && await writeIfChanged(path, await cachedText(), inCache);
  }
  const globalsPath = join(dir, "mcpx-globals.d.ts");
  if (wrote || !(await exists(globalsPath))) {
    const { generateGlobals } = await import("./generate.ts");
    await writeIfChanged(
      globalsPath,
      generateGlobals(namespaces.map((n) => n.namespace)),
      inCache,
    );
  }
  return { path, cachedPath, wrote };
}

/**
 * A file's first line (without the newline), or null when it cannot be read
 * or holds no newline in its first 256 bytes (so it is no complete generated
 * client: a client's first line is under 120 characters).
 */
async function firstLine(path: string): Promise<string | null> {
  try {
    using file = await Deno.open(path);
    const buffer = new Uint8Array(256);
    let read = 0;
    while (read < buffer.length) {
      const n = await file.read(buffer.subarray(read));
      if (n === null) break;
      read += n;
    }
    const text = new TextDecoder().decode(buffer.subarray(0, read));
    const end = text.indexOf("\n");
    return end < 0 ? null : text.slice(0, end);
  } catch {
    return null;
  }
}

/**
 * The modules the client's runtime is bundled from (client/bundle.ts follows
 * the same imports; a test holds this list to them).
 */
export const RUNTIME_INPUTS: readonly string[] = [
  "./script_runtime.ts",
  "./host_runtime.ts",
  "./client_config.ts",
  "./daemon_call.ts",
  "./tool_result.ts",
  "./stack_frames.ts",
  "./client_output.ts",
  "./logger.ts",
  "./tool_index.ts",
  "./console_capture.ts",
  "./launcher_hooks.ts",
  "./syntax_location.ts",
  "./namespace_guard.ts",
  "./namespace_object.ts",
  "./content_text.ts",
  "./content_api.ts",
  "./unsettled_await.ts",
  "../wire/wire.ts",
  "../wire/endpoint.ts",
  "../wire/keep_alive.ts",
  "../wire/caller.ts",
  "../wire/answer.ts",
  "../config/identifiers.ts",
  "../core/private_dir_rule.ts",
  "../core/nearest.ts",
  "../discovery/search.ts",
  "../discovery/stem.ts",
  "../discovery/words.ts",
  "../discovery/types.ts",
  "../logs/record.ts",
];

/**
 * Size and modification time of each runtime input, so a checkout whose
 * runtime changed (same version) never reuses a stale client. Empty where the
 * sources cannot be stat'ed (a remote or compiled install: the version decides).
 */
function runtimeStamp(): string {
  try {
    return RUNTIME_INPUTS.map((input) => {
      const info = Deno.statSync(new URL(input, new URL("client/", ROOT_URL)));
      return `${info.size}:${info.mtime?.getTime()}`;
    }).join(",");
  } catch {
    return "";
  }
}

/** Whether something (a file, a directory, a link) is at `path`. */
export async function exists(path: string): Promise<boolean> {
  try {
    await Deno.lstat(path);
    return true;
  } catch {
    return false;
  }
}

/**
 * Writes a file beside a script (the user's folder, so the user's umask, not
 * mcpx's private mode): a temporary file, then rename, the temporary file
 * removed when either fails.
 *
 * @throws {StorageError} naming `path` when the file system refuses (full,
 *   read-only, no permission); other file system errors as they came.
 */
async function atomicWrite(path: string, text: string): Promise<void> {
  const tmp = `${path}.${Deno.pid}.tmp`;
  try {
    await Deno.writeTextFile(tmp, text);
    await Deno.rename(tmp, path);
  } catch (error) {
    await Deno.remove(tmp).catch(() => {});
    throw storageErrorOf(error, path) ?? error;
  }
}

/**
 * Writes `text` to `path` unless the file already holds it: compared by the
 * first line when that carries a `sha256:` (a generated file), else whole.
 * Atomic (temporary file, then rename), so a running script never imports a
 * half-written client.
 *
 * @param options.private True for a file in mcpx's cache: written 0600 with
 *   core/private_fs.ts `writePrivateFile` (fsync included); else as the umask says.
 * @returns True when the file was written.
 * @throws {StorageError} naming `path` when the file system refuses (full,
 *   read-only, no permission); other file system errors as they came.
 */
export async function writeIfChanged(
  path: string,
  text: string,
  options: { private?: boolean } = {},
): Promise<boolean> {
  const firstLine = text.slice(0, text.indexOf("\n") + 1);
  try {
    if (firstLine.includes("sha256:")) {
      using file = await Deno.open(path);
      const head = new Uint8Array(firstLine.length + 1);
      let read = 0;
      while (read < head.length) {
        const n = await file.read(head.subarray(read));
        if (n === null) break;
        read += n;
      }
      if (new TextDecoder().decode(head.subarray(0, firstLine.length)) === firstLine) return false;
    } else if (await Deno.readTextFile(path) === text) {
      return false;
    }
  } catch (error) {
    if (!(error instanceof Deno.errors.NotFound)) throw error;
  }
  if (options.private) await writePrivateFile(path, text);
  else await atomicWrite(path, text);
  return true;
}
