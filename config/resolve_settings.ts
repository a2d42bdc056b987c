/**
 * Resolving every setting of the registry (config/settings.ts) with
 * precedence defaults < configuration files (nearest last) < environment <
 * flags. Every resolved value remembers where it came from and what it
 * overrode; all problems are collected and reported together.
 *
 * Source: spec 000, "One declaration per setting".
 *
 * @module
 */

import { dirname } from "../core/posix_path.ts";
import { ConfigError, UsageError } from "../core/errors.ts";
import { describeValue } from "./_describe.ts";
import { didYouMean } from "./_suggest.ts";
import {
  acceptedForm,
  parseSettingValue,
  type SettingDeclaration,
  type SettingValue,
} from "./setting_value.ts";
import {
  SECTION_DECLARATIONS,
  SETTING_SECTIONS,
  settingDeclaration,
  settingEnvName,
  settingEnvSpelling,
  settingFlagName,
  SETTINGS,
} from "./settings.ts";

const BY_NAME = new Map(SETTINGS.map((s) => [s.name, s]));

/** Where a value came from: `default`, `file:<path>`, `env:MCPX_X` or `flag:--x`. */
export type SettingSource = "default" | `file:${string}` | `env:${string}` | `flag:${string}`;

/** One setting after precedence. */
export interface ResolvedSetting {
  name: string;
  /** Typed; see {@link parseSettingValue}. */
  value: SettingValue;
  /** The value as written at its source. */
  raw: unknown;
  source: SettingSource;
  /** The values this one overrode, lowest precedence first (starting with the default). */
  overrode: { value: SettingValue; source: SettingSource }[];
}

/** Every declared setting resolved, plus warnings about keys nothing reads. */
export interface ResolvedSettings {
  /** By dotted name; every declared setting is present. */
  values: Record<string, ResolvedSetting>;
  /** e.g. an unknown key under a settings section of a file, with a suggestion. */
  warnings: string[];
}

/** One configuration file's settings, as {@link resolveSettings} reads them. */
export interface SettingsLayer {
  /** The file as found (absolute): what sources and messages name. */
  file: string;
  /** Its path with symlinks resolved: a relative `path` value means its directory. */
  realPath?: string;
  /** The parsed file. */
  document: Record<string, unknown>;
  /** Found by the upward search from the working directory (config/discover.ts `configOrigin`). */
  project?: boolean;
}

/** Inputs of {@link resolveSettings}. */
export interface ResolveSettingsOptions {
  /**
   * Parsed configuration files, farthest first, nearest last; `project` marks
   * a file found by the upward search, which cannot set a `userOnly` setting;
   * `realPath` is the file with symlinks resolved, whose directory a relative
   * `path` value means (absent: `file`'s).
   */
  layers: SettingsLayer[];
  /** Environment map. */
  env: Record<string, string | undefined>;
  /** Command-line values keyed by dotted name (`{ "catalog.budget": "3000" }`). */
  flags?: Record<string, string | boolean>;
  /**
   * The spelling the user typed for a flag, by dotted name (`{ "catalog.budget": "--budget" }`),
   * so sources and errors name what is on the command line; the generated spelling otherwise.
   */
  flagSpellings?: Record<string, string>;
  /** Directory relative `path` values from the environment or flags resolve against. */
  cwd?: string;
}

/**
 * Resolves every setting: defaults < files (in order; nearest last) < environment < flags.
 * An empty environment variable counts as unset. All problems are collected first.
 *
 * @param options Layers, environment, flags.
 * @returns {@link ResolvedSettings}.
 * @throws {UsageError} When only flags are invalid (unknown name, bad value).
 * @throws {ConfigError} When a file or the environment holds an invalid value, a settings
 *   section is not an object, or two environment spellings of one setting disagree; one
 *   error lists every problem, one per line, each naming the setting, source, value and form.
 * @example
 * ```ts
 * import { resolveSettings } from "./resolve_settings.ts";
 * const s = resolveSettings({
 *   layers: [{ file: "/p/.mcpx.json", document: { catalog: { budget: 3000 } } }],
 *   env: {},
 *   flags: {},
 * });
 * if (s.values["catalog.budget"].value !== 3000) throw new Error();
 * ```
 */
export function resolveSettings(options: ResolveSettingsOptions): ResolvedSettings {
  const { layers, env } = options;
  const flags = options.flags ?? {};
  const cwd = options.cwd ?? Deno.cwd();
  const home = env.HOME || undefined;
  const fileProblems: Error[] = [];
  const flagProblems: Error[] = [];
  const warnings: string[] = [];
  const values: Record<string, ResolvedSetting> = {};

  for (const layer of layers) checkSections(layer, fileProblems, warnings);
  for (const name of Object.keys(flags)) {
    if (!BY_NAME.has(name)) {
      flagProblems.push(
        new UsageError(`unknown setting "${name}"${didYouMean(name, BY_NAME.keys())}`),
      );
    }
  }

  for (const decl of SETTINGS) {
    let current: ResolvedSetting = {
      name: decl.name,
      value: parseSettingValue(decl, decl.default, { baseDir: cwd, home }),
      raw: decl.default,
      source: "default",
      overrode: [],
    };
    const apply = (raw: unknown, source: SettingSource, baseDir: string, sink: Error[]) => {
      let value: SettingValue;
      try {
        value = parseSettingValue(decl, raw, { baseDir, home });
      } catch (error) {
        sink.push(settingError(decl, source, raw, error as Error));
        return;
      }
      current = {
        name: decl.name,
        value,
        raw,
        source,
        overrode: [...current.overrode, { value: current.value, source: current.source }],
      };
    };

    for (const layer of layers) {
      const found = lookup(layer.document, decl.name);
      if (found.present && decl.userOnly && layer.project) {
        warnings.push(
          `${decl.name} is set in ${layer.file}, a project's configuration, and is ignored: ` +
            `only your own files (~/.config/mcpx/config.json), ${settingEnvName(decl.name)} ` +
            `or ${settingFlagName(decl.name)} set it`,
        );
      } else if (found.present) {
        // A relative path means the real file's directory, not a link's (as a server's cwd).
        const dir = dirname(layer.realPath ?? layer.file);
        apply(found.value, `file:${layer.file}`, dir, fileProblems);
      }
    }

    let variable: string | undefined;
    try {
      variable = settingEnvSpelling(decl.name, env);
    } catch (error) {
      fileProblems.push(error as Error);
    }
    if (variable !== undefined) apply(env[variable], `env:${variable}`, cwd, fileProblems);

    if (Object.hasOwn(flags, decl.name)) {
      const raw = flags[decl.name];
      const spelling = options.flagSpellings?.[decl.name] ?? settingFlagName(decl.name);
      if (raw === true && decl.type !== "bool") {
        flagProblems.push(
          new UsageError(
            `${spelling} needs a value: ${acceptedForm(decl)}, e.g. ${spelling}=${
              decl.default || "value"
            }`,
          ),
        );
      } else {
        apply(raw, `flag:${spelling}`, cwd, flagProblems);
      }
    }
    values[decl.name] = current;
  }

  const problems = [...fileProblems, ...flagProblems];
  if (problems.length === 1) throw problems[0];
  if (problems.length > 1) {
    const lines = problems.map((p) => `  ${p.message}`).join("\n");
    const cause = new AggregateError(problems, "settings problems");
    if (fileProblems.length === 0) {
      throw new UsageError(`${problems.length} problems with settings:\n${lines}`, { cause });
    }
    const first = fileProblems[0] as ConfigError;
    throw new ConfigError(first.file, "", `${problems.length} problems with settings:\n${lines}`, {
      cause,
    });
  }
  return { values, warnings };
}

/**
 * The typed value of one resolved setting.
 *
 * @param settings The result of {@link resolveSettings}.
 * @param name Dotted name.
 * @returns The value (number, string or boolean; see {@link parseSettingValue}).
 * @throws {RangeError} When no setting has that name.
 * @example
 * ```ts
 * import { resolveSettings, settingValue } from "./resolve_settings.ts";
 * const s = resolveSettings({ layers: [], env: {} });
 * if (settingValue(s, "search.limit") !== 20) throw new Error();
 * ```
 */
export function settingValue(settings: ResolvedSettings, name: string): SettingValue {
  const resolved = settings.values[name];
  if (!resolved) settingDeclaration(name); // throws with a suggestion
  return resolved.value;
}

function lookup(document: Record<string, unknown>, name: string): {
  present: boolean;
  value?: unknown;
} {
  let node: unknown = document;
  for (const segment of name.split(".")) {
    if (node === null || typeof node !== "object" || Array.isArray(node)) return { present: false };
    if (!Object.hasOwn(node, segment)) return { present: false };
    node = (node as Record<string, unknown>)[segment];
  }
  return { present: true, value: node };
}

/**
 * The problems of one file's own setting values, each a {@link ConfigError}
 * naming the file, the setting, the value and the fix, as
 * {@link resolveSettings} would report them. config/parse.ts adds them to a
 * file's other problems when it reports those, so a file's problems come in
 * one round rather than settings after the rest.
 *
 * @param file The file, for the messages.
 * @param document Its parsed value.
 * @param home The user's home, for `~` in path settings.
 */
export function fileSettingProblems(
  file: string,
  document: Record<string, unknown>,
  home?: string,
): Error[] {
  const problems: Error[] = [];
  checkSections({ file, document }, problems, []);
  for (const decl of SETTINGS) {
    // A user-only setting is ignored in a project's file, which this file may be: left to
    // resolveSettings(), which knows.
    if (decl.userOnly) continue;
    const found = lookup(document, decl.name);
    if (!found.present) continue;
    try {
      parseSettingValue(decl, found.value, { baseDir: dirname(file), home });
    } catch (error) {
      problems.push(settingError(decl, `file:${file}`, found.value, error as Error));
    }
  }
  return problems;
}

function checkSections(
  layer: { file: string; document: Record<string, unknown> },
  problems: Error[],
  warnings: string[],
): void {
  for (const section of SETTING_SECTIONS) {
    if (!Object.hasOwn(layer.document, section)) continue;
    const node = layer.document[section];
    if (node === null || typeof node !== "object" || Array.isArray(node)) {
      problems.push(
        new ConfigError(
          layer.file,
          section,
          `must be an object of settings, got ${describeValue(node)}; write e.g. ` +
            `{ "${section}": { ... } } (see mcpx config --schema)`,
        ),
      );
      continue;
    }
    const known = SETTINGS.filter((s) => s.name.startsWith(`${section}.`))
      .map((s) => s.name.slice(section.length + 1));
    for (const key of Object.keys(node)) {
      if (SECTION_DECLARATIONS.includes(`${section}.${key}`)) continue;
      if (!known.includes(key)) {
        warnings.push(
          `config ${layer.file}: ${section}.${key}: unknown setting, ignored${
            didYouMean(key, known)
          } (see mcpx config --schema)`,
        );
      }
    }
  }
}

function settingError(
  decl: SettingDeclaration,
  source: SettingSource,
  raw: unknown,
  error: Error,
): Error {
  const detail = `${error.message}, got ${describeValue(raw)}`;
  if (source.startsWith("file:")) {
    return new ConfigError(
      source.slice(5),
      decl.name,
      `${detail}; fix the value (default ${JSON.stringify(decl.default)})`,
      { cause: error },
    );
  }
  if (source.startsWith("env:")) {
    const variable = source.slice(4);
    return new ConfigError(
      "environment",
      variable,
      `setting ${decl.name} ${detail}; export a valid value or unset ${variable}`,
      { cause: error },
    );
  }
  return new UsageError(`${source.slice(5)}: setting ${decl.name} ${detail}`, { cause: error });
}
