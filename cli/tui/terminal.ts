/**
 * The browser's hold on the terminal, and its giving it back: raw input, the
 * mouse in cell-motion mode with SGR reports (xterm modes 1002 and 1006:
 * clicks and the wheel, and motion only while a button is held), the
 * terminal's size as it changes, and SIGTERM and SIGHUP as quitting. Input
 * is read here and parsed by cli/tui/keys.ts, never by ink, so the mouse's
 * reports reach the browser as clicks rather than as typed text. Whatever
 * happens — a quit, a signal, an error while drawing — the terminal is left
 * as it was found: mouse reporting off, cooked mode, the cursor shown, the
 * user's screen back.
 *
 * @module
 */

import process from "node:process";
import { PassThrough } from "node:stream";
import type { Browser } from "./browser.ts";
import { handleInput } from "./browser_input.ts";
import { parseInput } from "./keys.ts";
import { drawBrowser } from "./screen.ts";

/** Turns on button-event tracking (1002) with SGR coordinates (1006). */
const MOUSE_ON = "\x1b[?1002h\x1b[?1006h";
/** Turns them off again. */
const MOUSE_OFF = "\x1b[?1006l\x1b[?1002l";
/** Leaves the alternate screen and shows the cursor: only after a failure, which ink could not clean up. */
const SCREEN_BACK = "\x1b[?1049l\x1b[?25h";

/**
 * Runs `browser` on this process's terminal until it quits.
 *
 * @throws what drawing threw, after the terminal is restored.
 */
export async function runTerminal(browser: Browser): Promise<void> {
  const encoder = new TextEncoder();
  const write = (text: string) => Deno.stdout.writeSync(encoder.encode(text));
  const quit = () => browser.quit();
  const resize = () => {
    const { columns, rows } = Deno.consoleSize();
    handleInput(browser, { type: "resize", columns, rows });
  };
  Deno.stdin.setRaw(true);
  write(MOUSE_ON);
  Deno.addSignalListener("SIGWINCH", resize);
  Deno.addSignalListener("SIGTERM", quit);
  Deno.addSignalListener("SIGHUP", quit);
  const reading = readInput(browser);
  let failed = false;
  try {
    browser.start();
    // ink holds a stream of its own: the terminal's input is this module's.
    await drawBrowser(browser, process.stdout, new PassThrough());
  } catch (error) {
    failed = true;
    throw error;
  } finally {
    browser.close();
    Deno.removeSignalListener("SIGWINCH", resize);
    Deno.removeSignalListener("SIGTERM", quit);
    Deno.removeSignalListener("SIGHUP", quit);
    write(MOUSE_OFF + (failed ? SCREEN_BACK : ""));
    try {
      Deno.stdin.setRaw(false);
    } catch {
      // The terminal went away (SIGHUP): nothing to restore.
    }
    reading.stop();
  }
}

/** Reads the terminal's input into `browser` until stopped or the browser quits. */
function readInput(browser: Browser): { stop(): void } {
  const reader = Deno.stdin.readable.getReader();
  const decoder = new TextDecoder();
  let stopped = false;
  (async () => {
    while (!stopped && !browser.state.quit) {
      const { value, done } = await reader.read();
      if (done) return browser.quit();
      for (const event of parseInput(decoder.decode(value, { stream: true }))) {
        handleInput(browser, event);
      }
    }
  })().catch(() => browser.quit());
  return {
    stop() {
      stopped = true;
      reader.releaseLock();
    },
  };
}
