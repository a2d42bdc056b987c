/**
 * The terminal's input as events: keys, and the mouse in cell-motion mode
 * with SGR coordinates (xterm's "Mouse Tracking": mode 1002 reports presses,
 * releases, the wheel and motion with a button held, only when the cell
 * changes; mode 1006 spells each report `ESC [ < b ; x ; y M|m`, with no
 * limit on the coordinates). The browser turns these modes on and off
 * (cli/tui/terminal.ts); tests feed this parser bytes, or the model events.
 *
 * @module
 */

/** A key: a name (`up`, `enter`, `escape`, …) or the character typed (`q`, `]`, `/`). */
export interface KeyEvent {
  type: "key";
  key: string;
  /** Held with Control (`ctrl` + `c`). */
  ctrl?: boolean;
}

/** A mouse report, at 0-based cell coordinates. */
export interface MouseEvent {
  type: "mouse";
  action: "press" | "release" | "drag" | "wheelup" | "wheeldown";
  /** 0 left, 1 middle, 2 right (for presses, releases and drags). */
  button: number;
  x: number;
  y: number;
}

/** The terminal's new size. */
export interface ResizeEvent {
  type: "resize";
  columns: number;
  rows: number;
}

/** What the browser reacts to. */
export type InputEvent = KeyEvent | MouseEvent | ResizeEvent;

/** CSI and SS3 sequences the browser knows, by their final bytes. */
const SEQUENCES: Record<string, string> = {
  "[A": "up",
  "[B": "down",
  "[C": "right",
  "[D": "left",
  "[H": "home",
  "[F": "end",
  "OA": "up",
  "OB": "down",
  "OC": "right",
  "OD": "left",
  "OH": "home",
  "OF": "end",
  "[1~": "home",
  "[4~": "end",
  "[7~": "home",
  "[8~": "end",
  "[5~": "pageup",
  "[6~": "pagedown",
  "[3~": "delete",
  "[Z": "backtab",
};

/** Control characters with names. */
const CONTROLS: Record<string, string> = {
  "\r": "enter",
  "\n": "enter",
  "\t": "tab",
  "\x7f": "backspace",
  "\b": "backspace",
};

/**
 * The events in one read from the terminal. An escape alone (nothing after
 * it in the same read) is the Escape key; a sequence this parser does not
 * know is skipped whole, never typed into the filter.
 *
 * @example
 * ```ts
 * import { parseInput } from "./keys.ts";
 * const events = parseInput("q\x1b[A\x1b[<0;5;3M");
 * if (events.length !== 3 || events[2].type !== "mouse" || events[2].x !== 4) throw new Error();
 * ```
 */
export function parseInput(text: string): InputEvent[] {
  const events: InputEvent[] = [];
  let i = 0;
  while (i < text.length) {
    const ch = text[i];
    if (ch === "\x1b") {
      const rest = text.slice(i + 1);
      if (rest === "") {
        events.push({ type: "key", key: "escape" });
        i++;
        continue;
      }
      const mouse = /^\[<(\d+);(\d+);(\d+)([Mm])/.exec(rest);
      if (mouse) {
        const event = mouseEvent(
          Number(mouse[1]),
          Number(mouse[2]),
          Number(mouse[3]),
          mouse[4] === "m",
        );
        if (event) events.push(event);
        i += 1 + mouse[0].length;
        continue;
      }
      // CSI: parameters and intermediates, then one final byte; SS3: one byte.
      const csi = /^\[[0-?]*[ -/]*[@-~]/.exec(rest) ?? /^O[@-~]/.exec(rest);
      if (csi) {
        const name = SEQUENCES[csi[0]];
        if (name) events.push({ type: "key", key: name });
        i += 1 + csi[0].length;
        continue;
      }
      // ESC then a character: Alt and that key; the browser reads it as Escape, then the key.
      events.push({ type: "key", key: "escape" });
      i++;
      continue;
    }
    if (CONTROLS[ch]) {
      events.push({ type: "key", key: CONTROLS[ch] });
      i++;
      continue;
    }
    const code = ch.charCodeAt(0);
    if (code < 0x20) {
      events.push({ type: "key", key: String.fromCharCode(code + 0x60), ctrl: true });
      i++;
      continue;
    }
    const char = String.fromCodePoint(text.codePointAt(i)!);
    events.push({ type: "key", key: char });
    i += char.length;
  }
  return events;
}

/** One SGR mouse report (1-based x and y on the wire). */
function mouseEvent(code: number, x: number, y: number, released: boolean): MouseEvent | undefined {
  const at = { x: x - 1, y: y - 1 };
  if (code & 64) {
    const wheel = code & 3;
    if (wheel > 1) return undefined;
    return { type: "mouse", action: wheel === 0 ? "wheelup" : "wheeldown", button: 0, ...at };
  }
  const button = code & 3;
  if (code & 32) return { type: "mouse", action: "drag", button, ...at };
  return { type: "mouse", action: released ? "release" : "press", button, ...at };
}
