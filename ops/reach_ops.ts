/**
 * Servers not configured yet (issue 15): `mcpx registry` asks an MCP
 * registry what exists and translates an entry into a server this machine
 * runs (decision 0054); `mcpx import` reads other hosts' configurations and
 * translates their servers (decision 0055). Both add to the nearest
 * configuration file through one module (config/server_write.ts) with
 * `--write`, and print the change as a diff.
 *
 * @module
 */

import * as z from "zod";
import { defineOp } from "./op.ts";

import { IMPORT_HOSTS } from "../config/host_names.ts";

/** What `--write` did, or (without it) would do, to the configuration file. */
const WriteOutput = z.strictObject({
  path: z.string().describe("the configuration file"),
  written: z.boolean().describe("false: a preview; run again with --write"),
  created: z.boolean().describe("the file did not exist"),
  needsTrust: z.boolean().describe(
    "a project's file: the servers added start once `mcpx trust` records them",
  ),
  added: z.array(z.string()),
  skipped: z.array(z.strictObject({ name: z.string(), reason: z.string() })),
  diff: z.string().describe("unified diff of the change (secrets shown as references)"),
});

const Translation = z.strictObject({
  name: z.string().describe("the key under mcpServers"),
  entry: z.record(z.string(), z.unknown()),
  via: z.enum(["remote", "package"]),
  summary: z.string(),
  needs: z.array(z.strictObject({
    variable: z.string(),
    description: z.string().optional(),
    secret: z.boolean(),
    usedBy: z.string(),
  })).describe("variables to set before it can start"),
  optional: z.array(z.strictObject({ name: z.string(), description: z.string().optional() })),
  notes: z.array(z.string()).describe("what did not translate, other ways it is published"),
});

/** `mcpx --json registry …`. */
export const RegistryOutput = z.union([
  z.strictObject({
    registry: z.string(),
    servers: z.array(z.strictObject({
      name: z.string(),
      namespace: z.string().describe("what `mcpx registry add` names it"),
      version: z.string().optional(),
      title: z.string().optional(),
      description: z.string().optional(),
      status: z.string().optional(),
      via: z.string().describe("remote, package, or why neither runs"),
    })),
  }).describe("search"),
  z.strictObject({
    registry: z.string(),
    server: z.record(z.string(), z.unknown()).describe("the registry's entry as it answered"),
    status: z.string().optional(),
    translation: Translation.optional(),
    untranslatable: z.string().optional().describe("why no entry can be made"),
    write: WriteOutput.optional().describe("add"),
  }).describe("show, add"),
]);

/** `mcpx registry`. */
export const registry = defineOp({
  name: "registry",
  description: "Ask an MCP registry (registry.url) what servers exist: `search <words>`, " +
    "`show <name>`, and `add <name> [--as ns] [--write]`, which translates the entry (a remote " +
    "when offered, else the package pinned and run by npx, uvx, docker or dnx) into the nearest " +
    "configuration file, keeping its comments, and prints the diff.",
  where: "cli",
  hints: { readOnly: false, destructive: false, idempotent: true },
  input: z.object({
    words: z.array(z.string()).default([]).describe("search <words…> | show <name> | add <name>"),
    as: z.string().optional().describe("add: the name to write the server under"),
    write: z.boolean().optional().describe(
      "add: write the nearest configuration file (else the diff is a preview)",
    ),
    limit: z.string().optional().describe("search: most results (default 20)"),
  }),
  output: RegistryOutput,
  cli: {
    command: "registry",
    module: "./config/registry.ts",
    usage: "mcpx registry search <words…> [-n N] | show <name> | add <name> [--as NS] [--write]",
    summary: "find servers in an MCP registry; add one to the configuration",
    args: [{ field: "words", name: "search|show|add", variadic: true }],
    flags: {
      as: { field: "as", type: "string" },
      write: {
        field: "write",
        type: "boolean",
      },
      limit: { field: "limit", type: "string", short: "n" },
    },
  },
});

const ImportedServer = z.strictObject({
  name: z.string(),
  entry: z.record(z.string(), z.unknown()).optional().describe("absent: it does not translate"),
  notes: z.array(z.string()).describe("what did not translate"),
});

/** `mcpx --json import …`. */
export const ImportOutput = z.strictObject({
  files: z.array(z.strictObject({
    host: z.enum(IMPORT_HOSTS),
    scope: z.enum(["project", "user"]),
    path: z.string(),
    servers: z.array(ImportedServer),
    problem: z.string().optional().describe("why the file could not be read"),
  })),
  write: WriteOutput.optional().describe("absent with --list"),
  variables: z.array(z.strictObject({
    server: z.string(),
    variable: z.string().describe("the variable to set"),
    place: z.string().describe("where the literal value was in the entry (env KEY, headers Name)"),
    from: z.string().describe("the host and file that held it"),
  })).optional().describe(
    "into a project's file: literal secrets written as ${VAR} references, one per variable to set",
  ),
  review: z.array(z.strictObject({
    server: z.string(),
    from: z.string().describe("the project's host file it came from"),
  })).optional().describe(
    "servers from a project's file added to the user's own configuration, which starts them " +
      "without asking: review what they run",
  ),
});

/** `mcpx import`. */
export const importOp = defineOp({
  name: "import",
  description: "Read other MCP hosts' configurations (Claude Code, Claude Desktop, Cursor, VS " +
    "Code, Windsurf, Codex, opencode; project and user files), translate their servers and say " +
    "what does not translate; --write adds them to the nearest configuration file, never " +
    "replacing a name it has, and prints the diff. The other hosts' files are only read.",
  where: "cli",
  hints: { readOnly: false, destructive: false, idempotent: true },
  input: z.object({
    from: z.array(z.enum(IMPORT_HOSTS)).optional().describe(
      "only these hosts (default: every one)",
    ),
    list: z.boolean().optional().describe("list the servers found and what translates; no diff"),
    write: z.boolean().optional().describe(
      "write the nearest configuration file (else the diff is a preview)",
    ),
  }),
  output: ImportOutput,
  cli: {
    command: "import",
    module: "./config/import_cmd.ts",
    usage: `mcpx import [--from ${IMPORT_HOSTS.join("|")}]… [--list] [--write]`,
    summary: "import servers from other hosts' configurations (Claude, Cursor, VS Code, …)",
    flags: {
      from: {
        field: "from",
        type: "string",
        multiple: true,
        complete: IMPORT_HOSTS,
      },
      list: { field: "list", type: "boolean" },
      write: {
        field: "write",
        type: "boolean",
      },
    },
  },
});
