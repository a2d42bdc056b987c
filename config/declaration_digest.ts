/**
 * What a project's declaration files say, as one value trust can hash. A
 * project's `paths.adapters` or `paths.apis` names files that decide which
 * programs run and where an API's requests (with their credentials) go; once
 * the project is trusted, an edit to one of them must ask again, as an edit
 * to a server's command does (decision 0018, decision 0052).
 *
 * The value covers every declaration file the project's settings name (its
 * bytes' SHA-256) and every local document an item's `spec` names. A place
 * that cannot be read is recorded as such, so creating it later also asks
 * again.
 *
 * @module
 */

import { dirname, isAbsolute, resolve } from "../core/posix_path.ts";
import { declarationFiles, DERIVED_KINDS, type DerivedKind } from "./derived_servers.ts";
import { parsePathList, parseSettingValue } from "./setting_value.ts";
import { PATH_SETTINGS } from "./settings_paths.ts";
import { sha256Hex } from "../core/sha256.ts";

/**
 * Digests of the declaration files a project's settings name.
 *
 * @param settings The project's settings as written (config/trust.ts `projectSettings()`).
 * @param file The configuration file, whose directory a relative place resolves against.
 * @param home The home directory (`~/` in a place).
 * @returns Absolute file path → SHA-256 hex of its bytes, or `unreadable: <why>`; `{}` when
 *   the settings name no declarations.
 * @example
 * ```ts
 * import { declarationDigests } from "./declaration_digest.ts";
 * const none = await declarationDigests({ logging: { level: "info" } }, "/p/.mcp.json");
 * if (Object.keys(none).length !== 0) throw new Error();
 * ```
 */
export async function declarationDigests(
  settings: Record<string, unknown>,
  file: string,
  home?: string,
): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const found of declarationPlaces(settings, file, home)) {
    const { kind } = found;
    if ("problem" in found) {
      out[found.label] = `unreadable: ${found.problem}`;
      continue;
    }
    for (const declaration of found.files) {
      const bytes = await digestOf(declaration);
      out[declaration] = bytes;
      for (const spec of await localSpecs(declaration, kind.kind)) {
        out[spec] = await digestOf(spec);
      }
    }
  }
  return out;
}

/** The declaration files one kind's setting names, or why they cannot be found. */
export type KindPlaces =
  | { kind: DerivedKind; files: string[] }
  | { kind: DerivedKind; label: string; problem: string };

/**
 * The declaration files a project's own settings name, kind by kind (only the
 * kinds its `paths` section sets), resolved against the file's directory as
 * the project's settings are: what trust hashes and what `mcpx trust` shows.
 *
 * @param settings The project's settings as written (config/trust.ts `projectSettings()`).
 * @param file The configuration file.
 * @param home The home directory (`~/` in a place).
 * @returns One row per kind set; a place that is missing or malformed is a row with `problem`
 *   (and a `label` naming the setting and what it said).
 */
export function declarationPlaces(
  settings: Record<string, unknown>,
  file: string,
  home?: string,
): KindPlaces[] {
  const paths = settings.paths;
  if (typeof paths !== "object" || paths === null) return [];
  const out: KindPlaces[] = [];
  for (const kind of DERIVED_KINDS) {
    const raw = (paths as Record<string, unknown>)[kind.setting.slice("paths.".length)];
    if (raw === undefined) continue;
    let places: (string | null)[];
    try {
      const decl = PATH_SETTINGS.find((d) => d.name === kind.setting)!;
      const value = parseSettingValue(decl, raw, { baseDir: dirname(file), home });
      places = parsePathList(String(value));
    } catch (error) {
      out.push({ kind, label: `${kind.setting} as written`, problem: (error as Error).message });
      continue;
    }
    try {
      out.push({ kind, files: declarationFiles(places, kind.setting) });
    } catch (error) {
      out.push({
        kind,
        label: `${kind.setting}: ${places.join(":")}`,
        problem: (error as Error).message,
      });
    }
  }
  return out;
}

/** SHA-256 hex of a file's bytes, or why it cannot be read. */
async function digestOf(path: string): Promise<string> {
  try {
    const bytes = await Deno.readFile(path);
    return await sha256Hex(new TextDecoder().decode(bytes));
  } catch (error) {
    return `unreadable: ${(error as Error).name}`;
  }
}

/** Local documents an API declaration file's items name in `spec` (URLs excluded). */
async function localSpecs(declaration: string, kind: string): Promise<string[]> {
  if (kind !== "apis") return [];
  let value: unknown;
  try {
    const { parseJsonc } = await import("./_jsonc.ts");
    value = parseJsonc(Deno.readTextFileSync(declaration), declaration).value;
  } catch {
    return [];
  }
  const list = (value as Record<string, unknown> | null)?.[kind];
  if (!Array.isArray(list)) return [];
  return list.flatMap((item) => {
    const spec = (item as Record<string, unknown> | null)?.spec;
    if (typeof spec !== "string" || /^[a-z][a-z0-9+.-]*:\/\//i.test(spec)) return [];
    return [isAbsolute(spec) ? spec : resolve(dirname(declaration), spec)];
  });
}
