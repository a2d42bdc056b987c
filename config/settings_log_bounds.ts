/**
 * The bounds on what mcpx records (decision 0063): how many records a second
 * and how many bytes a record one server can make mcpx write, and how many
 * bytes the log directory may hold. Declared here and spread into the one
 * settings table (config/settings.ts), which reads them like every other: a
 * file's dotted path, an `MCPX_…` variable, a `--flag`.
 *
 * @module
 */

import type { SettingDeclaration } from "./setting_value.ts";

/** The log's bounds, in the order `mcpx config` lists them. */
export const LOG_BOUND_SETTINGS = [
  {
    name: "logging.serverRate",
    type: "int",
    min: 1,
    default: "100",
    help:
      "Records a second one server can make mcpx write (log messages, cancellations, questions); the rest are counted, not written",
  },
  {
    name: "logging.serverRecordBytes",
    type: "int",
    min: 1024,
    default: "65536",
    help: "Bytes one record a server causes may take; a larger one is counted, not written",
  },
  {
    name: "logging.maxDirSize",
    type: "int",
    min: 1048576,
    default: "268435456",
    help:
      "Bytes the log directory (JSONL files, index.db) may hold; the oldest files are removed first",
  },
] as const satisfies readonly SettingDeclaration[];
