/**
 * `mcpx import [--from host]… [--list] [--write]`: the servers other MCP
 * hosts are configured with (Claude Code, Claude Desktop, Cursor, VS Code,
 * Windsurf, Codex, opencode; their project and user files), translated into
 * `mcpServers` entries and added to the nearest configuration, never
 * replacing a name it has (decision 0055). The hosts' files are only read.
 * Without `--write` the diff is a preview; `--list` lists what was found.
 *
 * @module
 */

import type { CliContext } from "./context.ts";
import type { InputOf, OutputOf } from "../ops/op.ts";
import type { importOp } from "../ops/reach_ops.ts";
import { IMPORT_HOSTS } from "../config/host_names.ts";
import { findHostFiles, readHostFile } from "../config/host_files.ts";
import { hostServers } from "../config/host_servers.ts";
import type { NewServer } from "../config/server_write.ts";
import { referenceSecrets, type SecretVariable } from "../config/import_secrets.ts";
import { printJson } from "./json_out.ts";
import { renderTable, truncate } from "./table.ts";
import { addToConfig, printWrite, shownEntry, targetConfigPath } from "./config_write.ts";

type Output = OutputOf<typeof importOp>;

/** Runs `mcpx import`. @returns 0. */
export async function run(ctx: CliContext, input: InputOf<typeof importOp>): Promise<number> {
  const hosts = input.from?.length ? input.from : [...IMPORT_HOSTS];
  const target = await targetConfigPath(ctx);
  const files: Output["files"] = [];
  for (const file of findHostFiles(hosts, { cwd: ctx.cwd, env: ctx.env })) {
    const row: Output["files"][number] = {
      host: file.host,
      scope: file.scope,
      path: file.path,
      servers: [],
    };
    if (file.path === target) {
      // Claude Code's project `.mcp.json` is one of mcpx's own names.
      row.problem = "mcpx reads this file already: its servers are configured";
    } else {
      try {
        row.servers = hostServers(file, readHostFile(file), ctx.cwd);
      } catch (error) {
        row.problem = (error as Error).message;
      }
    }
    files.push(row);
  }
  const output: Output = { files };
  if (!input.list) {
    // A project's file may be committed: a literal secret from another host's file goes in as
    // a reference to a variable the person sets (decision 0055).
    const intoProject = ctx.origin(target) === "project";
    const sources = new Map<
      NewServer,
      { file: (typeof files)[number]; variables: SecretVariable[] }
    >();
    const servers: NewServer[] = files.flatMap((f) =>
      f.servers.flatMap((s) => {
        if (!s.entry) return [];
        const r = intoProject
          ? referenceSecrets(s.name, s.entry)
          : { entry: s.entry, variables: [] };
        const server = { name: s.name, entry: r.entry, from: `${f.host} ${f.path}` };
        sources.set(server, { file: f, variables: r.variables });
        return [server];
      })
    );
    output.write = await addToConfig(ctx, servers, Boolean(input.write));
    // The first server of each name added is the one written; a later one of that name is skipped.
    const added = output.write.added.map((name) => servers.find((s) => s.name === name)!);
    const variables = added.flatMap((s) =>
      sources.get(s)!.variables.map((v) => ({ server: s.name, ...v, from: s.from! }))
    );
    if (variables.length) output.variables = variables;
    // A project's servers in the user's own file start without the trust a project's file needs.
    const review = intoProject ? [] : added.flatMap((s) => {
      const { file } = sources.get(s)!;
      return file.scope === "project" ? [{ server: s.name, from: file.path }] : [];
    });
    if (review.length) output.review = review;
  }
  if (await ctx.json()) {
    // The file gets each value as it was; what is printed shows a secret as its reference.
    for (const f of output.files) {
      f.servers = f.servers.map((s) => s.entry ? { ...s, entry: shownEntry(s.name, s.entry) } : s);
    }
    printJson(ctx.io, output);
    return 0;
  }
  if (files.length === 0) {
    ctx.io.out(`no configuration of ${hosts.join(", ")} was found here or in your home\n`);
    return 0;
  }
  if (input.list) {
    ctx.io.out(renderTable(
      ["HOST", "SCOPE", "SERVER", "RUNS", "NOT TRANSLATED"],
      files.flatMap((f) =>
        f.problem
          ? [[f.host, f.scope, "", "", truncate(`${f.path}: ${f.problem}`, 80)]]
          : f.servers.map((s) => [
            f.host,
            f.scope,
            s.name,
            s.entry ? truncate(String(s.entry.url ?? s.entry.command ?? ""), 40) : "(not imported)",
            truncate(s.notes.join("; "), 80),
          ])
      ),
    ));
    ctx.io.out(`\nmcpx import --write adds them to ${target}\n`);
    return 0;
  }
  for (const f of files) {
    if (f.problem) ctx.io.err(`${f.host} ${f.path}: ${f.problem}\n`);
    for (const s of f.servers) {
      for (const note of s.notes) {
        ctx.io.err(`${f.host} ${s.name}: ${s.entry ? "" : "not imported: "}${note}\n`);
      }
    }
  }
  printWrite(ctx, output.write!);
  const would = output.write!.written ? "" : " (once written)";
  for (const v of output.variables ?? []) {
    ctx.io.err(
      `set ${v.variable} for ${v.server}${would}: its ${v.place} was a literal secret in ${v.from}, ` +
        `so ${output.write!.path} reads it from \${${v.variable}} instead\n`,
    );
  }
  for (const r of output.review ?? []) {
    ctx.io.err(
      `review ${r.server}${would}: it comes from a project's file, ${r.from}, and ${
        output.write!.path
      } is your own configuration, whose servers mcpx starts without asking; check what it runs ` +
        `there before using it\n`,
    );
  }
  return 0;
}
