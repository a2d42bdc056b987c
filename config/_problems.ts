/**
 * Collecting configuration problems so one run reports all of them, and
 * formatting JSON paths (`mcpServers["chrome-devtools"].args[1]`). Private to config/.
 *
 * @module
 */

import { ConfigError } from "../core/errors.ts";

/** A JSON path as segments: object keys and array indexes. */
export type JsonPath = readonly (string | number)[];

/**
 * Formats a JSON path: plain keys joined with `.`, array indexes as `[n]`, other keys as
 * `["key"]`.
 *
 * @param path Segments, e.g. `["mcpServers", "fs", "args", 1]`.
 * @returns e.g. `mcpServers.fs.args[1]`.
 */
export function formatPath(path: JsonPath): string {
  let out = "";
  for (const segment of path) {
    if (typeof segment === "number") out += `[${segment}]`;
    else if (/^[A-Za-z_$][A-Za-z0-9_$-]*$/.test(segment)) out += out ? `.${segment}` : segment;
    else out += `[${JSON.stringify(segment)}]`;
  }
  return out;
}

/** The problems found in one file, in the order found. */
export class Problems {
  readonly file: string | null;
  readonly list: ConfigError[] = [];

  constructor(file: string | null) {
    this.file = file;
  }

  /** Records a problem at `path`; `message` says what is wrong, the value, and the fix. */
  add(path: JsonPath, message: string): void {
    this.list.push(new ConfigError(this.file, formatPath(path), message));
  }

  /**
   * Throws when anything was recorded: the single error itself, or one {@link ConfigError}
   * listing every problem one per line (its `cause` is an `AggregateError` of them all).
   */
  throwIfAny(): void {
    if (this.list.length === 0) return;
    if (this.list.length === 1) throw this.list[0];
    const lines = this.list.map((e) => `  ${e.path ? `${e.path}: ` : ""}${detail(e)}`);
    throw new ConfigError(
      this.file,
      "",
      `${this.list.length} problems:\n${lines.join("\n")}`,
      { cause: new AggregateError(this.list, `${this.list.length} configuration problems`) },
    );
  }
}

function detail(e: ConfigError): string {
  const prefix = `config ${e.file ?? "(none)"}${e.path ? `: ${e.path}` : ""}: `;
  return e.message.startsWith(prefix) ? e.message.slice(prefix.length) : e.message;
}
