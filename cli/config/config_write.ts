/**
 * The command line's side of writing servers into the configuration
 * (config/server_write.ts), shared by `mcpx registry add` and `mcpx import`:
 * which file (the nearest configuration, else the user's own, created), the
 * preview without `--write`, and how the change is shown. Values that look
 * like secrets in the added entries are shown as their references
 * (`${mcpServers.api.env.KEY}`, decision 0017), in the diff as everywhere.
 *
 * @module
 */

import type { CliContext } from "../context.ts";
import {
  type NewServer,
  type ReservedNames,
  type ServerWriteResult,
  writeServers,
} from "../../config/server_write.ts";
import { configSecrets } from "../../config/secrets.ts";
import { Redactor } from "../../core/redact.ts";

/**
 * `entry` with each value that looks like a secret shown as its reference
 * (`${mcpServers.<name>.env.KEY}`), for printing; the file gets the value.
 */
export function shownEntry(name: string, entry: Record<string, unknown>): Record<string, unknown> {
  return new Redactor(configSecrets({ mcpServers: { [name]: entry } }, {})).json(entry);
}

/** What `--json` shows of a write (ops/reach_ops.ts `WriteOutput`). */
export interface WriteReport {
  path: string;
  written: boolean;
  created: boolean;
  /** The file is a project's: servers added to it start once `mcpx trust` records them. */
  needsTrust: boolean;
  added: string[];
  skipped: { name: string; reason: string }[];
  diff: string;
}

/**
 * The file servers are added to: the configuration mcpx reads here (the
 * nearest, or the one `--config`/`MCPX_CONFIG` names), else the user's own
 * configuration file, which is then created.
 *
 * @throws {ConfigError} When the nearest configuration cannot be read.
 */
export async function targetConfigPath(ctx: CliContext): Promise<string> {
  const config = await ctx.config();
  return config.path ?? ctx.paths().configFiles[0];
}

/**
 * The names and namespaces declared adapters and APIs hold, which a server
 * written into `path` must not take (config/derived_servers.ts refuses the
 * clash, and then every command fails): those the configuration here derives
 * from its settings now, and those `path`'s own `paths.adapters` /
 * `paths.apis` declare (a project's apply once it is trusted). A declaration
 * that cannot be read holds nothing here; the configuration reports it.
 */
export async function reservedNames(ctx: CliContext, path: string): Promise<ReservedNames> {
  const reserved = new Map<string, string>();
  const { derivedKind, readDeclarations } = await import("../../config/derived_servers.ts");
  const { toIdentifier } = await import("../../config/identifiers.ts");
  const hold = (kind: "adapters" | "apis", name: string, file: string, namespace?: string) => {
    const holder = `${derivedKind(kind).what} "${name}" declared in ${file}`;
    for (const key of [name, namespace ?? toIdentifier(name)]) {
      if (!reserved.has(key)) reserved.set(key, holder);
    }
  };
  const config = await ctx.config();
  for (const s of config.servers) {
    if (s.derived) hold(s.derived.kind, s.name, s.derived.file, s.namespace);
  }
  if (config.path === path) {
    const { declarationPlaces } = await import("../../config/declaration_digest.ts");
    const { projectSettings } = await import("../../config/trust.ts");
    for (const found of declarationPlaces(projectSettings(config.document), path, ctx.env.HOME)) {
      if ("problem" in found) continue;
      try {
        for (const d of await readDeclarations(found.kind.kind, found.files)) {
          hold(d.kind, d.name, d.file);
        }
      } catch {
        // A malformed declaration file: loading the configuration says what is wrong with it.
      }
    }
  }
  return reserved;
}

/**
 * Adds `servers` to the configuration file (or, without `write`, works out
 * the change only) and reports it with secrets shown as references.
 *
 * @throws {ConfigError} When the file is not one servers can be added to.
 */
export async function addToConfig(
  ctx: CliContext,
  servers: readonly NewServer[],
  write: boolean,
): Promise<WriteReport> {
  const path = await targetConfigPath(ctx);
  const own = ctx.paths().configDirs.includes(path.slice(0, path.lastIndexOf("/")));
  const result: ServerWriteResult = await writeServers(path, servers, {
    dryRun: !write,
    reserved: await reservedNames(ctx, path),
    ...(own ? { ownDir: "mcpx's configuration" } : {}),
  });
  const document = { mcpServers: Object.fromEntries(servers.map((s) => [s.name, s.entry])) };
  const redactor = new Redactor(configSecrets(document, {}));
  const needsTrust = result.added.length > 0 && ctx.origin(path) === "project" &&
    await ctx.setting("security.trustProjectConfigs") === "ask";
  return {
    path,
    written: write && result.added.length > 0,
    created: result.created,
    needsTrust,
    added: result.added,
    skipped: result.skipped,
    diff: redactor.text(result.diff),
  };
}

/**
 * What a write did, for the terminal: the diff on stdout; on stderr what was
 * skipped and why, then what was written, or that it was a preview.
 */
export function writeText(report: WriteReport): { out: string; err: string } {
  const out = report.diff ? (report.diff.endsWith("\n") ? report.diff : `${report.diff}\n`) : "";
  let err = report.skipped.map((s) => `skipped ${s.name}: ${s.reason}\n`).join("");
  if (report.added.length === 0) {
    err += `nothing to add to ${report.path}\n`;
  } else if (report.written) {
    err += `${report.created ? "created" : "updated"} ${report.path}: added ${
      report.added.join(", ")
    }\n`;
    if (report.needsTrust) {
      err += `a project's configuration: its new servers start once the user reviews the file ` +
        `and runs \`mcpx trust ${report.path}\`\n`;
    }
  } else {
    err += `a preview: nothing was written; add --write to write ${report.path}\n`;
  }
  return { out, err };
}
