/**
 * Settings from a project's configuration file apply only once the file is
 * trusted with them (decision 0022). A cloned repository's `.mcp.json` could
 * otherwise loosen the user's own settings — `script.permissions: "all"`
 * over the user's `none` removes the script sandbox, `logging.dir` sends the
 * user's log into the repository, `paths.placeholders` puts the repository's
 * code into every script's launcher — without starting a single server.
 *
 * The rule, applied wherever settings are resolved from files (the CLI's
 * `CliContext.settings()`, a daemon started by hand): under
 * `security.trustProjectConfigs=ask`, a layer found by the upward search
 * (`project`) keeps its settings only when the trust store's record of its
 * real path holds the hash of exactly those settings (config/trust.ts
 * `settingsHash()`, recorded by `mcpx trust`); otherwise every one of them is
 * left out, with one warning naming them, the file and the command that
 * trusts it. Under `always`, and for the user's own and named files, nothing
 * changes. `userOnly` settings are not part of this: a project's file never
 * sets them (config/resolve_settings.ts warns).
 *
 * @module
 */

import {
  type ResolvedSettings,
  resolveSettings,
  type ResolveSettingsOptions,
  type SettingsLayer,
} from "./resolve_settings.ts";
import {
  projectSettingNames,
  settingsHash,
  TRUST_SETTING,
  trustCommand,
  USER_ONLY_SETTINGS,
} from "./trust.ts";
import { readTrustStore, trustStorePath } from "./trust_store.ts";
import { SETTING_SECTIONS } from "./settings.ts";

/** What {@link trustedSettingLayers} needs besides the layers. */
export interface TrustedLayersOptions extends Omit<ResolveSettingsOptions, "layers"> {
  /** mcpx's state directory, where the trust store is (config/trust_store.ts). */
  stateDir: string;
}

/**
 * The layers with every untrusted project layer's settings left out.
 *
 * @param layers The configuration files' layers, farthest first (`project` set on those found
 *   by the upward search; `realPath` keys the trust store, else `file`).
 * @param options The environment and flags (they decide `security.trustProjectConfigs`, with the
 *   user's own files) and the state directory.
 * @returns The layers to resolve, and one warning per project file whose settings were left out.
 * @example
 * ```ts
 * import { trustedSettingLayers } from "./project_settings.ts";
 * const layer = { file: "/r/.mcp.json", project: true, document: { logging: { dir: "/r/l" } } };
 * const { layers, warnings } = await trustedSettingLayers([layer], { env: {}, stateDir: "/nonexistent" });
 * if ("logging" in layers[0].document || !warnings[0].includes("logging.dir")) throw new Error();
 * ```
 */
export async function trustedSettingLayers(
  layers: SettingsLayer[],
  options: TrustedLayersOptions,
): Promise<{ layers: SettingsLayer[]; warnings: string[] }> {
  const held = layers.filter((l) => l.project && projectSettingNames(l.document).length > 0);
  if (held.length === 0 || trustMode(layers, options) === "always") {
    return { layers, warnings: [] };
  }
  const store = readTrustStore(trustStorePath(options.stateDir));
  const warnings: string[] = [];
  const out: SettingsLayer[] = [];
  for (const layer of layers) {
    if (!held.includes(layer)) {
      out.push(layer);
      continue;
    }
    const record = store.files[layer.realPath ?? layer.file];
    if (
      record?.settings ===
        await settingsHash(layer.document, layer.realPath ?? layer.file, options.env.HOME)
    ) {
      out.push(layer);
      continue;
    }
    const names = projectSettingNames(layer.document);
    const why = !record
      ? "is a project's configuration not trusted yet"
      : record.settings === undefined
      ? "was trusted before mcpx asked about settings"
      : "changed its settings since it was trusted";
    warnings.push(
      `${layer.file} ${why}, so its setting${names.length === 1 ? "" : "s"} ${names.join(", ")} ${
        names.length === 1 ? "is" : "are"
      } ignored and yours apply; review ` +
        `${names.length === 1 ? "it" : "them"}, then run \`${
          trustCommand(layer.file)
        }\` (an agent should ask its user to run that, not run it itself)`,
    );
    out.push({ ...layer, document: withoutSettings(layer.document) });
  }
  return { layers: out, warnings };
}

/**
 * {@link resolveSettings} over the layers {@link trustedSettingLayers} keeps:
 * what the CLI and a daemon started by hand resolve.
 *
 * @param options As `resolveSettings()`, plus the state directory.
 * @returns The resolved settings, the warnings about left-out settings first.
 * @throws {ConfigError}, {UsageError} as `resolveSettings()`.
 */
export async function resolveTrustedSettings(
  options: ResolveSettingsOptions & TrustedLayersOptions,
): Promise<ResolvedSettings> {
  const trusted = await trustedSettingLayers(options.layers, options);
  const settings = resolveSettings({ ...options, layers: trusted.layers });
  settings.warnings.unshift(...trusted.warnings);
  return settings;
}

/**
 * `security.trustProjectConfigs` as the user set it: their own files, the
 * environment and flags (a project's file cannot set it). A problem resolving
 * it reads as `ask`; the full resolution reports the problem.
 */
function trustMode(layers: SettingsLayer[], options: TrustedLayersOptions): unknown {
  try {
    const own = layers.filter((l) => !l.project);
    return resolveSettings({ ...options, layers: own }).values[TRUST_SETTING].value;
  } catch {
    return "ask";
  }
}

const SECTIONS = new Set(SETTING_SECTIONS);

/**
 * The document with its settings left out, but for the `userOnly` ones, which
 * resolveSettings() ignores in a project's file with a warning of their own.
 */
function withoutSettings(document: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(document)) {
    if (!SECTIONS.has(key)) out[key] = value;
    else if (value !== null && typeof value === "object" && !Array.isArray(value)) {
      const kept = Object.entries(value).filter(([name]) =>
        USER_ONLY_SETTINGS.has(`${key}.${name}`)
      );
      if (kept.length) out[key] = Object.fromEntries(kept);
    }
  }
  return out;
}
