/**
 * The MCP hosts whose configurations `mcpx import` reads (decision 0055), in
 * the order their servers are taken when two hosts name one alike. Apart
 * from config/host_files.ts so the op table names them without loading a
 * parser.
 *
 * @module
 */

/** Every host `mcpx import --from` accepts. */
export const IMPORT_HOSTS = [
  "claude-code",
  "claude-desktop",
  "cursor",
  "vscode",
  "windsurf",
  "codex",
  "opencode",
] as const;

/** A host mcpx imports from. */
export type Host = typeof IMPORT_HOSTS[number];
