/**
 * The script launcher: the default template and its placeholders, the
 * template engine, placeholders declared by files, and source values that may
 * be inline code, a file or a directory. See docs/launcher.md.
 *
 * @module
 */

export {
  buildLauncher,
  BUILTIN_PLACEHOLDERS,
  type BuiltinPlaceholder,
  DEFAULT_TEMPLATE,
  type LauncherOptions,
  tryBuildLauncher,
} from "./default_template.ts";
export {
  type ExpandOptions,
  expandTemplate,
  type Expansion,
  type Fill,
  problemsMessage,
  tryExpandTemplate,
} from "./template.ts";
export {
  parsePlaceholderFile,
  type PlaceholderFile,
  placeholdersFromFiles,
  readPlaceholderFiles,
} from "./placeholder_file.ts";
export {
  FILE_PREFIX,
  type ResolvedSource,
  resolveSource,
  type ResolveSourceOptions,
  resolveSources,
  TEXT_PREFIX,
} from "./source.ts";
export { naturalCompare } from "./natural_order.ts";
