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

import type { CliContext } from "../context.ts";
import type { InputOf, OutputOf } from "../../ops/op.ts";
import type { importOp } from "../../ops/reach_ops.ts";
import { IMPORT_HOSTS } from "../../config/host_names.ts";
import { findHostFiles, readHostFile } from "../../config/host_files.ts";
import { hostServers } from "../../config/host_servers.ts";
import type { NewServer } from "../../config/server_write.ts";
import { referenceSecrets, type SecretVariable } from "../../config/import_secrets.ts";
import type { Text, TextView } from "../commands.ts";
import { type Answered, ok } from "../../ops/outcome.ts";
import { renderTable, truncate } from "../table.ts";
import { addToConfig, shownEntry, targetConfigPath, writeText } from "./config_write.ts";

type Output = OutputOf<typeof importOp>;

/**
 * Runs `mcpx import`: finds the other hosts' configuration files, translates
 * their servers and adds them to the nearest configuration (a preview
 * without `--write`; nothing added with `--list`).
 *
 * @returns `ok` with `{ files, write?, variables?, review? }`, each entry as
 *   it is shown (a secret as its reference); the extra is the hosts looked
 *   for and the configuration written to, for the text.
 */
export async function handle(
  ctx: CliContext,
  input: InputOf<typeof importOp>,
): Promise<Answered<Output>> {
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
  // The file gets each value as it was; the document shows a secret as its reference.
  const shown: Output = {
    ...output,
    files: output.files.map((f) => ({
      ...f,
      servers: f.servers.map((s) => s.entry ? { ...s, entry: shownEntry(s.name, s.entry) } : s),
    })),
  };
  return { ...ok(shown), extra: { hosts, target, files } satisfies ImportExtra };
}

/**
 * What only the text shows: the hosts looked for, the configuration written
 * to, and the files as found (the `--list` table shows what each runs as
 * the host's file has it).
 */
interface ImportExtra {
  hosts: string[];
  target: string;
  files: Output["files"];
}

/**
 * The terminal's rendering: with `--list`, a table of what was found; else
 * the diff on stdout and, on stderr, what did not translate, what was
 * written, the variables to set and the servers to review.
 */
export function text(output: Output, view: TextView): Text {
  const { hosts, target, files } = view.extra as ImportExtra;
  if (files.length === 0) {
    return `no configuration of ${hosts.join(", ")} was found here or in your home\n`;
  }
  if ((view.input as InputOf<typeof importOp>).list) {
    return renderTable(
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
    ) + `\nmcpx import --write adds them to ${target}\n`;
  }
  let err = "";
  for (const f of files) {
    if (f.problem) err += `${f.host} ${f.path}: ${f.problem}\n`;
    for (const s of f.servers) {
      for (const note of s.notes) {
        err += `${f.host} ${s.name}: ${s.entry ? "" : "not imported: "}${note}\n`;
      }
    }
  }
  const written = writeText(output.write!);
  err += written.err;
  const would = output.write!.written ? "" : " (once written)";
  for (const v of output.variables ?? []) {
    err += `set ${v.variable} for ${v.server}${would}: its ${v.place} was a literal secret in ` +
      `${v.from}, so ${output.write!.path} reads it from \${${v.variable}} instead\n`;
  }
  for (const r of output.review ?? []) {
    err +=
      `review ${r.server}${would}: it comes from a project's file, ${r.from}, and ${
        output.write!.path
      } is your own configuration, whose servers mcpx starts without asking; check what it runs ` +
      `there before using it\n`;
  }
  return { out: written.out, err };
}
