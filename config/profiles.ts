/**
 * Profiles: which configured servers a command sees. A server is in the
 * default set unless its block says `"default": false` (or the top-level
 * `pool.default` flips the baseline); `--profile <name>` adds the servers of
 * that profile, `--skip-default` leaves the default set out, and
 * `--all-profiles` shows every server.
 *
 * Source: spec 000, "Profiles and aliases".
 *
 * @module
 */

import { UsageError } from "../core/errors.ts";
import type { ServerSpec } from "./types.ts";

/** What a command was asked to see. */
export interface ProfileSelection {
  /** Profiles whose servers join the selection (`--profile`, repeatable or comma-separated). */
  profiles: string[];
  /** Leave the default set out, so only the named profiles' servers remain (`--skip-default`). */
  skipDefault: boolean;
  /** Every server, whatever its profiles (`--all-profiles`). */
  all: boolean;
}

/** The selection when nothing is asked for: the default set. */
export const DEFAULT_SELECTION: Readonly<ProfileSelection> = {
  profiles: [],
  skipDefault: false,
  all: false,
};

/**
 * Splits profile names written as a comma-separated list (`web,db`); blanks
 * and repeats are dropped.
 *
 * @param text e.g. `"web, db"`.
 * @returns e.g. `["web", "db"]`.
 * @example
 * ```ts
 * import { parseProfileList } from "./profiles.ts";
 * if (parseProfileList("web, db,,web").join() !== "web,db") throw new Error();
 * ```
 */
export function parseProfileList(text: string): string[] {
  return [...new Set(text.split(",").map((p) => p.trim()).filter((p) => p !== ""))];
}

/**
 * The selection the resolved settings ask for: `profiles.active` (from
 * `--profile`, `MCPX_PROFILES_ACTIVE` or a file), `profiles.skipDefault` and
 * `profiles.all`.
 *
 * @param values Resolved settings by dotted name (config/settings.ts `resolveSettings()`).
 * @returns The selection.
 * @example
 * ```ts
 * import { selectionFromSettings } from "./profiles.ts";
 * const s = selectionFromSettings({ "profiles.active": { value: "web,db" } });
 * if (s.profiles.length !== 2 || s.all) throw new Error();
 * ```
 */
export function selectionFromSettings(
  values: Record<string, { value: unknown } | undefined>,
): ProfileSelection {
  return {
    profiles: parseProfileList(String(values["profiles.active"]?.value ?? "")),
    skipDefault: values["profiles.skipDefault"]?.value === true,
    all: values["profiles.all"]?.value === true,
  };
}

/**
 * Reads the profile selection a caller sent the daemon (the `selection` field
 * of a request, ops/daemon_ops.ts): `{ profiles: string[], skipDefault?,
 * all? }`. The daemon applies it to every call, so a namespace outside it is
 * refused whichever path the call took (issue 9, "Nobody else gets in").
 *
 * @param value The field as sent; `undefined` when the caller sent none.
 * @returns The selection, or `undefined` when none was sent (the daemon then
 *   applies {@link DEFAULT_SELECTION}: the default set, never more).
 * @throws {UsageError} When the field has the wrong shape, naming the part and the value.
 * @example
 * ```ts
 * import { selectionFromWire } from "./profiles.ts";
 * const s = selectionFromWire({ profiles: ["web"], skipDefault: true });
 * if (!s?.skipDefault || s.all || s.profiles[0] !== "web") throw new Error();
 * if (selectionFromWire(undefined) !== undefined) throw new Error();
 * ```
 */
export function selectionFromWire(value: unknown): ProfileSelection | undefined {
  if (value === undefined || value === null) return undefined;
  const bad = (part: string, expected: string, got: unknown) =>
    new UsageError(`"selection${part}" must be ${expected}, got ${JSON.stringify(got)}`);
  if (typeof value !== "object" || Array.isArray(value)) {
    throw bad("", "an object { profiles, skipDefault, all }", value);
  }
  const { profiles = [], skipDefault = false, all = false } = value as Record<string, unknown>;
  if (!Array.isArray(profiles) || profiles.some((p) => typeof p !== "string")) {
    throw bad(".profiles", "an array of profile names", profiles);
  }
  if (typeof skipDefault !== "boolean") throw bad(".skipDefault", "true or false", skipDefault);
  if (typeof all !== "boolean") throw bad(".all", "true or false", all);
  return { profiles: parseProfileList(profiles.join(",")), skipDefault, all };
}

/**
 * A stable key for a selection (the same selection in another order or with
 * repeats gives the same key), for caching what it shows.
 *
 * @example
 * ```ts
 * import { selectionKey } from "./profiles.ts";
 * const a = selectionKey({ profiles: ["web", "db"], skipDefault: false, all: false });
 * if (a !== selectionKey({ profiles: ["db", "web", "db"], skipDefault: false, all: false })) {
 *   throw new Error();
 * }
 * ```
 */
export function selectionKey(selection: ProfileSelection): string {
  return JSON.stringify([
    [...new Set(selection.profiles)].sort(),
    selection.skipDefault,
    selection.all,
  ]);
}

/** Every profile name the servers mention, sorted. */
export function knownProfiles(servers: Pick<ServerSpec, "profiles">[]): string[] {
  return [...new Set(servers.flatMap((s) => s.profiles ?? []))].sort();
}

/**
 * Whether a server is in the selection. A compiled configuration of an older
 * mcpx may lack `profiles` and `default`: absent means none and true.
 *
 * @param server A configured server.
 * @param selection What was asked for.
 * @returns True when commands should see it.
 */
export function isSelected(
  server: Pick<ServerSpec, "profiles" | "default">,
  selection: ProfileSelection,
): boolean {
  if (selection.all) return true;
  if (!selection.skipDefault && server.default !== false) return true;
  return (server.profiles ?? []).some((p) => selection.profiles.includes(p));
}

/**
 * Checks a selection against the configuration.
 *
 * @param servers The configured servers.
 * @param selection What was asked for.
 * @throws {UsageError} When a named profile is on no server (the message lists
 *   the known ones), or `skipDefault` is set without a profile.
 * @example
 * ```ts
 * import { checkSelection } from "./profiles.ts";
 * checkSelection([{ profiles: ["web"] }], { profiles: ["web"], skipDefault: true, all: false });
 * ```
 */
export function checkSelection(
  servers: Pick<ServerSpec, "profiles">[],
  selection: ProfileSelection,
): void {
  const known = knownProfiles(servers);
  const listed = known.length
    ? `the configuration's profiles are ${known.map((p) => `"${p}"`).join(", ")}`
    : `no server has "profiles" in its mcpx block`;
  const unknown = selection.profiles.filter((p) => !known.includes(p));
  if (unknown.length) {
    throw new UsageError(
      `unknown profile${unknown.length > 1 ? "s" : ""} ${
        unknown.map((p) => `"${p}"`).join(", ")
      }: ${listed}`,
    );
  }
  if (selection.skipDefault && !selection.all && selection.profiles.length === 0) {
    throw new UsageError(
      `--skip-default leaves only the servers of the profiles named with --profile, and none ` +
        `is named; add --profile <name> (${listed})`,
    );
  }
}

/**
 * Why a server is outside the selection and what brings it in, one clause.
 *
 * @param server The server that is not selected.
 * @returns e.g. `it is in profile "web": add --profile web (or --all-profiles)`.
 */
export function howToSelect(server: Pick<ServerSpec, "profiles" | "default">): string {
  const profiles = server.profiles ?? [];
  const add = profiles.length
    ? `add --profile ${profiles[0]} (or --all-profiles)`
    : "add --all-profiles";
  const where = profiles.length
    ? `it is in profile${profiles.length > 1 ? "s" : ""} ${
      profiles.map((p) => `"${p}"`).join(", ")
    }`
    : "it is in no profile";
  return server.default === false
    ? `${where} and not in the default set: ${add}`
    : `${where} and in the default set, which --skip-default leaves out: drop --skip-default or ${add}`;
}
