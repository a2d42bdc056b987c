/**
 * The settings that name places to search (`paths.scripts`, `paths.config`,
 * `paths.placeholders`, and the declaration files of derived namespaces,
 * `paths.adapters` and `paths.apis`): declared here and spread into
 * config/settings.ts, the one settings table, so that file stays one concept
 * under the size limit.
 *
 * Source: spec 000, "Search paths", "Command-line programs as servers",
 * "Specifications as tools".
 *
 * @module
 */

import type { SettingDeclaration } from "./setting_value.ts";

/** The search-path settings (read by config/settings.ts's table). */
export const PATH_SETTINGS = [
  {
    name: "paths.scripts",
    type: "paths",
    default: "",
    help:
      "Directories (or files) searched for named scripts, nearest first: a list in a file (null for the built-in places), ':'-separated elsewhere (an empty entry for them)",
  },
  {
    name: "paths.config",
    type: "paths",
    default: "",
    help:
      "Directories (or files) searched for the configuration, nearest first, null/empty entry for the built-in places; read from the environment and flags only",
  },
  {
    name: "paths.placeholders",
    type: "string",
    default: "",
    help:
      "Files or directories of launcher placeholders (@name fills) for scripts, ':'-separated; empty means none",
  },
  {
    name: "paths.adapters",
    type: "paths",
    default: "",
    help:
      "Adapter declaration files (or directories of *.json/*.jsonc files): each adapter declared there runs as a namespace of its own (`mcpx adapter serve <name>`); empty means none",
  },
  {
    name: "paths.apis",
    type: "paths",
    default: "",
    help:
      "API declaration files (or directories of *.json/*.jsonc files): each OpenAPI document declared there runs as a namespace of its own (`mcpx api serve <name>`); empty means none",
  },
] as const satisfies readonly SettingDeclaration[];
