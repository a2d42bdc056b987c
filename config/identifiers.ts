/**
 * Turning server and tool names into valid JavaScript identifiers.
 *
 * Spec 000, and `mcpx help results` (docs/topics/results.md): `fancy-name` becomes `fancy_name`.
 *
 * @module
 */

const RESERVED = new Set(
  ("break case catch class const continue debugger default delete do else enum export extends " +
    "false finally for function if import in instanceof new null return super switch this throw " +
    "true try typeof var void while with yield let static implements interface package private " +
    "protected public await arguments eval").split(" "),
);

/**
 * Returns `name` as a valid identifier: every character outside
 * `[A-Za-z0-9_$]` becomes `_`, a leading digit or `$` gets a `_` prefix,
 * and a reserved word gets a `_` suffix. A name starting with `$` is the
 * generated client's own (`ns.$prompts`, `ns.$resources`; decision 0036), so
 * no tool's identifier starts with one.
 *
 * @param name A server or tool name, e.g. `chrome-devtools`, `2fa.check`.
 * @returns The identifier, e.g. `chrome_devtools`, `_2fa_check`.
 * @throws {RangeError} When `name` is empty.
 * @example
 * ```ts
 * import { toIdentifier } from "./identifiers.ts";
 * if (toIdentifier("chrome-devtools") !== "chrome_devtools") throw new Error();
 * ```
 */
export function toIdentifier(name: string): string {
  if (name.length === 0) throw new RangeError("an empty name cannot become an identifier");
  let id = name.replace(/[^A-Za-z0-9_$]/g, "_");
  if (/^[0-9$]/.test(id)) id = `_${id}`;
  if (RESERVED.has(id)) id = `${id}_`;
  return id;
}

/** True when `name` is already a valid, non-reserved identifier. */
export function isIdentifier(name: string): boolean {
  return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(name) && !RESERVED.has(name);
}

/**
 * Whether `name` is a plain server name: letters, digits, `_` and `-`, not
 * starting with a digit or `-`. Any non-empty key of `mcpServers` is a
 * server's name; this is the form mcpx asks for where it writes or declares
 * one (`registry add --as`, an adapter's or API's `name`), whose namespace is
 * the name with `-` made `_` ({@link toIdentifier}).
 *
 * @example
 * ```ts
 * import { isPlainServerName } from "./identifiers.ts";
 * if (!isPlainServerName("my-weather") || isPlainServerName("1x")) throw new Error();
 * ```
 */
export function isPlainServerName(name: string): boolean {
  return /^[A-Za-z_][A-Za-z0-9_-]*$/.test(name);
}
