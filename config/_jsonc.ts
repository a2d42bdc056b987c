/**
 * JSONC (comments, trailing commas) parsing for configuration files, with
 * syntax errors located as `file:line:column` and duplicate keys found.
 * Private to config/.
 *
 * Source: spec 000, "Configuration" ("JSONC comments are stripped, string-literal aware").
 *
 * @module
 */

import type { ParseErrorCode } from "jsonc-parser";
import { ConfigError } from "../core/errors.ts";
import type { JsonPath } from "./_problems.ts";
import { LineIndex } from "./_line_index.ts";

// Loaded when this module is (its importers import it lazily), not as a static import: the CLI's
// bundle (cli/mcpx.bundle.js, decision 0027) holds this module, and a static import of an npm
// package anywhere in it would become one at the bundle's top, resolved at every start.
const { printParseErrorCode, visit } = await import("jsonc-parser");

/** A key written twice in one object. */
export interface DuplicateKey {
  /** Path of the object holding the key. */
  path: JsonPath;
  key: string;
  /** 1-based lines of the first and the repeated occurrence. */
  lines: [number, number];
}

/**
 * What locating positions cost one or more parses, added up: for tests that hold parsing
 * linear without timing it.
 */
export interface JsoncWork {
  /** Characters read to build line tables (one table per parse that needed a position). */
  scanned: number;
  /** Offsets located. */
  lookups: number;
  /** Binary-search steps of those lookups. */
  steps: number;
}

/** The parsed document. */
export interface ParsedJsonc {
  /** Plain objects and arrays (ordinary prototypes); the last of duplicate keys wins. */
  value: unknown;
  duplicates: DuplicateKey[];
}

const HINTS: Record<string, string> = {
  InvalidSymbol: "an unexpected character; keys and strings need double quotes",
  InvalidNumberFormat: "a malformed number",
  PropertyNameExpected: "a key in double quotes was expected",
  ValueExpected: "a value was expected",
  ColonExpected: "a `:` was expected after the key",
  CommaExpected: "a `,` is missing between entries",
  CloseBraceExpected: "a `}` is missing",
  CloseBracketExpected: "a `]` is missing",
  EndOfFileExpected: "text continues after the document ended",
  InvalidCommentToken: "a malformed comment",
  UnexpectedEndOfComment: "a `/*` comment is not closed",
  UnexpectedEndOfString: "a string is not closed",
  UnexpectedEndOfNumber: "a number is cut short",
  InvalidUnicode: "a malformed \\u escape",
  InvalidEscapeCharacter: "an invalid escape in a string",
  InvalidCharacter: "a control character inside a string",
};

/**
 * Parses JSONC text in time linear in its length. Values are built as the
 * parser reads (jsonc-parser's `visit`, no syntax tree in between); a line
 * number is computed only for a syntax error or a duplicate key, from one
 * table of line starts (config/_line_index.ts), and a key's JSON path only for
 * a duplicate.
 *
 * @param text The file's text.
 * @param file The file, for messages (null → `<input>`).
 * @param work When given, what locating positions cost is added to it.
 * @returns `{ value, duplicates }`; `value` is undefined when the text holds no value.
 * @throws {ConfigError} On the first syntax error, naming `file:line:column`, the parser's
 *   error name, and what it means.
 */
export function parseJsonc(text: string, file: string | null, work?: JsoncWork): ParsedJsonc {
  let index: LineIndex | undefined;
  const locate = (offset: number) => {
    index ??= new LineIndex(text);
    const before = index.steps;
    const at = index.locate(offset);
    if (work) {
      work.lookups++;
      work.steps += index.steps - before;
    }
    return at;
  };
  try {
    const built = build(text);
    if (built.error) {
      const name = printParseErrorCode(built.error.code);
      const { line, column } = locate(built.error.offset);
      throw new ConfigError(
        file,
        "",
        `JSON syntax error at ${file ?? "<input>"}:${line}:${column}: ${name} (${
          HINTS[name] ?? "invalid JSON"
        }); fix the text there (comments and trailing commas are allowed)`,
      );
    }
    const duplicates = built.repeats.map(({ path, key, offsets }): DuplicateKey => ({
      path,
      key,
      lines: [locate(offsets[0]).line, locate(offsets[1]).line],
    }));
    return { value: built.value, duplicates };
  } finally {
    if (work && index) work.scanned += index.scanned;
  }
}

/** An object or array being filled, with its place in its parent. */
interface Frame {
  container: Record<string, unknown> | unknown[];
  /** Its key or index in the parent; unused for the top level. */
  segment: string | number;
  /** An object's keys so far, each with the offset where it was first written. */
  seen?: Map<string, number>;
}

/** A key written twice, before its lines are known. */
interface Repeat {
  path: JsonPath;
  key: string;
  /** UTF-16 offsets of the first and the repeated key. */
  offsets: [number, number];
}

/**
 * Builds the value of `text` in one pass, collecting repeated keys; stops at the first
 * syntax error (its code and offset).
 */
function build(
  text: string,
): { value: unknown; repeats: Repeat[]; error?: { code: ParseErrorCode; offset: number } } {
  const stack: Frame[] = [];
  const repeats: Repeat[] = [];
  let value: unknown;
  let key = "";
  let keyOffset = 0;
  let error: { code: ParseErrorCode; offset: number } | undefined;
  /** Places `item` in the innermost container (or as the document) and returns its segment. */
  const put = (item: unknown): string | number => {
    const top = stack.at(-1);
    if (!top) {
      value = item;
      return "";
    }
    if (Array.isArray(top.container)) return top.container.push(item) - 1;
    const earlier = top.seen!.get(key);
    if (earlier !== undefined) {
      const path = stack.slice(1).map((frame) => frame.segment);
      repeats.push({ path, key, offsets: [earlier, keyOffset] });
    } else top.seen!.set(key, keyOffset);
    const object = top.container as Record<string, unknown>;
    // A key named __proto__ is an ordinary property, as JSON.parse makes it (not the setter).
    if (key === "__proto__") {
      Object.defineProperty(object, key, {
        value: item,
        enumerable: true,
        writable: true,
        configurable: true,
      });
    } else object[key] = item;
    return key;
  };
  visit(text, {
    onObjectBegin() {
      if (error) return;
      const container = {};
      stack.push({ container, segment: put(container), seen: new Map() });
    },
    onObjectProperty(property, offset) {
      key = property;
      keyOffset = offset;
    },
    onObjectEnd() {
      stack.pop();
    },
    onArrayBegin() {
      if (error) return;
      const container: unknown[] = [];
      stack.push({ container, segment: put(container) });
    },
    onArrayEnd() {
      stack.pop();
    },
    onLiteralValue(literal) {
      if (!error) put(literal);
    },
    onError(code, offset) {
      error ??= { code, offset };
    },
  }, { allowTrailingComma: true, disallowComments: false, allowEmptyContent: true });
  return { value, repeats, ...(error ? { error } : {}) };
}
