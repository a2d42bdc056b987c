/**
 * Records keyed by names that come from outside mcpx: tool names a server
 * lists, server names and namespaces a configuration declares, `toolTags`
 * keys, variable names in `${…}`, operation names in a request path. Any
 * string may be such a name, including `toString`, `constructor`,
 * `hasOwnProperty`, `valueOf` and `__proto__`, so a plain `record[name]`
 * is wrong twice over: reading a name the record lacks finds what
 * `Object.prototype` has under it (a function, where the caller expects a
 * list or undefined), and writing `__proto__` replaces the prototype instead
 * of storing an entry.
 *
 * Every such lookup goes through {@link own}, every such write through
 * {@link setOwn}, and every such record is made by {@link ownRecord} (no
 * prototype, so nothing is inherited even by code that indexes it directly).
 * A record read from JSON keeps its prototype (`JSON.parse` makes plain
 * objects), which is why lookups check `Object.hasOwn` rather than trusting
 * how the record was made.
 *
 * @module
 */

/**
 * The value `record` holds under `key` as its own property, or undefined:
 * never something inherited from `Object.prototype`.
 *
 * @param record The record (absent: undefined).
 * @param key Any string.
 * @returns `record[key]` when `record` has it as its own property.
 * @example
 * ```ts
 * import { own } from "./own.ts";
 * const tags: Record<string, string[]> = { echo: ["text"] };
 * if (own(tags, "toString") !== undefined || own(tags, "echo")?.[0] !== "text") throw new Error();
 * ```
 */
export function own<T>(
  record: Readonly<Record<string, T>> | null | undefined,
  key: string,
): T | undefined {
  return record != null && Object.hasOwn(record, key) ? record[key] : undefined;
}

/**
 * Stores `value` under `key` as an own, enumerable data property, even when
 * `key` is `__proto__` (which plain assignment would take as the prototype).
 *
 * @param record The record to change.
 * @param key Any string.
 * @param value The value.
 * @example
 * ```ts
 * import { setOwn } from "./own.ts";
 * const record: Record<string, number> = {};
 * setOwn(record, "__proto__", 1);
 * if (Object.getPrototypeOf(record) !== Object.prototype || JSON.stringify(record) !== '{"__proto__":1}') {
 *   throw new Error();
 * }
 * ```
 */
export function setOwn<T>(record: Record<string, T>, key: string, value: T): void {
  Object.defineProperty(record, key, {
    value,
    enumerable: true,
    writable: true,
    configurable: true,
  });
}

/**
 * A new record without a prototype, filled from `entries` (later entries win):
 * nothing is inherited, and `__proto__` is an ordinary key. `JSON.stringify`
 * writes it as any object.
 *
 * @param entries Initial `[key, value]` pairs.
 * @returns The record.
 * @example
 * ```ts
 * import { ownRecord } from "./own.ts";
 * const record = ownRecord([["constructor", 1]]);
 * if (record["constructor"] !== 1 || "toString" in record) throw new Error();
 * ```
 */
export function ownRecord<T>(entries: Iterable<readonly [string, T]> = []): Record<string, T> {
  const record = Object.create(null) as Record<string, T>;
  for (const [key, value] of entries) setOwn(record, key, value);
  return record;
}
