/**
 * The `config` op: every resolved setting, its value and where it came from,
 * or with `schema` every setting's declaration (spec 000, "One declaration
 * per setting").
 *
 * @module
 */

import type { InputOf, OutputOf } from "./op.ts";
import type { config } from "./discovery_ops.ts";
import type { OpHost } from "./host.ts";
import { SETTINGS } from "../config/settings.ts";
import type { ResolvedSetting } from "../config/resolve_settings.ts";
import { renderSchema } from "../config/setting_schema.ts";
import { defaultPathSource } from "../config/paths.ts";

/** What `config` answers (ops/discovery_outputs.ts `ConfigOutput`): the values, or the declarations. */
export type ConfigOutput = OutputOf<typeof config>;

/** A setting as `config` shows it; `source` may also be `default ($XDG_STATE_HOME/mcpx)`. */
type ShownSetting = Omit<ResolvedSetting, "source"> & { source: string };

/**
 * The settings, or their declarations.
 *
 * @param input `schema`: the declarations (no configuration is read); `plumbing`: the internal
 *   switches too.
 * @param host The configuration, the settings and the directories.
 * @returns `{ settings }` of declarations, or the configuration, its fingerprint, the
 *   directories in use, each setting shown and the warnings.
 * @throws {ConfigError} When the configuration cannot be read (not with `schema`).
 */
export async function handle(input: InputOf<typeof config>, host: OpHost): Promise<ConfigOutput> {
  if (input.schema) return { settings: renderSchema({ plumbing: input.plumbing === true }) };
  const loaded = await host.config();
  const settings = await host.settings();
  const shown = SETTINGS.filter((s) => input.plumbing || !s.plumbing);
  return {
    config: loaded.path,
    ...(loaded.path === null ? { searched: loaded.searched ?? [] } : {}),
    fingerprint: loaded.fingerprint,
    paths: host.paths(),
    settings: shown.map((s) =>
      s.secret ? masked(settings.values[s.name]) : inUse(host, settings.values[s.name])
    ),
    warnings: await host.warnings(),
  };
}

/** A secret setting as `config` shows it: `(set)` or `""`, wherever it came from. */
function masked(resolved: ResolvedSetting): ShownSetting {
  const hide = (value: unknown) => value === "" ? "" : "(set)";
  return {
    ...resolved,
    value: hide(resolved.value),
    raw: hide(resolved.raw),
    overrode: resolved.overrode.map((o) => ({ ...o, value: hide(o.value) })),
  };
}

/**
 * `paths.state` and `paths.cache` as they are used: the directory of
 * `host.paths()` and where it came from. A file's value is ignored there (the
 * warning says so) and the built-in default is a directory, not `""`.
 */
function inUse(host: OpHost, resolved: ResolvedSetting): ShownSetting {
  const name = resolved.name;
  if (name !== "paths.state" && name !== "paths.cache") return resolved;
  const value = host.paths()[name === "paths.state" ? "stateDir" : "cacheDir"];
  const read = (source: string) => source.startsWith("env:") || source.startsWith("flag:");
  if (read(resolved.source)) {
    return { ...resolved, value, overrode: resolved.overrode.filter((o) => read(o.source)) };
  }
  return { name, value, raw: value, source: defaultPathSource(name, host.env), overrode: [] };
}
