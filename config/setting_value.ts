/**
 * What one setting is and how its values are read: the declaration's shape,
 * the accepted form of each type in words, and the validator every value goes
 * through (defaults included, so a default cannot be invalid). Pure.
 *
 * Source: spec 000, "One declaration per setting", "Search paths" (lists with
 * a null splice point).
 *
 * @module
 */

import { isAbsolute, join, resolve } from "../core/posix_path.ts";
import {
  DURATION_FORMS,
  DurationError,
  durationLimit,
  MAX_DURATION_MS,
  parseDuration,
} from "./duration.ts";

/** The value kinds a setting may hold. */
export type SettingType = "int" | "string" | "bool" | "duration" | "enum" | "path" | "paths";

/**
 * A typed setting value: ints and durations (ms) are numbers, bools booleans, the rest strings
 * (a `paths` list is its absolute entries joined with `:`, an empty entry standing for the
 * built-in places: {@link parsePathList} reads it back).
 */
export type SettingValue = number | string | boolean;

/** One declared knob. */
export interface SettingDeclaration {
  /** Dotted name, `section.key`, e.g. `catalog.budget`. */
  name: string;
  type: SettingType;
  /** The default exactly as a user would type it (`"4h"`, `"2000"`, `"false"`). */
  default: string;
  /** The accepted values of an `enum`. */
  values?: readonly string[];
  /** The least an `int` may be. */
  min?: number;
  /**
   * The longest a `duration` may be, in ms: default `MAX_DURATION_MS` (24 days, the timer
   * limit); `Infinity` for one no timer waits on.
   */
  maxMs?: number;
  /** The shortest a `duration` may be, in ms (`tasks.ttl`: 1, so never 0); default 0. */
  minMs?: number;
  /** One line for help and `mcpx config --schema`. */
  help: string;
  /** Internal switch: hidden from ordinary help, schema and completion (spec "Plumbing"). */
  plumbing?: boolean;
  /** An extra flag spelling besides the generated one, e.g. `-n` or `--json`. */
  flag?: string;
  /** Older environment spellings read at the same level as the generated one. */
  envAliases?: readonly string[];
  /**
   * Read from the environment, flags and the user's own configuration files
   * only: a project's file (config/discover.ts `ConfigOrigin`) cannot set it,
   * since a cloned repository would then decide it (decision 0018).
   */
  userOnly?: boolean;
  /** A credential: `mcpx config` shows whether it is set, never its value. */
  secret?: boolean;
}

/**
 * How a setting's accepted form is described in errors and the schema.
 *
 * @param decl The declaration.
 * @returns e.g. `a whole number ≥ 0`, `one of "text", "json"`.
 */
export function acceptedForm(decl: SettingDeclaration): string {
  switch (decl.type) {
    case "int":
      return decl.min === undefined ? "a whole number" : `a whole number ≥ ${decl.min}`;
    case "bool":
      return "true or false";
    case "duration": {
      const least = decl.minMs ? `, at least ${decl.minMs} ms` : "";
      return Number.isFinite(decl.maxMs ?? MAX_DURATION_MS)
        ? `${DURATION_FORMS}${least}, at most ${durationLimit(decl.maxMs)}`
        : `${DURATION_FORMS}${least}`;
    }
    case "enum":
      return `one of ${(decl.values ?? []).map((v) => JSON.stringify(v)).join(", ")}`;
    case "path":
      return "a file system path (empty for the built-in location)";
    case "paths":
      return "a list of paths (null for the built-in places), or in the environment and on the " +
        "command line one string of paths separated by ':' (an empty entry for the built-in places)";
    case "string":
      return "a string";
  }
}

/** Options for {@link parseSettingValue}. */
export interface ParseSettingOptions {
  /** Directory a relative `path` resolves against (a file's directory, or the cwd). */
  baseDir?: string;
  /** `HOME`, for a leading `~/` in a `path`. */
  home?: string;
}

/**
 * Validates and converts one value of a setting. Strings (defaults, variables, flags) are
 * parsed; JSON values from a file may also be numbers and booleans of the right type.
 *
 * @param decl The declaration.
 * @param raw The value as written.
 * @param options Where relative paths resolve.
 * @returns The typed value: int → number, duration → ms, bool → boolean, else string
 *   (a non-empty path is absolute).
 * @throws {RangeError} When `raw` is not of the accepted form; the message says what is
 *   accepted, and the caller adds the setting, the source and the value.
 * @example
 * ```ts
 * import { parseSettingValue } from "./setting_value.ts";
 * const decl = { name: "x.y", type: "duration", default: "0", help: "" } as const;
 * if (parseSettingValue(decl, "5m") !== 300_000) throw new Error();
 * ```
 */
export function parseSettingValue(
  decl: SettingDeclaration,
  raw: unknown,
  options: ParseSettingOptions = {},
): SettingValue {
  const fail = (): never => {
    throw new RangeError(`must be ${acceptedForm(decl)}`);
  };
  switch (decl.type) {
    case "int": {
      const n = typeof raw === "number"
        ? raw
        : typeof raw === "string" && /^\s*-?\d+\s*$/.test(raw)
        ? Number(raw)
        : NaN;
      if (!Number.isSafeInteger(n) || (decl.min !== undefined && n < decl.min)) fail();
      return n;
    }
    case "bool": {
      if (typeof raw === "boolean") return raw;
      const text = typeof raw === "string" ? raw.trim().toLowerCase() : "";
      if (["true", "1", "yes", "on"].includes(text)) return true;
      if (["false", "0", "no", "off"].includes(text)) return false;
      return fail();
    }
    case "duration": {
      let ms: number;
      try {
        ms = parseDuration(raw, { maxMs: decl.maxMs });
      } catch (error) {
        // The format's problem or the limit's, never both (config/duration.ts).
        if (error instanceof DurationError) throw new RangeError(`must be ${error.requirement}`);
        return fail();
      }
      if (ms < (decl.minMs ?? 0)) throw new RangeError(`must be ${acceptedForm(decl)}`);
      return ms;
    }
    case "enum":
      if (typeof raw !== "string" || !(decl.values ?? []).includes(raw)) fail();
      return raw as string;
    case "path": {
      if (typeof raw !== "string") return fail();
      if (raw === "") return "";
      const home = options.home;
      const expanded = home && (raw === "~" || raw.startsWith("~/"))
        ? join(home, raw.slice(1))
        : raw;
      return isAbsolute(expanded) ? expanded : resolve(options.baseDir ?? Deno.cwd(), expanded);
    }
    case "paths":
      return joinPathList(readPathList(raw, options));
    case "string":
      if (typeof raw !== "string") fail();
      return raw as string;
  }
}

/**
 * The entries of a `paths` value as written: a JSON array of strings and nulls, or a string
 * separated by `:` where an empty entry stands for null. Each path is made absolute against
 * `baseDir` (`~/` is the home directory).
 *
 * @throws {RangeError} For anything else, an empty array (which would search nowhere), or a
 *   path containing `:` in an array.
 */
function readPathList(raw: unknown, options: ParseSettingOptions): (string | null)[] {
  const { home, baseDir } = options;
  const absolute = (entry: string): string => {
    const expanded = home && (entry === "~" || entry.startsWith("~/"))
      ? join(home, entry.slice(1))
      : entry;
    return isAbsolute(expanded) ? expanded : resolve(baseDir ?? Deno.cwd(), expanded);
  };
  if (typeof raw === "string") {
    if (raw === "") return [null];
    return raw.split(":").map((entry) => entry.trim() === "" ? null : absolute(entry));
  }
  if (!Array.isArray(raw) || raw.some((e) => e !== null && typeof e !== "string")) {
    throw new RangeError(`must be ${acceptedForm({ type: "paths" } as SettingDeclaration)}`);
  }
  if (raw.length === 0) {
    throw new RangeError(
      "must name at least one place: an empty list would search nowhere; write [null] for the " +
        "built-in places",
    );
  }
  return raw.map((entry: string | null) => {
    if (entry === null || entry === "") return null;
    if (entry.includes(":")) {
      throw new RangeError(`must not contain ':' in an entry (the list separator), got "${entry}"`);
    }
    return absolute(entry);
  });
}

function joinPathList(entries: (string | null)[]): string {
  return entries.length === 1 && entries[0] === null ? "" : entries.map((e) => e ?? "").join(":");
}

/**
 * The entries of a resolved `paths` setting, nearest first, `null` where the built-in places
 * go. The default (`""`) is `[null]`: the built-in places alone.
 *
 * @param value The setting's resolved value (config/settings.ts `settingValue()`).
 * @returns Absolute paths and nulls.
 * @example
 * ```ts
 * import { parsePathList } from "./setting_value.ts";
 * const list = parsePathList("/mine:");
 * if (list[0] !== "/mine" || list[1] !== null) throw new Error();
 * ```
 */
export function parsePathList(value: string): (string | null)[] {
  if (value === "") return [null];
  return value.split(":").map((entry) => entry === "" ? null : entry);
}
