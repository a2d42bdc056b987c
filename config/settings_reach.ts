/**
 * The settings of mcpx's reach beyond its configuration (issue 15): where
 * `mcpx registry` looks. Declared here and spread into the one settings table
 * (config/settings.ts), which is at the file-length limit; they are read,
 * documented and typed exactly as the others.
 *
 * @module
 */

import type { SettingDeclaration } from "./setting_value.ts";

/** Declarations of the reach settings (config/settings.ts `SETTINGS` holds them). */
export const REACH_SETTINGS = [
  {
    name: "registry.url",
    type: "string",
    default: "https://registry.modelcontextprotocol.io",
    help:
      "The MCP registry `mcpx registry` asks: any registry serving the official registry API's /v0.1 routes (an organisation's own, a vendor's)",
  },
] as const satisfies readonly SettingDeclaration[];
