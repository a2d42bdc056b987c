/**
 * The names `serve --passthrough` lists an upstream's tools under, for
 * clients that accept only `^[A-Za-z0-9_-]{1,64}$` (several hosts and model
 * APIs refuse any other tool name; MCP itself allows `.` and `/`). A name
 * that already fits is listed as it is; another is mapped deterministically
 * ({@link strictName}), and a call by the listed name reaches the upstream's
 * tool by its own name. Two upstream names that map to one listed name: the
 * first (in the upstream's order) keeps it, the later one is hidden with a
 * warning naming both, at start and after every relisting.
 *
 * @module
 */

import { fnv1a64 } from "../../core/fnv1a64.ts";

/** What strict clients accept as a tool name. */
export const STRICT_NAME = /^[A-Za-z0-9_-]{1,64}$/;

/** The longest strict name. */
const MAX = 64;

/**
 * The listed name of upstream tool `name`: itself when it fits
 * {@link STRICT_NAME}; else every other character replaced by `_`, and when
 * that is over 64 characters its first 55 plus `_` and 8 hex digits of the
 * original name's hash (FNV-1a, 64-bit), so two long names that share a
 * beginning stay apart.
 *
 * @example
 * ```ts
 * import { strictName } from "./passthrough_names.ts";
 * if (strictName("a.b") !== "a_b") throw new Error();
 * if (strictName("ok_name-1") !== "ok_name-1") throw new Error();
 * const long = strictName("x".repeat(70));
 * if (long.length !== 64 || !/^x{55}_[0-9a-f]{8}$/.test(long)) throw new Error(long);
 * ```
 */
export function strictName(name: string): string {
  if (STRICT_NAME.test(name)) return name;
  const replaced = name.replace(/[^A-Za-z0-9_-]/g, "_") || "_";
  if (replaced.length <= MAX) return replaced;
  return `${replaced.slice(0, MAX - 9)}_${fnv1a64(name).slice(0, 8)}`;
}

/** One relisting's names: listed → upstream, and the upstream names hidden by a collision. */
export interface NameMap {
  /** Listed name → the upstream tool's own name, in the upstream's order. */
  listed: Map<string, string>;
  /** Each hidden tool's warning: it and the tool that keeps the name. */
  hidden: string[];
}

/**
 * Maps one listing's tool names ({@link strictName}), the earlier tool
 * keeping a name two would share.
 *
 * @example
 * ```ts
 * import { mapNames } from "./passthrough_names.ts";
 * const { listed, hidden } = mapNames(["a_b", "a.b", "c/d"]);
 * if (listed.get("a_b") !== "a_b" || listed.get("c_d") !== "c/d") throw new Error();
 * if (!/"a\.b".*"a_b"/.test(hidden[0])) throw new Error(hidden[0]);
 * ```
 */
export function mapNames(names: readonly string[]): NameMap {
  const listed = new Map<string, string>();
  const hidden: string[] = [];
  for (const name of names) {
    const strict = strictName(name);
    const holder = listed.get(strict);
    if (holder === undefined) listed.set(strict, name);
    else if (holder !== name) {
      hidden.push(
        `tool "${name}" is not listed: a strict client's name for it, "${strict}", is ` +
          `already "${holder}"'s; it stays callable by its own name`,
      );
    }
  }
  return { listed, hidden };
}
