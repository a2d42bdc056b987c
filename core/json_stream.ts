/**
 * JSON text of a large value without holding all of it at once: its exact
 * UTF-8 length computed by walking the value ({@link jsonByteLength}), and the
 * text itself as a stream of pieces ({@link jsonPieces}), long strings cut
 * into slices of {@link SLICE_CHARS}. The daemon answers a large tool result
 * this way (daemon/http.ts), so the answer costs a chunk of memory, not a
 * second and a third copy of the result (JSON text, then its bytes).
 *
 * Both follow `JSON.stringify` (ECMA-262, "JSON.stringify"): `toJSON` is
 * called, boxed primitives are unwrapped, `undefined`, functions and symbols
 * are left out of objects and are `null` in arrays, non-finite numbers are
 * `null`, lone surrogates are escaped as `\uXXXX`, a BigInt or a cycle throws
 * `TypeError`. No replacer and no indentation.
 *
 * @module
 */

/** Characters of a string turned into JSON text at a time: 64 Ki. */
export const SLICE_CHARS = 1 << 16;

/** The value `JSON.stringify` serialises for `holder[key]`: after `toJSON` and unboxing. */
function prepare(value: unknown, key: string): unknown {
  if (value !== null && typeof value === "object") {
    const toJSON = (value as { toJSON?: unknown }).toJSON;
    if (typeof toJSON === "function") value = toJSON.call(value, key);
  } else if (typeof value === "bigint") {
    const toJSON = (BigInt.prototype as { toJSON?: unknown }).toJSON;
    if (typeof toJSON === "function") value = toJSON.call(value, key);
  }
  if (value instanceof Number || value instanceof String || value instanceof Boolean) {
    return value.valueOf();
  }
  return value;
}

/** True for what `JSON.stringify` leaves out of an object (and writes as `null` in an array). */
const skipped = (v: unknown) => v === undefined || typeof v === "function" || typeof v === "symbol";

/** UTF-8 bytes of `text` as a JSON string literal, quotes included. */
function stringBytes(text: string): number {
  let bytes = 2;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0x20 && c < 0x7f) bytes += c === 0x22 || c === 0x5c ? 2 : 1;
    else if (c < 0x20) bytes += c === 8 || c === 9 || c === 10 || c === 12 || c === 13 ? 2 : 6;
    else if (c < 0x800) bytes += 2;
    else if (c >= 0xd800 && c <= 0xdbff) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        bytes += 4;
        i++;
      } else bytes += 6;
    } else if (c >= 0xdc00 && c <= 0xdfff) bytes += 6;
    else bytes += 3;
  }
  return bytes;
}

/**
 * The length in UTF-8 bytes of `JSON.stringify(value)`, computed without building the
 * text: linear in the value, allocating nothing in proportion to it.
 *
 * @param value Any value `JSON.stringify` accepts.
 * @returns The byte length; 0 when `JSON.stringify` would return undefined.
 * @throws {TypeError} For a BigInt or a cycle, as `JSON.stringify` does.
 * @example
 * ```ts
 * import { jsonByteLength } from "./json_stream.ts";
 * // {"a":"é","b":[null]}: 20 characters, and "é" is 2 bytes in UTF-8.
 * if (jsonByteLength({ a: "é", b: [undefined] }) !== 21) throw new Error();
 * ```
 */
export function jsonByteLength(value: unknown): number {
  const open = new Set<object>();
  const size = (v: unknown, key: string): number => {
    v = prepare(v, key);
    if (typeof v === "string") return stringBytes(v);
    if (v === null || typeof v !== "object") return skipped(v) ? 0 : JSON.stringify(v).length;
    if (open.has(v)) throw new TypeError("Converting circular structure to JSON");
    open.add(v);
    let bytes = 2;
    if (Array.isArray(v)) {
      v.forEach((item, i) => {
        const n = size(item, String(i));
        bytes += (i > 0 ? 1 : 0) + (n === 0 ? 4 : n);
      });
    } else {
      let first = true;
      for (const k of Object.keys(v)) {
        const n = size((v as Record<string, unknown>)[k], k);
        if (n === 0) continue;
        bytes += (first ? 0 : 1) + stringBytes(k) + 1 + n;
        first = false;
      }
    }
    open.delete(v);
    return bytes;
  };
  return size(value, "");
}

/**
 * `JSON.stringify(value)` as a sequence of pieces whose concatenation is that
 * text; a string longer than {@link SLICE_CHARS} comes in slices (never cut
 * between the two halves of a surrogate pair), so no piece is much longer.
 *
 * @param value Any value `JSON.stringify` accepts.
 * @returns A generator of text pieces; nothing when `JSON.stringify` would return undefined.
 * @throws {TypeError} For a BigInt or a cycle (while iterating), as `JSON.stringify` does.
 * @example
 * ```ts
 * import { jsonPieces } from "./json_stream.ts";
 * const value = { text: "x".repeat(200_000), n: [1, null] };
 * if ([...jsonPieces(value)].join("") !== JSON.stringify(value)) throw new Error();
 * ```
 */
export function* jsonPieces(value: unknown): Generator<string, void, undefined> {
  const open = new Set<object>();
  /** The pieces of `v`, already prepared (toJSON called, unboxed) and not skipped. */
  function* piece(v: unknown): Generator<string, void, undefined> {
    if (typeof v === "string") {
      if (v.length <= SLICE_CHARS) {
        yield JSON.stringify(v);
        return;
      }
      yield '"';
      for (let at = 0; at < v.length;) {
        let end = Math.min(at + SLICE_CHARS, v.length);
        const last = v.charCodeAt(end - 1);
        if (end < v.length && last >= 0xd800 && last <= 0xdbff) end--;
        yield JSON.stringify(v.slice(at, end)).slice(1, -1);
        at = end;
      }
      yield '"';
      return;
    }
    if (v === null || typeof v !== "object") {
      yield JSON.stringify(v);
      return;
    }
    if (open.has(v)) throw new TypeError("Converting circular structure to JSON");
    open.add(v);
    if (Array.isArray(v)) {
      yield "[";
      for (let i = 0; i < v.length; i++) {
        if (i > 0) yield ",";
        const item = prepare(v[i], String(i));
        if (skipped(item)) yield "null";
        else yield* piece(item);
      }
      yield "]";
    } else {
      yield "{";
      let first = true;
      for (const k of Object.keys(v)) {
        const item = prepare((v as Record<string, unknown>)[k], k);
        if (skipped(item)) continue;
        yield `${first ? "" : ","}${JSON.stringify(k)}:`;
        first = false;
        yield* piece(item);
      }
      yield "}";
    }
    open.delete(v);
  }
  const top = prepare(value, "");
  if (!skipped(top)) yield* piece(top);
}
