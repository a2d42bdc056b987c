/**
 * JSONC (comments, trailing commas) parsing for configuration files, with
 * syntax errors located as `file:line:column` and duplicate keys found.
 * Private to config/.
 *
 * Source: spec 000, "Configuration" ("JSONC comments are stripped, string-literal aware").
 *
 * @module
 */

import { type Node, type ParseError, parseTree, printParseErrorCode } from "jsonc-parser";
import { ConfigError } from "../errors.ts";
import type { JsonPath } from "./_problems.ts";

/** A key written twice in one object. */
export interface DuplicateKey {
  /** Path of the object holding the key. */
  path: JsonPath;
  key: string;
  /** 1-based lines of the first and the repeated occurrence. */
  lines: [number, number];
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
 * Parses JSONC text.
 *
 * @param text The file's text.
 * @param file The file, for messages (null → `<input>`).
 * @returns `{ value, duplicates }`; `value` is undefined when the text holds no value.
 * @throws {ConfigError} On the first syntax error, naming `file:line:column`, the parser's
 *   error name, and what it means.
 */
export function parseJsonc(text: string, file: string | null): ParsedJsonc {
  const errors: ParseError[] = [];
  const tree = parseTree(text, errors, {
    allowTrailingComma: true,
    disallowComments: false,
    allowEmptyContent: true,
  });
  if (errors.length > 0) {
    const first = errors[0];
    const name = printParseErrorCode(first.error);
    const [line, column] = lineColumn(text, first.offset);
    throw new ConfigError(
      file,
      "",
      `JSON syntax error at ${file ?? "<input>"}:${line}:${column}: ${name} (${
        HINTS[name] ?? "invalid JSON"
      }); fix the text there (comments and trailing commas are allowed)`,
    );
  }
  const duplicates: DuplicateKey[] = [];
  const value = tree ? toValue(tree, [], text, duplicates) : undefined;
  return { value, duplicates };
}

function toValue(node: Node, path: JsonPath, text: string, dups: DuplicateKey[]): unknown {
  switch (node.type) {
    case "object": {
      const out: Record<string, unknown> = {};
      const seen = new Map<string, number>();
      for (const prop of node.children ?? []) {
        const [keyNode, valueNode] = prop.children ?? [];
        if (!keyNode) continue;
        const key = String(keyNode.value);
        const line = lineColumn(text, keyNode.offset)[0];
        const earlier = seen.get(key);
        if (earlier !== undefined) dups.push({ path, key, lines: [earlier, line] });
        else seen.set(key, line);
        const value = valueNode ? toValue(valueNode, [...path, key], text, dups) : null;
        Object.defineProperty(out, key, {
          value,
          enumerable: true,
          writable: true,
          configurable: true,
        });
      }
      return out;
    }
    case "array":
      return (node.children ?? []).map((child, i) => toValue(child, [...path, i], text, dups));
    default:
      return node.value;
  }
}

/** 1-based line and column (UTF-16 units) of `offset` in `text`. */
function lineColumn(text: string, offset: number): [number, number] {
  let line = 1;
  let start = 0;
  for (let i = 0; i < offset && i < text.length; i++) {
    if (text[i] === "\n") {
      line++;
      start = i + 1;
    }
  }
  return [line, offset - start + 1];
}
