/**
 * `mcpx trust [file]`, `mcpx trust --list`, `mcpx untrust [file]`: which
 * project configuration files mcpx may start servers of (config/trust.ts,
 * decision 0018). `trust` records, per server, a hash of what it runs as the
 * file says now, and prints those command lines so the person typing it sees
 * what they allow; `untrust` forgets the file. Without `file`, the
 * configuration this directory uses.
 *
 * These are for a person: AGENTS.md tells an agent to ask its user to run
 * them rather than run them itself.
 *
 * @module
 */

import type { CliContext } from "./context.ts";
import { loadConfig } from "../config/load.ts";
import { configOrigin, noConfigMessage } from "../config/discover.ts";
import { dirname, resolve } from "../core/posix_path.ts";
import {
  projectSettingNames,
  projectSettings,
  runnableHashes,
  settingsHash,
  TRUST_SETTING,
  trustCommand,
} from "../config/trust.ts";
import { documentRedactor, runnableOf, runsText } from "../config/runs_of.ts";
import { readTrustStore, trustStorePath, updateTrustStore } from "../config/trust_store.ts";
import type { LoadedConfig } from "../config/types.ts";
import { McpxError, NotFoundError, UsageError } from "../core/errors.ts";
import { renderTable } from "./table.ts";
import { existsSync } from "../core/exists.ts";
import { own } from "../core/own.ts";
import type { InputOf } from "../ops/op.ts";
import type { trust, untrust as untrustOp } from "../ops/engine_ops.ts";
import { printJson } from "./json_out.ts";
import { declaredRuns } from "./trust_declared.ts";

/** `mcpx trust [file]` and `mcpx trust --list`. */
export async function run(
  ctx: CliContext,
  options: InputOf<typeof trust>,
): Promise<number> {
  const args = options.file === undefined ? [] : [options.file];
  if (options.list) {
    if (args.length) throw new UsageError("`mcpx trust --list` takes no file");
    return await list(ctx);
  }
  const config = await target(ctx, args[0]);
  const file = config.path!;
  const realPath = config.realPath ?? file;
  // The file's own servers: a derived one (an adapter or API) is shown with its declaration.
  const servers = config.servers.filter((s) => !s.derived).map((s) => s.name);
  const ownFile = configOrigin(file, { cwd: ctx.cwd, env: { ...ctx.env, MCPX_CONFIG: "" } }) ===
    "user";
  if (!ownFile) {
    const [hashes, settings] = await Promise.all([
      runnableHashes(config.document),
      settingsHash(config.document, realPath, ctx.env.HOME),
    ]);
    const { keptDamaged } = await updateTrustStore(ctx.paths().stateDir, (files) => {
      files[realPath] = { trustedAt: new Date().toISOString(), servers: hashes, settings };
    });
    if (keptDamaged) {
      ctx.io.err(
        `warning: the trust store was damaged; its bytes are kept as ${keptDamaged}, and what ` +
          `could not be read of it is no longer trusted\n`,
      );
    }
  }
  const checked = (await ctx.setting(TRUST_SETTING)) !== "always";
  // Everything the hash covers, shown whole: the directory, env, command line; a URL, headers.
  const redactor = documentRedactor(config.document);
  const runnable = (name: string) =>
    runnableOf(config.document, name, { dir: dirname(realPath), redactor });
  const settings = settingLines(config.document);
  const declared = ownFile ? [] : await declaredRuns(config.document, realPath, ctx.env.HOME);
  if (await ctx.json()) {
    ctx.io.out(
      JSON.stringify(
        {
          file,
          realPath,
          recorded: !ownFile,
          servers: servers.map((name) => ({
            name,
            runs: runsText(runnable(name)),
            runnable: runnable(name),
          })),
          settings: projectSettings(config.document),
          declared,
        },
        null,
        2,
      ) + "\n",
    );
    return 0;
  }
  if (ownFile) {
    ctx.io.out(
      `${file} is one of your own configuration files: mcpx starts its servers without asking, ` +
        `so nothing was recorded.\n`,
    );
    return 0;
  }
  const width = Math.max(0, ...servers.map((n) => n.length));
  const lines = servers.map((name) => `  ${name.padEnd(width)}  ${runsText(runnable(name))}`);
  const edits = [
    ...(servers.length ? ["what a server runs (command, args, env, cwd, url, headers)"] : []),
    ...(settings.length ? ["a setting"] : []),
    ...(declared.length ? ["a declaration file"] : []),
  ];
  const nameWidth = Math.max(0, ...declared.map((d) => d.name.length));
  const declaredText = declared.length
    ? `Its declarations (paths.adapters, paths.apis) run:\n${
      declared.map((d) => `  ${d.name.padEnd(nameWidth)}  ${d.kind} in ${d.file}: ${d.runs}\n`)
        .join("")
    }`
    : "";
  ctx.io.out(
    (servers.length
      ? `trusted ${file}: mcpx may start ${
        servers.length === 1 ? "its server" : `its ${servers.length} servers`
      } as written now:\n${lines.join("\n")}\n`
      : `trusted ${file}, which declares no servers.\n`) +
      (settings.length
        ? `Its settings apply over yours:\n${settings.map((l) => `  ${l}\n`).join("")}`
        : "") +
      declaredText +
      (edits.length ? `An edit that changes ${edits.join(" or ")} asks again; ` : "") +
      `\`mcpx untrust\` takes it back.\n` +
      (checked ? "" : `(${TRUST_SETTING} is "always" here, so mcpx does not check anyway.)\n`),
  );
  return 0;
}

/** The file's settings as `name = value` lines (config/trust.ts `projectSettings`). */
function settingLines(document: Record<string, unknown>): string[] {
  return Object.entries(projectSettings(document)).flatMap(([section, value]) =>
    value !== null && typeof value === "object" && !Array.isArray(value)
      ? Object.entries(value).map(([key, v]) => `${section}.${key} = ${JSON.stringify(v)}`)
      : [`${section} = ${JSON.stringify(value)}`]
  );
}

/** `mcpx untrust [file]`: forgets the file; its servers are refused from the next start or call. */
export async function untrust(
  ctx: CliContext,
  input: InputOf<typeof untrustOp>,
): Promise<number> {
  const args = input.file === undefined ? [] : [input.file];
  const file = args[0] === undefined
    ? (await target(ctx, undefined)).path!
    : resolve(ctx.cwd, args[0]);
  const realPath = realPathOr(file);
  const store = readTrustStore(trustStorePath(ctx.paths().stateDir));
  const key = [realPath, file].find((k) => store.files[k]);
  if (!key) {
    throw new NotFoundError(
      `${file} is not trusted, so there is nothing to take back (\`mcpx trust --list\` lists ` +
        `the trusted files)`,
    );
  }
  await updateTrustStore(ctx.paths().stateDir, (files) => delete files[key]);
  if (await ctx.json()) {
    printJson(ctx.io, { file, realPath: key, removed: true });
    return 0;
  }
  ctx.io.out(
    `untrusted ${file}: mcpx starts none of its servers and refuses calls to them until it is ` +
      `trusted again; running ones stop when idle, or now with \`mcpx stop\`.\n`,
  );
  return 0;
}

/** One row of `mcpx --json trust --list`. */
export interface TrustRow {
  /** The real path recorded. */
  file: string;
  trustedAt: string;
  /** Servers recorded. */
  servers: string[];
  /**
   * `current`: every server still runs what was trusted; `changed`: some do
   * not, or were added (`changed` names them); `missing`: no file there now;
   * `unreadable`: it cannot be loaded (`problem` says why).
   */
  state: "current" | "changed" | "missing" | "unreadable";
  changed?: string[];
  /** True when the file's settings are not the ones trusted (so they are ignored). */
  settingsChanged?: boolean;
  problem?: string;
}

async function list(ctx: CliContext): Promise<number> {
  const store = readTrustStore(trustStorePath(ctx.paths().stateDir));
  const rows: TrustRow[] = [];
  for (const [file, record] of Object.entries(store.files)) {
    const row: TrustRow = {
      file,
      trustedAt: record.trustedAt,
      servers: Object.keys(record.servers),
      state: "current",
    };
    try {
      const config = await loadConfig({ cwd: ctx.cwd, env: ctx.env, path: file });
      const hashes = await runnableHashes(config.document);
      const changed = Object.keys(hashes).filter((name) =>
        own(record.servers, name) !== own(hashes, name)
      );
      const settingsChanged = projectSettingNames(config.document).length > 0 &&
        record.settings !== await settingsHash(config.document, file, ctx.env.HOME);
      if (changed.length || settingsChanged) {
        Object.assign(row, { state: "changed", changed, settingsChanged });
      }
    } catch (error) {
      const missing = error instanceof McpxError && !existsSync(file);
      Object.assign(
        row,
        missing
          ? { state: "missing" }
          : { state: "unreadable", problem: (error as Error).message.split("\n")[0] },
      );
    }
    rows.push(row);
  }
  for (const problem of store.problems) ctx.io.err(`warning: ${problem}\n`);
  if (await ctx.json()) {
    printJson(ctx.io, { files: rows, problems: store.problems });
    return 0;
  }
  if (rows.length === 0) {
    ctx.io.out(
      "No project configuration is trusted. `mcpx ls` in a project says what `mcpx trust` would allow.\n",
    );
    return 0;
  }
  ctx.io.out(renderTable(
    ["FILE", "SERVERS", "TRUSTED", "STATE"],
    rows.map((r) => [
      r.file,
      String(r.servers.length),
      r.trustedAt.slice(0, 16).replace("T", " "),
      r.state === "changed"
        ? `changed: ${[...r.changed!, ...(r.settingsChanged ? ["settings"] : [])].join(", ")} (${
          trustCommand(r.file)
        } again)`
        : r.state === "unreadable"
        ? `unreadable: ${r.problem}`
        : r.state,
    ]),
  ));
  return 0;
}

/** The configuration to trust: `file` (resolved against the working directory), else this one's. */
async function target(ctx: CliContext, file: string | undefined): Promise<LoadedConfig> {
  if (file !== undefined) {
    return await loadConfig({ cwd: ctx.cwd, env: ctx.env, path: resolve(ctx.cwd, file) });
  }
  const config = await ctx.config();
  if (config.path === null) {
    throw new McpxError("no-config", noConfigMessage(config.searched ?? [], ctx.cwd));
  }
  return config;
}

/** `path` with symlinks resolved, or `path` itself when it cannot be (a file since removed). */
function realPathOr(path: string): string {
  try {
    return Deno.realPathSync(path);
  } catch {
    return path;
  }
}
