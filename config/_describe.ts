/**
 * How a bad value is shown in an error message: JSON-encoded and truncated, so
 * `42` and `"42"` read differently and a pasted blob cannot flood a terminal.
 * Private to config/.
 *
 * @module
 */

/**
 * JSON-encodes `value` for a message, truncated to `max` characters with `…`.
 *
 * @param value Anything; `undefined` is shown as `undefined`.
 * @param max Longest result, in characters (default 60).
 * @returns e.g. `42`, `"npx"`, `{"a":1,…`.
 */
export function describeValue(value: unknown, max = 60): string {
  let text: string;
  try {
    text = value === undefined ? "undefined" : JSON.stringify(value) ?? String(value);
  } catch {
    text = String(value);
  }
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
