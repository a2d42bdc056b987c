/**
 * Reading a JSON state file that may be damaged, and keeping the damaged
 * original. A state file cut short (a full disk, a crash of another tool, a
 * copy interrupted) or with bytes overwritten still holds readable records
 * before the damage: {@link parseSalvaging} returns the longest beginning of
 * the document that is whole JSON once its open brackets are closed, so the
 * records in it are kept rather than the whole file thrown away. Before a
 * damaged file is written over, {@link keepDamagedCopy} puts its bytes
 * beside it (`<file>.damaged-<time>`), so nothing readable is lost even to
 * a reader smarter than this one (decision 0019).
 *
 * Source: issue 9, "Damaged state never breaks more than itself, and nothing
 * readable is lost".
 *
 * @module
 */

import { writePrivateFileSync } from "./private_fs.ts";
import { postNotice } from "./notice_queue.ts";

/** What {@link parseSalvaging} read. */
export interface SalvagedJson {
  /**
   * The document, or the longest readable beginning of it with its open
   * objects and arrays closed; undefined when not even that could be read.
   */
  value: unknown;
  /** True when the text was not one whole JSON document. */
  damaged: boolean;
}

/** Deeper nesting than this is not salvaged (no state file of mcpx nests more than a few levels). */
const MAX_DEPTH = 512;

const OPEN_OBJECT = 0x7b; // {
const CLOSE_OBJECT = 0x7d; // }
const OPEN_ARRAY = 0x5b; // [
const CLOSE_ARRAY = 0x5d; // ]
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/**
 * Parses JSON text, or as much of its beginning as is whole.
 *
 * Each place where an object or array closes is a candidate end: the text up
 * to it, with the brackets still open closed after it, is JSON exactly when
 * nothing before it is damaged. Those ends are tried by binary search (a
 * damaged beginning spoils every later end too), so the work is
 * O(n log n) in the text's length.
 *
 * @param text The file's text.
 * @returns The value and whether the text was damaged.
 * @example
 * ```ts
 * import { parseSalvaging } from "./damaged_json.ts";
 * const cut = '{"sessions":[{"name":"a"},{"name":"b"},{"na';
 * const { value, damaged } = parseSalvaging(cut);
 * if (!damaged || JSON.stringify(value) !== '{"sessions":[{"name":"a"},{"name":"b"}]}') {
 *   throw new Error();
 * }
 * ```
 */
export function parseSalvaging(text: string): SalvagedJson {
  try {
    return { value: JSON.parse(text), damaged: false };
  } catch { /* salvage below */ }
  const ends = closingPlaces(text);
  let low = 0;
  let high = ends.length - 1;
  let best: unknown = undefined;
  while (low <= high) {
    const middle = (low + high) >> 1;
    const closed = closedAt(text, ends[middle]);
    let value: unknown;
    let ok = false;
    if (closed !== undefined) {
      try {
        value = JSON.parse(closed);
        ok = true;
      } catch { /* damaged before this end */ }
    }
    if (ok) {
      best = value;
      low = middle + 1;
    } else high = middle - 1;
  }
  return { value: best, damaged: true };
}

/** Offsets just after each `}` or `]` outside strings (the candidate ends). */
function closingPlaces(text: string): number[] {
  const ends: number[] = [];
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === BACKSLASH) i++;
      else if (c === QUOTE) inString = false;
      continue;
    }
    if (c === QUOTE) inString = true;
    else if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
      if (++depth > MAX_DEPTH) break;
    } else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) {
      if (--depth < 0) break;
      ends.push(i + 1);
    }
  }
  return ends;
}

/** The text up to `end` with the brackets still open there closed, innermost first. */
function closedAt(text: string, end: number): string | undefined {
  const open: number[] = [];
  let inString = false;
  for (let i = 0; i < end; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === BACKSLASH) i++;
      else if (c === QUOTE) inString = false;
      continue;
    }
    if (c === QUOTE) inString = true;
    else if (c === OPEN_OBJECT || c === OPEN_ARRAY) open.push(c);
    else if (c === CLOSE_OBJECT || c === CLOSE_ARRAY) {
      if (open.pop() !== (c === CLOSE_OBJECT ? OPEN_OBJECT : OPEN_ARRAY)) return undefined;
    }
  }
  let closers = "";
  for (let k = open.length - 1; k >= 0; k--) closers += open[k] === OPEN_OBJECT ? "}" : "]";
  return text.slice(0, end) + closers;
}

/**
 * Keeps the bytes of a damaged state file beside it, as
 * `<path>.damaged-<UTC time>` (mode 0600), before mcpx writes the file over.
 * A copy with the same bytes already there is not made twice.
 *
 * @param path The damaged file.
 * @param bytes Its bytes as read.
 * @param now The time, in ms since the epoch (names the copy).
 * @returns The copy's path.
 * @throws {StorageError} (core/errors.ts) when the copy cannot be written (a full
 *   disk): the caller must then leave the original as it is.
 */
export function keepDamagedCopy(path: string, bytes: Uint8Array, now = Date.now()): string {
  const dir = path.slice(0, path.lastIndexOf("/")) || "/";
  const base = path.slice(path.lastIndexOf("/") + 1);
  const prefix = `${base}.damaged-`;
  try {
    for (const entry of Deno.readDirSync(dir)) {
      if (!entry.isFile || !entry.name.startsWith(prefix)) continue;
      const existing = `${dir}/${entry.name}`;
      try {
        if (sameBytes(Deno.readFileSync(existing), bytes)) return existing;
      } catch { /* removed meanwhile */ }
    }
  } catch { /* the directory is gone: the write below says why */ }
  const copy = damagedCopyPath(path, now);
  writePrivateFileSync(copy, bytes);
  pruneDamagedCopies(path);
  return copy;
}

/** How many moved-aside or kept copies of one state file are kept; older ones are removed. */
export const DAMAGED_COPIES_KEPT = 3;

/** The name a damaged state file's bytes are kept under: `<path>.damaged-<UTC time>`. */
export function damagedCopyPath(path: string, now = Date.now()): string {
  return `${path}.damaged-${new Date(now).toISOString().replace(/[:.]/g, "-")}`;
}

/** True when `name` is a file name {@link damagedCopyPath} makes (doctor lists these). */
export function isDamagedCopyName(name: string): boolean {
  return /\.damaged-\d{4}-\d\d-\d\dT[\d-]+Z(-journal|-wal)?$/.test(name);
}

/** What {@link moveDamagedAside} did: a fact to warn about, and for `mcpx doctor` to find. */
export interface MovedAside {
  /** The damaged file. */
  path: string;
  /** Where its bytes are now. */
  movedTo: string;
  /** What it is, a few words (`the questions store`). */
  what: string;
  /** What was damaged, as SQLite or the JSON parser said. */
  why: string;
  /** What is lost with it and how to get it back, a clause (`its open questions are lost`). */
  lost: string;
}

/**
 * The one rule for a state file that cannot be read at all (decision 0019):
 * it is moved aside as `<path>.damaged-<UTC time>` (an SQLite file's
 * `-journal` and `-wal` go with it, under the same name plus their suffix),
 * so the caller can start it again empty, and a warning naming the file, the
 * copy and what was lost is queued for the person at the shell
 * (core/notice_queue.ts: the CLI prints it after the command, the daemon hands
 * it to the next command). Only the newest {@link DAMAGED_COPIES_KEPT} copies
 * of one file are kept. `mcpx doctor` lists the copies it finds.
 *
 * @param fact What the file is, why it is damaged and what is lost with it.
 * @param options.expect The bytes that were found damaged: when the file now
 *   holds other bytes (another process rebuilt it meanwhile), it is left alone.
 * @param options.now The time, ms since the epoch (names the copy).
 * @returns The fact, with where the bytes went; undefined when the file was
 *   already gone or replaced (someone else moved it).
 * @throws Deno's error when the file cannot be renamed (the caller reports it as
 *   the storage failure it is).
 */
export function moveDamagedAside(
  fact: Omit<MovedAside, "movedTo">,
  options: { expect?: Uint8Array; now?: number } = {},
): MovedAside | undefined {
  const { path } = fact;
  try {
    if (options.expect && !sameBytes(Deno.readFileSync(path), options.expect)) return undefined;
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return undefined;
    throw error;
  }
  const movedTo = damagedCopyPath(path, options.now);
  try {
    Deno.renameSync(path, movedTo);
  } catch (error) {
    if (error instanceof Deno.errors.NotFound) return undefined;
    throw error;
  }
  for (const suffix of ["-journal", "-wal"]) {
    try {
      Deno.renameSync(`${path}${suffix}`, `${movedTo}${suffix}`);
    } catch { /* none */ }
  }
  try {
    Deno.removeSync(`${path}-shm`);
  } catch { /* none */ }
  pruneDamagedCopies(path);
  const moved = { ...fact, movedTo };
  postNotice({ code: "state-damaged", message: movedAsideSentence(moved) });
  movedAsideListener?.(moved);
  return moved;
}

let movedAsideListener: ((moved: MovedAside) => void) | undefined;

/**
 * Sets who else hears of each file {@link moveDamagedAside} moves (the
 * daemon's durable log, engine/log.ts: a `state.damaged` record); one
 * listener, replaced by the next call.
 */
export function onMovedAside(listener: ((moved: MovedAside) => void) | undefined): void {
  movedAsideListener = listener;
}

/** The warning for a file moved aside: the file, why, where its bytes went, what was lost. */
export function movedAsideSentence(m: MovedAside): string {
  return `${m.what} ${m.path} was damaged (${m.why}); it is moved aside as ${m.movedTo} and ` +
    `started again empty: ${m.lost}`;
}

/** Removes all but the newest {@link DAMAGED_COPIES_KEPT} copies of `path`. */
function pruneDamagedCopies(path: string): void {
  const dir = path.slice(0, path.lastIndexOf("/")) || "/";
  const prefix = `${path.slice(path.lastIndexOf("/") + 1)}.damaged-`;
  let names: string[];
  try {
    names = [...Deno.readDirSync(dir)].map((e) => e.name)
      .filter((n) => n.startsWith(prefix) && isDamagedCopyName(n) && !/-(journal|wal)$/.test(n))
      .sort();
  } catch {
    return;
  }
  for (const name of names.slice(0, Math.max(0, names.length - DAMAGED_COPIES_KEPT))) {
    for (const suffix of ["", "-journal", "-wal"]) {
      try {
        Deno.removeSync(`${dir}/${name}${suffix}`);
      } catch { /* none */ }
    }
  }
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
