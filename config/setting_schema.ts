/**
 * The flags and the schema generated from the settings registry: every
 * setting's `--section-key` spelling (and its alias) for the CLI's argv
 * parser, and the rows `mcpx config --schema` prints.
 *
 * Source: spec 000, "One declaration per setting" (no wiring: a declared
 * setting is a flag), "Plumbing" (hidden unless asked for).
 *
 * @module
 */

import { acceptedForm, type SettingType } from "./setting_value.ts";
import { settingEnvName, settingFlagName, SETTINGS } from "./settings.ts";

/** One flag spelling for the CLI's argv parser. */
export interface SettingFlag {
  /** `--catalog-budget`, or an alias such as `-n` or `--json`. */
  flag: string;
  /** Dotted setting name the flag sets. */
  name: string;
  type: SettingType;
  /** True for plumbing settings: accepted, but hidden from help and completion. */
  hidden: boolean;
}

/**
 * Every flag spelling of every setting: the generated `--section-key` and any alias.
 *
 * @returns Flags in declaration order, generated spelling first.
 * @example
 * ```ts
 * import { settingFlags } from "./setting_schema.ts";
 * if (!settingFlags().some((f) => f.flag === "--catalog-budget")) throw new Error();
 * ```
 */
export function settingFlags(): SettingFlag[] {
  return SETTINGS.flatMap((s) => {
    const hidden = s.plumbing === true;
    const out: SettingFlag[] = [{
      flag: settingFlagName(s.name),
      name: s.name,
      type: s.type,
      hidden,
    }];
    if (s.flag) out.push({ flag: s.flag, name: s.name, type: s.type, hidden });
    return out;
  });
}

/** One row of `mcpx config --schema`. */
export interface SettingSchemaEntry {
  name: string;
  type: SettingType;
  default: string;
  values?: readonly string[];
  /** What the value must look like, in words. */
  accepts: string;
  help: string;
  env: string[];
  flags: string[];
  plumbing: boolean;
}

/**
 * The data `mcpx config --schema` prints.
 *
 * @param options `plumbing: true` includes the internal switches (spec "Plumbing").
 * @returns One entry per setting, in declaration order.
 * @example
 * ```ts
 * import { renderSchema } from "./setting_schema.ts";
 * if (renderSchema().some((e) => e.plumbing)) throw new Error();
 * ```
 */
export function renderSchema(options: { plumbing?: boolean } = {}): SettingSchemaEntry[] {
  return SETTINGS.filter((s) => options.plumbing || !s.plumbing).map((s) => ({
    name: s.name,
    type: s.type,
    default: s.default,
    ...(s.values ? { values: s.values } : {}),
    accepts: acceptedForm(s),
    help: s.help,
    env: [settingEnvName(s.name), ...(s.envAliases ?? [])],
    flags: [settingFlagName(s.name), ...(s.flag ? [s.flag] : [])],
    plumbing: s.plumbing === true,
  }));
}
