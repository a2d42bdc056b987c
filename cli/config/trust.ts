/**
 * `mcpx trust [file]`, `mcpx trust --list`: which project configuration
 * files mcpx may start servers of (config/trust.ts, decision 0018). `trust`
 * records, per server, a hash of what it runs as the file says now, and
 * prints those command lines so the person typing it sees what they allow;
 * `mcpx untrust` (cli/config/untrust.ts) forgets the file. Without `file`, the
 * configuration this directory uses.
 *
 * These are for a person: AGENTS.md tells an agent to ask its user to run
 * them rather than run them itself.
 *
 * @module
 */

import type { CliContext } from "../context.ts";
import { loadConfig } from "../../config/load.ts";
import { configOrigin } from "../../config/discover.ts";
import { dirname } from "../../core/posix_path.ts";
import {
  projectSettingNames,
  projectSettings,
  runnableHashes,
  settingsHash,
  TRUST_SETTING,
  trustCommand,
} from "../../config/trust.ts";
import { documentRedactor, runnableOf, runsText } from "../../config/runs_of.ts";
import { readTrustStore, trustStorePath, updateTrustStore } from "../../config/trust_store.ts";
import { McpxError, UsageError } from "../../core/errors.ts";
import { renderTable } from "../table.ts";
import { existsSync } from "../../core/exists.ts";
import { own } from "../../core/own.ts";
import type { InputOf, OutputOf } from "../../ops/op.ts";
import type { trust } from "../../ops/engine_ops.ts";
import type { TextView } from "../commands.ts";
import { type Answered, ok } from "../../ops/outcome.ts";
import { postNotice } from "../../core/notice_queue.ts";
import { trustTarget } from "./trust_target.ts";
import { declaredRuns } from "./trust_declared.ts";

/** What `mcpx trust` answers: the file trusted, or with `--list` every trusted file. */
type TrustAnswer = OutputOf<typeof trust>;
/** `mcpx --json trust [file]`. */
type TrustFile = Extract<TrustAnswer, { realPath: string }>;
/** `mcpx --json trust --list`. */
type TrustList = Extract<TrustAnswer, { files: unknown }>;

/**
 * `mcpx trust [file]` records the file's servers as they run now; `mcpx trust
 * --list` reads every trusted file and says which changed since.
 *
 * @returns `ok` with the file trusted (its extra: whether trust is checked
 *   here at all) or, with `--list`, `{ files, problems }`.
 * @throws {UsageError} For a file given with `--list`.
 * @throws {McpxError} `no-config` without a file where no configuration is found.
 */
export async function handle(
  ctx: CliContext,
  options: InputOf<typeof trust>,
): Promise<Answered<TrustAnswer>> {
  const args = options.file === undefined ? [] : [options.file];
  if (options.list) {
    if (args.length) throw new UsageError("`mcpx trust --list` takes no file");
    return ok(await list(ctx));
  }
  const config = await trustTarget(ctx, args[0]);
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
      // Said as a `warning:` line on stderr after the answer (cli/command_line.ts `printPosted`).
      postNotice({
        code: "state-damaged",
        message: `the trust store was damaged; its bytes are kept as ${keptDamaged}, and what ` +
          `could not be read of it is no longer trusted`,
      });
    }
  }
  const checked = (await ctx.setting(TRUST_SETTING)) !== "always";
  // Everything the hash covers, shown whole: the directory, env, command line; a URL, headers.
  const redactor = documentRedactor(config.document);
  const runnable = (name: string) =>
    runnableOf(config.document, name, { dir: dirname(realPath), redactor });
  const declared = ownFile ? [] : await declaredRuns(config.document, realPath, ctx.env.HOME);
  const output: TrustFile = {
    file,
    realPath,
    recorded: !ownFile,
    servers: servers.map((name) => ({
      name,
      runs: runsText(runnable(name)),
      runnable: runnable(name),
    })),
    settings: projectSettings(config.document) as TrustFile["settings"],
    declared,
  };
  return { ...ok(output), extra: { checked } };
}

/**
 * The terminal's rendering: with `--list` a table of the trusted files; else
 * what each server of the file trusted may run, its settings and declarations,
 * and what takes it back (or that the user's own file needs no trust).
 */
export function text(value: TrustAnswer, view: TextView): string {
  if ("files" in value) return listText(value);
  const { file, servers, declared } = value;
  if (!value.recorded) {
    return `${file} is one of your own configuration files: mcpx starts its servers without ` +
      `asking, so nothing was recorded.\n`;
  }
  const checked = (view.extra as { checked?: boolean } | undefined)?.checked ?? true;
  const settings = settingLines(value.settings);
  const width = Math.max(0, ...servers.map((s) => s.name.length));
  const lines = servers.map((s) => `  ${s.name.padEnd(width)}  ${s.runs}`);
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
  return (servers.length
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
    (checked ? "" : `(${TRUST_SETTING} is "always" here, so mcpx does not check anyway.)\n`);
}

/** The file's settings (config/trust.ts `projectSettings`) as `name = value` lines. */
function settingLines(settings: Record<string, unknown>): string[] {
  return Object.entries(settings).flatMap(([section, value]) =>
    value !== null && typeof value === "object" && !Array.isArray(value)
      ? Object.entries(value).map(([key, v]) => `${section}.${key} = ${JSON.stringify(v)}`)
      : [`${section} = ${JSON.stringify(value)}`]
  );
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

async function list(ctx: CliContext): Promise<TrustList> {
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
  // Said as `warning:` lines on stderr after the answer (cli/command_line.ts `printPosted`).
  for (const problem of store.problems) postNotice({ code: "state-damaged", message: problem });
  return { files: rows, problems: store.problems };
}

function listText({ files: rows }: TrustList): string {
  if (rows.length === 0) {
    return "No project configuration is trusted. `mcpx ls` in a project says what `mcpx trust` would allow.\n";
  }
  return renderTable(
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
  );
}
