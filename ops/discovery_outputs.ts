/**
 * What the discovery ops answer (ops/discovery_ops.ts): the documents
 * `mcpx --json ls|search|types|catalog|scripts|client|config` print, field
 * for field. tests/json_output_test.ts checks each against what the command
 * prints on real servers.
 *
 * @module
 */

import * as z from "zod";
import {
  JsonObject,
  Runnable,
  Scope,
  Sharing,
  Starting,
  UntrustedReason,
} from "./output_shapes.ts";

/** A server still starting, as discovery shows it, with the command that waits for it. */
const StartingShown = Starting.extend({
  wait: z.string().describe("the command that waits for it (`mcpx ls --wait`)"),
});

/** One row of `mcpx --json ls`: a configured server as its namespace. */
export const LsRow = z.strictObject({
  namespace: z.string(),
  server: z.string().describe("the mcpServers key"),
  tools: z.number().int().describe("tools listed and usable"),
  sharing: Sharing,
  scope: Scope,
  live: z.number().int().describe("live instances (0 when no daemon answers)"),
  state: z.enum(["ready", "starting", "error", "disabled", "unlisted", "untrusted"]).describe(
    "starting: its first listing is in progress (see starting); untrusted: a project's " +
      "configuration not trusted with what the server runs, so nothing starts it",
  ),
  description: z.string(),
  error: z.string().optional().describe("why it failed, or is unavailable"),
  protocol: z.string().optional().describe(
    "the protocol revision the server was last listed with (2025-11-25, 2026-07-28, …)",
  ),
  aliasOf: z.string().optional().describe("the server this namespace is an alias of"),
  profiles: z.array(z.string()).optional().describe("the profiles the server belongs to"),
  untrusted: z.strictObject({
    file: z.string(),
    trustCommand: z.string(),
    runs: z.string().describe("what the server would run, one line"),
    runnable: Runnable,
    reason: UntrustedReason,
  }).optional().describe("state untrusted: the file, the command that trusts it, what, why"),
  starting: StartingShown.optional().describe(
    "state starting: how long, what it may take, and the command that waits for it",
  ),
});

/** `mcpx --json ls`. */
export const LsOutput = z.strictObject({
  config: z.string().nullable().describe("the configuration file, or null when none was found"),
  searched: z.array(z.string()).optional().describe("no configuration: the places searched"),
  namespaces: z.array(LsRow).describe("the servers of the profile selection, in config order"),
  unselected: z.array(z.string()).describe("namespaces outside the selected profiles"),
  problems: z.array(z.string()).describe("what the view found wrong (a tool left out, why)"),
  warnings: z.array(z.string()).describe("the configuration's and the settings' warnings"),
  shadowed: z.array(z.strictObject({
    path: z.string(),
    origin: z.enum(["project", "user", "named"]),
  })).optional().describe(
    "configuration files whose servers are not used because `config` is nearer, nearest first " +
      "(--config <path> uses one)",
  ),
});

/** Which field of a tool a search term matched (discovery/search.ts `SearchField`). */
const SearchField = z.enum([
  "name",
  "name-prefix",
  "tag",
  "name-substring",
  "name-word",
  "path",
  "namespace",
  "description",
]);

/** The `mcpx types` command for exactly some tools, and its cost (discovery/types_hint.ts). */
export const TypesHint = z.strictObject({
  refs: z.array(z.string()).describe("namespace.fn of each tool"),
  command: z.string().describe("mcpx types <refs…>"),
  tokens: z.number().int().describe("tokens of that command's output"),
  namespaces: z.array(z.string()).describe("the tools' namespaces, first seen first"),
  namespaceTokens: z.number().int().describe("tokens of loading those namespaces whole"),
});

/** `mcpx --json search`. */
export const SearchOutput = z.strictObject({
  mode: z.enum(["all", "any"]).describe("any: no tool matched every word"),
  hits: z.array(z.strictObject({
    function: z.string().describe("namespace.fn, as called"),
    tool: z.string().optional().describe("the tool's real name, when it is not fn"),
    namespace: z.string(),
    score: z.number(),
    description: z.string().describe("cut at 200 characters"),
    tags: z.array(z.string()).optional(),
    explain: z.array(z.strictObject({
      term: z.string(),
      field: SearchField,
      score: z.number(),
    })).optional().describe("--explain: each term's best match"),
  })).describe("best first"),
  types: TypesHint.optional().describe("the mcpx types command for the hits (none without hits)"),
  unlisted: z.array(z.strictObject({ namespace: z.string(), error: z.string() })).optional()
    .describe("namespaces not searched: listing their server failed"),
  starting: z.array(StartingShown.extend({ namespace: z.string() })).optional().describe(
    "namespaces not searched yet: their first listing is in progress",
  ),
});

/** `mcpx --json types`. */
export const TypesOutput = z.strictObject({
  namespaces: z.array(z.strictObject({
    namespace: z.string(),
    description: z.string(),
    tools: z.array(z.strictObject({
      function: z.string().describe("namespace.fn"),
      tool: z.string().describe("the tool's real name"),
      description: z.string(),
      inputSchema: JsonObject.describe("the server's JSON Schema"),
      outputSchema: JsonObject.optional(),
      declaration: z.string().optional().describe("the TypeScript declaration, when generated"),
    })),
  })),
});

/**
 * `mcpx --json schema`: the document itself for the JSON forms (a JSON Schema
 * document, an OpenAPI document, an MCP tools/list result), and
 * `{ typescript }` for the TypeScript form.
 */
export const SchemaOutput = z.union([
  z.strictObject({ typescript: z.string().describe("the declarations, one .d.ts text") }),
  JsonObject.describe("the JSON Schema or OpenAPI document, or the tools/list result"),
]);

/** `mcpx --json catalog` (discovery/catalog.ts `Catalog`, tokens as discovery/tokens.ts counts). */
export const CatalogOutput = z.strictObject({
  text: z.string().describe("the block for a system prompt"),
  tokens: z.number().int().describe("tokens of text; never more than budget"),
  shown: z.number().int().describe("full signatures included"),
  total: z.number().int().describe("tools across all namespaces"),
  budget: z.number().describe("the budget, tokens"),
});

/** `mcpx --json scripts` (scripts/list.ts `ScriptListing`). */
export const ScriptsOutput = z.strictObject({
  dirs: z.array(z.string()).describe("the places searched, nearest first"),
  scripts: z.array(z.strictObject({
    name: z.string(),
    description: z.string().describe("its first comment line, or empty"),
    path: z.string(),
    shadowedBy: z.string().optional().describe("the nearer script a run picks instead"),
    conflictsWith: z.string().optional().describe("a .ts beside a .js: a run refuses both"),
  })),
});

/** `mcpx --json client`. */
export const ClientOutput = z.strictObject({
  path: z.string().describe("the file written"),
  written: z.boolean().describe("false: it already held this client"),
  namespaces: z.number().int(),
});

/** One setting's declaration, as `mcpx config --schema` prints it (config/setting_schema.ts). */
const SettingSchemaEntry = z.strictObject({
  name: z.string(),
  type: z.enum(["int", "string", "bool", "duration", "enum", "path", "paths"]),
  default: z.string(),
  values: z.array(z.string()).readonly().optional().describe("an enum's values"),
  accepts: z.string().describe("what the value must look like, in words"),
  help: z.string(),
  env: z.array(z.string()),
  flags: z.array(z.string()),
  plumbing: z.boolean(),
});

const SettingValue = z.union([z.number(), z.string(), z.boolean()]);

/** `mcpx --json config --schema`. */
export const ConfigSchemaOutput = z.strictObject({
  settings: z.array(SettingSchemaEntry).describe("in declaration order"),
});

/** `mcpx --json config`: every resolved setting and where it came from. */
export const ConfigValuesOutput = z.strictObject({
  config: z.string().nullable(),
  searched: z.array(z.string()).optional().describe("no configuration: the places searched"),
  fingerprint: z.string().describe("the configuration's fingerprint: its daemon's key"),
  paths: z.strictObject({
    stateDir: z.string(),
    cacheDir: z.string(),
    configDirs: z.array(z.string()),
    configFiles: z.array(z.string()),
  }),
  settings: z.array(z.strictObject({
    name: z.string(),
    value: SettingValue,
    raw: z.unknown().describe("the value as written at its source"),
    source: z.string().describe("default, file:<path>, env:<VAR> or flag:--<flag>"),
    overrode: z.array(z.strictObject({ value: SettingValue, source: z.string() }))
      .describe("the values it overrode, lowest precedence first"),
  })),
  warnings: z.array(z.string()),
});

/** `mcpx --json config`, or with `--schema` the declarations. */
export const ConfigOutput = z.union([ConfigValuesOutput, ConfigSchemaOutput]);
