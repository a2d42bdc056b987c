/**
 * Text made safe to print on a terminal: every control character that could
 * move the cursor, clear the screen, set the window title or answer back
 * (ECMA-48 C0 and C1 controls, and DEL) is shown as its `\uXXXX` escape
 * instead of being sent; newline, tab, and a carriage return just before a
 * newline (a CRLF line end) are kept, since they only end lines and indent.
 *
 * Why `\uXXXX` rather than a picture such as `␛`: the escape is plain ASCII,
 * says exactly which character it was, and is the same character in JSON and
 * JavaScript, so applying this to a JSON document changes how DEL and C1
 * characters are spelled (`JSON.stringify` already escapes C0) but never
 * what the document says. That lets the CLI apply it to everything it
 * prints, `--json` included (core/io.ts).
 *
 * Source: ECMA-48 section 5 (C0 is U+0000–U+001F, C1 is U+0080–U+009F; an
 * escape sequence starts with ESC U+001B or the 8-bit CSI U+009B).
 *
 * @module
 */

/** Any control character but newline and tab: one class, the quick test for clean text. */
// deno-lint-ignore no-control-regex -- control characters are what it finds
const ANY_CONTROL = /[\x00-\x08\x0b-\x1f\x7f-\x9f]/;
/** The characters {@link terminalText} replaces: those, less the CR of a CRLF. */
// deno-lint-ignore no-control-regex -- control characters are what it finds
const CONTROLS = /\r(?!\n)|[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]/g;

/**
 * `text` with every C0 and C1 control character and DEL but newline, tab and
 * the carriage return of a CRLF shown as `\uXXXX` (lower-case hex, four
 * digits). Linear in the text; the same string when nothing is replaced.
 *
 * @param text Any text, e.g. a server's stderr tail or a tool's description.
 * @returns Text that a terminal only prints.
 * @example
 * ```ts
 * import { terminalText } from "./terminal_text.ts";
 * const out = terminalText("\x1b]0;PWNED\x07red\r\nok\tdone\rX");
 * if (out !== "\\u001b]0;PWNED\\u0007red\r\nok\tdone\\u000dX") throw new Error(out);
 * ```
 */
export function terminalText(text: string): string {
  if (!ANY_CONTROL.test(text)) return text;
  return text.replace(CONTROLS, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}
