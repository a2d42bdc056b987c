/**
 * The checks of `mcpx doctor` about this machine rather than the
 * configuration: runtimes, git, mcpx's directories, and optional
 * integrations (a browser for a browser server). cli/doctor/doctor_checks.ts lists
 * them in order.
 *
 * @module
 */

import type { DoctorCheck, DoctorContext, Finding } from "./doctor_check.ts";
import { onPath } from "../../runner/runtime.ts";
import { dirname, join } from "../../core/posix_path.ts";
import { judgePrivateDir, type PathFacts, privateDirMessage } from "../../core/private_dir_rule.ts";
import { pathFacts } from "../../core/private_fs.ts";

/** The oldest node that runs a TypeScript script (type stripping): spec 000, "Runtime portability". */
export const NODE_MINIMUM: readonly [number, number] = [22, 6];

/**
 * The first line a program prints for `--version`, or undefined when it
 * cannot be run or does not answer within 5 s.
 *
 * @param path The executable.
 * @param env The environment to run it with.
 */
export async function versionOf(
  path: string,
  env: Record<string, string>,
): Promise<string | undefined> {
  try {
    const out = await new Deno.Command(path, {
      args: ["--version"],
      env,
      clearEnv: true,
      stdin: "null",
      stdout: "piped",
      stderr: "null",
      signal: AbortSignal.timeout(5_000),
    }).output();
    if (!out.success) return undefined;
    return new TextDecoder().decode(out.stdout).trim().split("\n")[0] || undefined;
  } catch {
    return undefined;
  }
}

async function scriptRuntime(dc: DoctorContext): Promise<string> {
  try {
    return String(await dc.cli.setting("script.runtime"));
  } catch {
    return "auto";
  }
}

/** deno (always: mcpx runs on it), bun, node ≥ 22.6, with versions. */
export const runtimesCheck: DoctorCheck = {
  id: "runtimes",
  title: "runtimes (deno, bun, node ≥ 22.6)",
  async run(dc) {
    const env = dc.cli.env;
    const wanted = await scriptRuntime(dc);
    const out: Finding[] = [{
      status: "ok",
      subject: "deno",
      message: `deno ${Deno.version.deno} (mcpx runs on it; scripts run on it by default)`,
    }];
    const bun = onPath("bun", env.PATH);
    if (bun) {
      out.push({
        status: "ok",
        subject: "bun",
        message: `bun ${(await versionOf(bun, env)) ?? "(version unknown)"} at ${bun}`,
      });
    } else {
      out.push(
        wanted === "bun"
          ? {
            status: "fail",
            subject: "bun",
            message: "script.runtime is bun, but no bun is on PATH",
            fix: "install bun (npm install -g bun) or set script.runtime to deno",
          }
          : {
            status: "info",
            subject: "bun",
            message: "bun is not on PATH; only scripts run with --runtime bun need it",
          },
      );
    }
    const node = onPath("node", env.PATH);
    if (!node) {
      out.push(
        wanted === "node"
          ? {
            status: "fail",
            subject: "node",
            message: "script.runtime is node, but no node is on PATH",
            fix: "install Node.js 22.6 or later, or set script.runtime to deno",
          }
          : {
            status: "info",
            subject: "node",
            message: "not on PATH; --runtime node and npx-started servers need it",
          },
      );
      return out;
    }
    const text = await versionOf(node, env);
    const m = text?.match(/v?(\d+)\.(\d+)/);
    const version: [number, number] | undefined = m ? [Number(m[1]), Number(m[2])] : undefined;
    const old = version !== undefined &&
      (version[0] < NODE_MINIMUM[0] ||
        (version[0] === NODE_MINIMUM[0] && version[1] < NODE_MINIMUM[1]));
    if (old) {
      out.push({
        status: wanted === "node" ? "fail" : "warn",
        subject: "node",
        message: `node ${text} at ${node} is older than ${NODE_MINIMUM.join(".")}, which ` +
          `--runtime node needs to run TypeScript`,
        fix: `install Node.js ${NODE_MINIMUM.join(".")} or later (or run scripts on deno)`,
      });
    } else {
      out.push({
        status: "ok",
        subject: "node",
        message: `node ${text ?? "(version unknown)"} at ${node}`,
      });
    }
    return out;
  },
};

/** git: optional (mcpx reads `.git` itself for the repo and worktree scopes). */
export const gitCheck: DoctorCheck = {
  id: "git",
  title: "git",
  async run(dc) {
    const git = onPath("git", dc.cli.env.PATH);
    if (!git) {
      return [{
        status: "info",
        subject: "git",
        message: "not on PATH; mcpx reads .git itself for the repo and worktree scopes, but " +
          "servers and scripts that run git need it",
      }];
    }
    return [{
      status: "ok",
      subject: "git",
      message: `${(await versionOf(git, dc.cli.env)) ?? "git (version unknown)"} at ${git}`,
    }];
  },
};

/** {@link pathFacts}, with a path that cannot be read taken as absent (doctor reports, never throws). */
function look(path: string, follow: boolean): PathFacts | undefined {
  try {
    return pathFacts(path, follow);
  } catch {
    return undefined;
  }
}

/** The nearest existing ancestor of `path` (itself included), or "/". */
function nearestExisting(path: string): string {
  let dir = path;
  while (dir !== "/" && look(dir, true) === undefined) dir = dirname(dir);
  return dir;
}

/**
 * One directory mcpx writes: usable as it is, or creatable.
 *
 * @param path The directory.
 * @param what What mcpx keeps there.
 * @param fix What points mcpx elsewhere (`set MCPX_STATE_DIR`).
 */
export function directoryFinding(path: string, what: string, fix: string): Finding {
  const uid = Deno.uid();
  const verdict = judgePrivateDir(path, uid, look);
  if (!verdict.exists) {
    const parent = nearestExisting(dirname(path));
    const facts = look(parent, true);
    const writable = facts?.isDirectory && canWrite(facts, uid);
    return writable
      ? {
        status: "ok",
        subject: path,
        message: `${what}: not created yet; it will be, in ${parent}`,
      }
      : {
        status: "fail",
        subject: path,
        message: `${what}: does not exist, and ${parent} does not let you create it`,
        fix: `create ${path} (mkdir -p -m 700 '${path}') or ${fix}`,
      };
  }
  if (verdict.problem) {
    const fixes = {
      "not-directory": `move ${path} away, or ${fix}`,
      "writable": `chmod 700 '${path}'`,
      "not-owner": `remove ${path} (or ask its owner to), or ${fix}`,
    } as const;
    return {
      status: "fail",
      subject: path,
      message: privateDirMessage(path, what, uid, verdict.problem),
      fix: fixes[verdict.problem.kind],
    };
  }
  const facts = look(path, true)!;
  if (!canWrite(facts, uid)) {
    return {
      status: "fail",
      subject: path,
      message: `${what}: you cannot write into it (mode ${
        ((facts.mode ?? 0) & 0o777).toString(8)
      })`,
      fix: `chmod u+rwx '${path}', or ${fix}`,
    };
  }
  return { status: "ok", subject: path, message: `${what}: writable, yours alone` };
}

function canWrite(facts: PathFacts, uid: number | null): boolean {
  if (uid === 0 || uid === null || facts.mode === null) return true;
  if (facts.uid === uid) return (facts.mode & 0o300) === 0o300;
  return (facts.mode & 0o003) === 0o003;
}

/** The state, cache and log directories. */
export const directoriesCheck: DoctorCheck = {
  id: "directories",
  title: "directories are writable",
  async run(dc) {
    let paths;
    try {
      paths = dc.cli.paths();
    } catch (error) {
      return [{
        status: "fail",
        message: `cannot place mcpx's directories: ${(error as Error).message}`,
        fix: "set HOME, or MCPX_STATE_DIR and MCPX_CACHE_DIR",
      }];
    }
    let logs: string;
    try {
      logs = await dc.cli.logsDir();
    } catch {
      logs = join(paths.stateDir, "logs");
    }
    return [
      directoryFinding(
        paths.stateDir,
        "state (daemons' sockets and records)",
        "set MCPX_STATE_DIR",
      ),
      directoryFinding(
        paths.cacheDir,
        "cache (schema cache, compiled configurations)",
        "set MCPX_CACHE_DIR",
      ),
      directoryFinding(logs, "logs", "set logging.dir (MCPX_LOGGING_DIR)"),
    ];
  },
};

/** Executables a browser server can drive. */
const BROWSERS = [
  "chromium",
  "chromium-browser",
  "google-chrome",
  "google-chrome-stable",
  "chrome",
];

/** A server that drives a browser, by what it runs. */
const BROWSER_SERVER = /chrome|chromium|playwright|puppeteer|browser/i;

/** Optional integrations: a browser for a browser server. */
export const integrationsCheck: DoctorCheck = {
  id: "integrations",
  title: "optional integrations (a browser for browser servers)",
  async run(dc) {
    const config = await dc.config();
    const browserServers = (config?.servers ?? []).filter((s) =>
      !s.disabled && s.transport === "stdio" &&
      BROWSER_SERVER.test([s.name, s.command ?? "", ...s.args].join(" "))
    );
    if (browserServers.length === 0) {
      return [{ status: "info", message: "no browser server is configured; nothing to check" }];
    }
    const env = dc.cli.env;
    const found = BROWSERS.map((name) => onPath(name, env.PATH)).find((p) => p !== null);
    const home = env.HOME;
    const downloaded = home &&
      look(join(home, ".cache", "ms-playwright"), true)?.isDirectory;
    const names = browserServers.map((s) => s.name).join(", ");
    if (found || downloaded) {
      return [{
        status: "ok",
        subject: names,
        message: found
          ? `a browser for ${names}: ${found}`
          : `a browser for ${names}: downloaded browsers in ~/.cache/ms-playwright`,
      }];
    }
    return [{
      status: "warn",
      subject: names,
      message: `${names} drives a browser, and no Chromium or Chrome is on PATH`,
      fix: "install Chromium (e.g. apt-get install chromium), or let the server download its " +
        "own browser on first start",
    }];
  },
};
