/**
 * Where other MCP hosts keep their server configurations, project and user
 * (decision 0055), and reading them: JSON with comments for all but Codex,
 * whose `config.toml` is read with smol-toml. Only read, never written.
 *
 * A project file is the nearest one found upward from the working
 * directory, as each host finds its own; a user file is looked for in every
 * place the host uses on Linux, macOS and Windows (`$APPDATA`), and each
 * that exists is read.
 *
 * @module
 */

import { parse as parseJsonc, type ParseError } from "jsonc-parser";
import { parse as parseToml } from "smol-toml";
import { dirname, join, resolve } from "../core/posix_path.ts";
import type { Host } from "./host_names.ts";

export type { Host } from "./host_names.ts";

/** One configuration file of a host that exists on this machine. */
export interface HostFile {
  host: Host;
  scope: "project" | "user";
  path: string;
  /** The directory a project file belongs to (`${workspaceFolder}`); user files: none. */
  project?: string;
}

interface Places {
  /** Paths relative to a project directory, searched upward. */
  project: string[];
  /** Absolute paths of user files (unset variables leave theirs out). */
  user: (env: Record<string, string | undefined>) => (string | undefined)[];
}

const home = (env: Record<string, string | undefined>, ...rest: string[]) =>
  env.HOME ? join(env.HOME, ...rest) : undefined;
const xdgConfig = (env: Record<string, string | undefined>, ...rest: string[]) =>
  env.XDG_CONFIG_HOME ? join(env.XDG_CONFIG_HOME, ...rest) : home(env, ".config", ...rest);
const appData = (env: Record<string, string | undefined>, ...rest: string[]) =>
  env.APPDATA ? join(env.APPDATA.replaceAll("\\", "/"), ...rest) : undefined;
const macSupport = (env: Record<string, string | undefined>, ...rest: string[]) =>
  home(env, "Library", "Application Support", ...rest);

/** Each host's places. */
const PLACES: Record<Host, Places> = {
  "claude-code": {
    project: [".mcp.json"],
    user: (env) => [home(env, ".claude.json")],
  },
  "claude-desktop": {
    project: [],
    user: (env) => [
      xdgConfig(env, "Claude", "claude_desktop_config.json"),
      macSupport(env, "Claude", "claude_desktop_config.json"),
      appData(env, "Claude", "claude_desktop_config.json"),
    ],
  },
  cursor: {
    project: [join(".cursor", "mcp.json")],
    user: (env) => [home(env, ".cursor", "mcp.json")],
  },
  vscode: {
    project: [join(".vscode", "mcp.json")],
    user: (env) => [
      xdgConfig(env, "Code", "User", "mcp.json"),
      macSupport(env, "Code", "User", "mcp.json"),
      appData(env, "Code", "User", "mcp.json"),
    ],
  },
  windsurf: {
    project: [],
    user: (env) => [home(env, ".codeium", "windsurf", "mcp_config.json")],
  },
  codex: {
    project: [join(".codex", "config.toml")],
    user: (env) => [
      env.CODEX_HOME ? join(env.CODEX_HOME, "config.toml") : home(env, ".codex", "config.toml"),
    ],
  },
  opencode: {
    project: ["opencode.json", "opencode.jsonc"],
    user: (env) => [
      xdgConfig(env, "opencode", "opencode.json"),
      xdgConfig(env, "opencode", "opencode.jsonc"),
    ],
  },
};

function isFile(path: string): boolean {
  try {
    return Deno.statSync(path).isFile;
  } catch {
    return false;
  }
}

/** The nearest directory from `cwd` upward holding one of `names`, and that file. */
function nearest(cwd: string, names: readonly string[]): { dir: string; path: string } | undefined {
  for (let dir = resolve(cwd);;) {
    for (const name of names) {
      const path = join(dir, name);
      if (isFile(path)) return { dir, path };
    }
    const parent = dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

/**
 * The configuration files of `hosts` that exist: each host's nearest project
 * file from `cwd` upward, then its user files.
 *
 * @param hosts Which hosts, in the order given.
 * @param options.cwd Where the project search starts.
 * @param options.env `HOME`, `XDG_CONFIG_HOME`, `APPDATA`, `CODEX_HOME`.
 */
export function findHostFiles(
  hosts: readonly Host[],
  options: { cwd: string; env: Record<string, string | undefined> },
): HostFile[] {
  const out: HostFile[] = [];
  const seen = new Set<string>();
  for (const host of hosts) {
    const places = PLACES[host];
    const project = nearest(options.cwd, places.project);
    if (project && !seen.has(project.path)) {
      seen.add(project.path);
      out.push({ host, scope: "project", path: project.path, project: project.dir });
    }
    for (const path of places.user(options.env)) {
      if (path === undefined || seen.has(path) || !isFile(path)) continue;
      seen.add(path);
      out.push({ host, scope: "user", path });
    }
  }
  return out;
}

/**
 * A host file's content: TOML for Codex, JSON with comments for the others.
 *
 * @throws {SyntaxError} Naming the file and where it stops parsing.
 */
export function readHostFile(file: HostFile): Record<string, unknown> {
  const text = Deno.readTextFileSync(file.path);
  if (file.path.endsWith(".toml")) {
    try {
      return parseToml(text) as Record<string, unknown>;
    } catch (error) {
      throw new SyntaxError(`${file.path} is not valid TOML: ${(error as Error).message}`);
    }
  }
  const errors: ParseError[] = [];
  const value = parseJsonc(text, errors, { allowTrailingComma: true });
  if (errors.length > 0 || value === null || typeof value !== "object" || Array.isArray(value)) {
    throw new SyntaxError(
      `${file.path} is not a JSON object` +
        (errors.length ? ` (stops parsing at offset ${errors[0].offset})` : ""),
    );
  }
  return value as Record<string, unknown>;
}
