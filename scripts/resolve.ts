/**
 * Named scripts: where they live ({@link scriptDirs}), which file a name or
 * path means ({@link resolveScript}), and what one place holds
 * ({@link scriptsIn}). `mcpx run`, `mcpx scripts` and `MCPX_SCRIPT_DIRS` all
 * use the same list, so they agree on what a name means.
 *
 * Source: spec 000, "Named scripts", "Search paths".
 *
 * @module
 */

import { basename, dirname, isAbsolute, join, resolve } from "../core/posix_path.ts";
import { McpxError, NotFoundError } from "../core/errors.ts";
import { nearest } from "../core/nearest.ts";

/** Extensions a name may resolve to, in order of preference (`.ts` wins an allowed overlap). */
export const NAMED_EXTENSIONS = [".ts", ".js"] as const;

/** Files in a script directory that are mcpx's own, never scripts. */
const NOT_SCRIPTS = new Set(["mcpx-client.ts", "mcpx-globals.d.ts"]);

/** A bare name is this; anything else (a `/`, or a script extension) is a path. */
const PATH_SHAPED = /\/|\.(ts|js|mts|mjs)$/;

/** Inputs of {@link scriptDirs}. */
export interface ScriptDirsOptions {
  /** The caller's working directory (absolute). */
  cwd: string;
  /** The caller's environment (`XDG_CONFIG_HOME` is read). */
  env: Record<string, string | undefined>;
  /** The user's home directory; empty or absent: no `~/.config` place. */
  home?: string;
  /**
   * The setting `paths.scripts`: `:`-separated places, nearest first. An
   * empty entry stands for the built-in places; a value without one replaces
   * them. Absent or `""`: the built-in places alone. Relative entries are
   * taken from `cwd`; `~/` is the home directory.
   */
  setting?: string;
}

/**
 * The places searched for named scripts, nearest first, without repeats: the
 * built-in list is `.mcpx/scripts` in `cwd` and in each parent up to `/`, then
 * `$XDG_CONFIG_HOME/mcpx/scripts`, then `~/.config/mcpx/scripts`. A place may
 * be a directory or a single script file; places need not exist.
 *
 * @param options Where the caller is and what `paths.scripts` says.
 * @returns Absolute paths.
 * @throws {TypeError} When `cwd` is not absolute.
 * @example
 * ```ts
 * import { scriptDirs } from "./resolve.ts";
 * const dirs = scriptDirs({ cwd: "/a/b", env: {}, home: "/h", setting: "/mine::" });
 * if (dirs[0] !== "/mine" || dirs[1] !== "/a/b/.mcpx/scripts") throw new Error();
 * ```
 */
export function scriptDirs(options: ScriptDirsOptions): string[] {
  const { cwd, env, home } = options;
  if (!isAbsolute(cwd)) throw new TypeError(`cwd must be an absolute path, got "${cwd}"`);
  const builtIn: string[] = [];
  for (let dir = cwd;; dir = dirname(dir)) {
    builtIn.push(join(dir, ".mcpx", "scripts"));
    if (dirname(dir) === dir) break;
  }
  const xdg = env.XDG_CONFIG_HOME;
  if (xdg && isAbsolute(xdg)) builtIn.push(join(xdg, "mcpx", "scripts"));
  if (home) builtIn.push(join(home, ".config", "mcpx", "scripts"));
  const setting = options.setting ?? "";
  const places = setting.split(":").flatMap((entry) => {
    if (entry.trim() === "") return builtIn;
    const expanded = home && (entry === "~" || entry.startsWith("~/"))
      ? join(home, entry.slice(1))
      : entry;
    return [resolve(cwd, expanded)];
  });
  return [...new Set(places)];
}

/** A script {@link resolveScript} settled on. */
export interface ResolvedScript {
  /** Real absolute path (symbolic links followed). */
  path: string;
  /** The script's name: its file name without the extension. */
  name: string;
}

/** Inputs of {@link resolveScript}. */
export interface ResolveScriptOptions {
  /** The caller's working directory (absolute); paths are taken from here. */
  cwd: string;
  /** Places to search for a bare name, nearest first ({@link scriptDirs}). */
  dirs: readonly string[];
  /** Allow `<name>.ts` beside `<name>.js` (then `.ts` wins); default false. */
  allowTsJsOverlap?: boolean;
}

/** One script in a place. */
export interface PlacedScript {
  name: string;
  /** Absolute path as found (not resolved through links). */
  path: string;
}

/** What one searched place held, for the not-found message. */
type PlaceState = { found: PlacedScript[] } | { note: string };

/**
 * Which script `nameOrPath` means. Path-shaped input (it contains `/`, or
 * ends `.ts`, `.js`, `.mts`, `.mjs`) is used as written, from `cwd`. A bare
 * name is the first place in `dirs` holding `<name>.ts` or `<name>.js` (or a
 * place that is that file itself).
 *
 * @param nameOrPath What the user typed after `mcpx run`.
 * @param options `cwd` and the places to search.
 * @returns The script's real path and name.
 * @throws {TypeError} When `nameOrPath` is empty.
 * @throws {NotFoundError} When nothing matches; the message lists each place
 *   searched and what was there, and `suggestions` holds near names.
 * @throws {McpxError} Code `script-conflict` when one place holds both
 *   `<name>.ts` and `<name>.js`, or `not-a-file` when a path names a directory.
 * @example
 * ```ts
 * import { resolveScript } from "./resolve.ts";
 * const dir = Deno.makeTempDirSync();
 * Deno.writeTextFileSync(`${dir}/hello.ts`, "console.log(1)");
 * const found = resolveScript("hello", { cwd: "/", dirs: [dir] });
 * if (found.name !== "hello") throw new Error();
 * ```
 */
export function resolveScript(nameOrPath: string, options: ResolveScriptOptions): ResolvedScript {
  if (nameOrPath === "") throw new TypeError("a script name or path is required, got an empty one");
  if (PATH_SHAPED.test(nameOrPath)) return resolvePath(nameOrPath, options.cwd);
  const name = nameOrPath;
  const searched: string[] = [];
  const existing: string[] = [];
  for (const place of options.dirs) {
    const state = lookIn(place, name);
    if ("found" in state && state.found.length > 0) {
      const [first, second] = state.found;
      if (second && !options.allowTsJsOverlap) {
        throw new McpxError(
          "script-conflict",
          `script "${name}" is both ${first.path} and ${second.path}; which one runs would be a ` +
            `guess, so neither does: remove or rename one`,
        );
      }
      return { path: Deno.realPathSync(first.path), name };
    }
    searched.push(`  ${describePlace(place, name)}  ${"note" in state ? state.note : ""}`);
    existing.push(...scriptsIn(place).map((s) => s.name));
  }
  const suggestions = nearest(name, existing);
  throw new NotFoundError(
    [
      `no script named "${name}"; searched, nearest first:`,
      ...(searched.length ? searched : ["  (no places: paths.scripts is empty)"]),
      suggestions.length ? `did you mean: ${suggestions.join(", ")}?` : "",
      `\`mcpx scripts\` lists every script reachable from here; a path (./${name}.ts) runs a ` +
      `file as it is.`,
    ].filter(Boolean).join("\n"),
    suggestions,
  );
}

/**
 * The scripts one place holds: for a directory, each `<name>.ts` / `<name>.js`
 * in it (not mcpx's generated files, `.d.ts` files or hidden files), sorted by
 * name, `.ts` before `.js`; for a file, that file. A missing place holds none.
 *
 * @param place A directory or script file (absolute).
 * @returns The scripts, possibly two of one name (a `.ts` beside a `.js`).
 */
export function scriptsIn(place: string): PlacedScript[] {
  const info = statOrNull(place);
  if (!info) return [];
  if (info.isFile) {
    const name = scriptName(basename(place));
    return name === null ? [] : [{ name, path: place }];
  }
  const found: PlacedScript[] = [];
  for (const entry of Deno.readDirSync(place)) {
    const name = scriptName(entry.name);
    if (name === null) continue;
    const path = join(place, entry.name);
    if (statOrNull(path)?.isFile) found.push({ name, path });
  }
  const rank = (p: string) => NAMED_EXTENSIONS.findIndex((e) => p.endsWith(e));
  return found.sort((a, b) =>
    a.name < b.name ? -1 : a.name > b.name ? 1 : rank(a.path) - rank(b.path)
  );
}

/** The name of a script file, or null when the file is not one. */
function scriptName(file: string): string | null {
  if (file.startsWith(".") || NOT_SCRIPTS.has(file) || file.endsWith(".d.ts")) return null;
  const ext = NAMED_EXTENSIONS.find((e) => file.endsWith(e));
  return ext && file.length > ext.length ? file.slice(0, -ext.length) : null;
}

function lookIn(place: string, name: string): PlaceState {
  const info = statOrNull(place);
  if (!info) return { note: "missing" };
  if (info.isFile) {
    return scriptName(basename(place)) === name
      ? { found: [{ name, path: place }] }
      : { note: "a file with another name" };
  }
  const found: PlacedScript[] = [];
  const notes: string[] = [];
  for (const ext of NAMED_EXTENSIONS) {
    const path = join(place, name + ext);
    const at = statOrNull(path);
    if (at?.isFile) found.push({ name, path });
    else if (at?.isDirectory) notes.push(`${name}${ext} is a directory`);
  }
  if (found.length) return { found };
  return { note: notes.length ? notes.join(", ") : "no such script" };
}

function describePlace(place: string, name: string): string {
  const info = statOrNull(place);
  return info?.isFile ? place : join(place, `${name}.{ts,js}`);
}

function resolvePath(path: string, cwd: string): ResolvedScript {
  const absolute = resolve(cwd, path);
  const info = statOrNull(absolute);
  if (!info) {
    throw new NotFoundError(
      `script ${path} not found: ${absolute} does not exist. A name without "/" or an ` +
        `extension is looked up in the script directories instead (\`mcpx scripts\`).`,
    );
  }
  if (!info.isFile) {
    throw new McpxError(
      "not-a-file",
      `script ${path} is not a file: ${absolute} is a directory; name the script inside it`,
    );
  }
  const file = basename(absolute);
  const name = file.replace(/\.(ts|js|mts|mjs)$/, "");
  return { path: Deno.realPathSync(absolute), name };
}

function statOrNull(path: string): Deno.FileInfo | null {
  try {
    return Deno.statSync(path);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound || error instanceof Deno.errors.NotADirectory) {
      return null;
    }
    throw error;
  }
}
