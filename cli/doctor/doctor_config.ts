/**
 * The checks of `mcpx doctor` about the configuration: the files found and
 * parsed, the settings, every server's command installed (the most common
 * cause of "mcpx does not work", and invisible until a call: spec 000, "mcpx
 * doctor"), and URL servers reached with `--online`. cli/doctor/doctor_checks.ts
 * lists them in order.
 *
 * @module
 */

import { basename, isAbsolute, join, resolve } from "../../core/posix_path.ts";
import { type DoctorCheck, type Finding, NO_CONFIG_SKIP } from "./doctor_check.ts";
import { describeSearch } from "../../config/discover.ts";
import { loadUserEnv } from "../../config/user_env.ts";
import { onPath } from "../../runner/runtime.ts";
import type { ServerSpec } from "../../config/types.ts";
import { own } from "../../core/own.ts";
import { probeUrlServer } from "./doctor_url_probe.ts";

/** The configuration files found and parsed, their warnings, the user `.env`, trust. */
export const configCheck: DoctorCheck = {
  id: "config",
  title: "configuration files found and parsed",
  async run(dc) {
    const config = await dc.config();
    if (!config) {
      const error = (await dc.configError())!;
      // A directory mcpx cannot use (the compiled configurations live in the cache) is the
      // directories check's to explain; the file itself may be fine.
      const directory = (error as { code?: string }).code === "unsafe-directory";
      return [{
        status: "fail",
        message: directory
          ? `the configuration could not be loaded: ${(error as Error).message}`
          : (error as Error).message,
        fix: directory
          ? "fix the directory as the directories check says"
          : "edit the file the message names as it says; run mcpx doctor again to check",
      }];
    }
    const out: Finding[] = [];
    if (config.path === null) {
      out.push({
        status: "warn",
        message: `no configuration file found (${describeSearch(config.searched ?? [])})`,
        fix: `create ${join(dc.cli.cwd, ".mcp.json")} with { "mcpServers": { "name": { ` +
          `"command": "…" } } }, or set MCPX_CONFIG to one`,
      });
    } else {
      const enabled = config.servers.filter((s) => !s.disabled).length;
      out.push({
        status: "ok",
        subject: config.path,
        message: `${config.path} (${dc.cli.origin(config.path)}): ${config.servers.length} ` +
          `server(s), ${enabled} enabled`,
      });
    }
    for (const warning of config.warnings ?? []) {
      out.push({
        status: "warn",
        message: warning,
        fix: "edit or remove the key the warning names",
      });
    }
    try {
      const dotenv = await loadUserEnv(dc.cli.env);
      if (dotenv.file) {
        out.push({
          status: "info",
          subject: dotenv.file,
          message: `user .env: ${Object.keys(dotenv.values).length} variable(s) for \${VAR} in ` +
            `the configuration (the environment wins; servers do not inherit the file)`,
        });
      }
    } catch (error) {
      out.push({
        status: "fail",
        message: (error as Error).message,
        fix: "make it a readable UTF-8 file of KEY=value lines, or remove it",
      });
    }
    const untrusted = config.servers.filter((s) => s.unavailable?.code === "untrusted");
    if (untrusted.length) {
      out.push({
        status: "warn",
        subject: untrusted.map((s) => s.name).join(", "),
        message: untrusted[0].unavailable!.message,
        fix: `run mcpx trust if you trust ${config.path}`,
      });
    }
    return out;
  },
};

/** Settings that do not resolve, or that resolve to something probably not meant. */
export const settingsCheck: DoctorCheck = {
  id: "settings",
  title: "settings resolve and agree with each other",
  async run(dc) {
    let settings;
    try {
      settings = await dc.cli.settings();
    } catch (error) {
      // A file that does not parse stops the settings too: said once, by the config check.
      if ((await dc.configError())?.message === (error as Error).message) {
        return [{ status: "info", message: "skipped: see the configuration check's error" }];
      }
      return [{
        status: "fail",
        message: (error as Error).message,
        fix: "correct the value the message names (mcpx config --schema lists every setting)",
      }];
    }
    if (settings.warnings.length === 0) {
      return [{ status: "ok", message: "every setting resolved; none is ignored or unknown" }];
    }
    return settings.warnings.map((warning) => ({
      status: "warn" as const,
      message: warning,
      fix: "edit the setting the warning names (mcpx config shows where each value came from)",
    }));
  },
};

/** The npm cache directory npx installs into (`npm_config_cache`, else `~/.npm`). */
function npmCacheDir(env: Record<string, string>): string | undefined {
  return env.npm_config_cache || env.NPM_CONFIG_CACHE || (env.HOME && join(env.HOME, ".npm"));
}

/**
 * The package `npx` runs for `args` (`npx -y @scope/pkg@1.2 --flag` →
 * `@scope/pkg@1.2`), or undefined when there is none to find.
 */
export function npxPackage(args: readonly string[]): string | undefined {
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === "-p" || arg === "--package") return args[i + 1];
    if (arg.startsWith("--package=")) return arg.slice("--package=".length);
    if (arg === "--") return args[i + 1];
    if (!arg.startsWith("-")) return arg;
  }
  return undefined;
}

/** `@scope/pkg@1.2` → `@scope/pkg`. */
function packageName(spec: string): string {
  const at = spec.indexOf("@", spec.startsWith("@") ? 1 : 0);
  return at === -1 ? spec : spec.slice(0, at);
}

/** True when some npx install folder holds package `name`. */
function inNpxCache(cacheDir: string, name: string): boolean {
  let entries: Deno.DirEntry[];
  try {
    entries = [...Deno.readDirSync(join(cacheDir, "_npx"))];
  } catch {
    return false;
  }
  return entries.some((e) => {
    try {
      return Deno.statSync(join(cacheDir, "_npx", e.name, "node_modules", name, "package.json"))
        .isFile;
    } catch {
      return false;
    }
  });
}

async function registryKnows(
  npm: string,
  spec: string,
  env: Record<string, string>,
): Promise<boolean | undefined> {
  try {
    const out = await new Deno.Command(npm, {
      args: ["view", spec, "name"],
      env,
      clearEnv: true,
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
      signal: AbortSignal.timeout(15_000),
    }).output();
    if (out.success) return true;
    return /E404|404 Not Found|is not in this registry/.test(new TextDecoder().decode(out.stderr))
      ? false
      : undefined;
  } catch {
    return undefined;
  }
}

function isExecutable(path: string): boolean {
  try {
    const info = Deno.statSync(path);
    return info.isFile && ((info.mode ?? 0o111) & 0o111) !== 0;
  } catch {
    return false;
  }
}

async function commandFindings(
  spec: ServerSpec,
  configDir: string | undefined,
  env: Record<string, string>,
  online: boolean,
): Promise<Finding[]> {
  const command = spec.command!;
  const at = `mcpServers.${spec.name}.command`;
  const path = own(spec.env, "PATH") ?? env.PATH;
  let found: string | null;
  if (command.includes("/")) {
    const base = spec.cwd ?? configDir ?? "/";
    const full = isAbsolute(command) ? command : resolve(base, command);
    found = isExecutable(full) ? full : null;
    if (!found) {
      return [{
        status: "fail",
        subject: spec.name,
        message: `${at} is ${JSON.stringify(command)}, and no executable file is at ${full}`,
        fix: `install it there, or correct ${at}`,
      }];
    }
  } else {
    found = onPath(command, path);
    if (!found) {
      return [{
        status: "fail",
        subject: spec.name,
        message: `${at} is ${JSON.stringify(command)}, which is not on PATH, so the server ` +
          `cannot start`,
        fix: `install ${command}, or write its absolute path in ${at}`,
      }];
    }
  }
  const out: Finding[] = [{
    status: "ok",
    subject: spec.name,
    message: `${command} → ${found}`,
  }];
  if (basename(command) !== "npx") return out;
  const pkg = npxPackage(spec.args);
  if (!pkg) return out;
  const cacheDir = npmCacheDir({ ...env, ...spec.env });
  if (cacheDir && inNpxCache(cacheDir, packageName(pkg))) {
    out.push({ status: "ok", subject: spec.name, message: `npx package ${pkg} is installed` });
    return out;
  }
  if (online) {
    const npm = onPath("npm", path);
    const known = npm ? await registryKnows(npm, pkg, { ...env, ...spec.env }) : undefined;
    if (known === false) {
      out.push({
        status: "fail",
        subject: spec.name,
        message: `npx package ${pkg} is not in the npm registry`,
        fix: `correct the package name in mcpServers.${spec.name}.args`,
      });
      return out;
    }
    if (known === true) {
      out.push({
        status: "ok",
        subject: spec.name,
        message: `npx package ${pkg} resolves; its first start downloads it`,
      });
      return out;
    }
  }
  out.push({
    status: "info",
    subject: spec.name,
    message: `npx package ${pkg} is not installed yet: its first start downloads it, which ` +
      `can take minutes${
        online ? "" : " (mcpx doctor --online asks the registry whether it resolves)"
      }`,
  });
  return out;
}

/** Every stdio server's command installed, and an npx package's resolving. */
export const serverCommandsCheck: DoctorCheck = {
  id: "server-commands",
  title: "every server's command is installed",
  async run(dc) {
    const config = await dc.config();
    if (!config) return [NO_CONFIG_SKIP];
    const configDir = config.realPath ? resolve(config.realPath, "..") : undefined;
    const out: Finding[] = [];
    for (const spec of config.servers) {
      if (spec.disabled || spec.aliasOf || spec.unavailable?.code === "untrusted") continue;
      // Its command is mcpx itself: cli/doctor/doctor_declared.ts checks what it declares instead.
      if (spec.derived) continue;
      if (spec.unavailable) {
        out.push({
          status: "fail",
          subject: spec.name,
          message: spec.unavailable.message,
          fix: "set the variables it names in the environment, or in the user .env " +
            "(~/.config/mcpx/.env)",
        });
        continue;
      }
      if (spec.transport !== "stdio" || spec.command === undefined) continue;
      out.push(...await commandFindings(spec, configDir, dc.cli.env, dc.online));
    }
    return out.length ? out : [{ status: "info", message: "no enabled stdio server to check" }];
  },
};

/** The URL a message may show: no credentials, no query. */
function shownUrl(url: string): string {
  try {
    const u = new URL(url);
    return `${u.origin}${u.pathname}`;
  } catch {
    return "(not a URL)";
  }
}

/** URL servers answer like MCP endpoints (cli/doctor/doctor_url_probe.ts), with `--online`. */
export const urlServersCheck: DoctorCheck = {
  id: "url-servers",
  title: "URL servers are reachable (--online)",
  async run(dc) {
    const config = await dc.config();
    if (!config) return [NO_CONFIG_SKIP];
    const remote = config.servers.filter((s) =>
      !s.disabled && !s.aliasOf && !s.unavailable && s.url !== undefined
    );
    if (remote.length === 0) return [{ status: "info", message: "no enabled URL server" }];
    if (!dc.online) {
      return [{
        status: "info",
        subject: remote.map((s) => s.name).join(", "),
        message: `${remote.length} URL server(s) not reached (mcpx doctor --online reaches each)`,
      }];
    }
    return await Promise.all(remote.map((spec) => probeUrlServer(spec, shownUrl(spec.url!))));
  },
};
