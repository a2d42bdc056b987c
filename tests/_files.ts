/**
 * Reading back what a test's world left on disk, for tests that hold every
 * file to a rule (no secret in any state or cache file).
 *
 * @module
 */

import { join } from "node:path";

/**
 * Every regular file under `dir`, recursively, with its bytes as text
 * (latin1, so any byte sequence reads and a secret's ASCII is found as is).
 * A directory that does not exist has none; a file removed meanwhile is skipped.
 */
export function filesUnder(dir: string): { path: string; text: string }[] {
  const out: { path: string; text: string }[] = [];
  let entries: Deno.DirEntry[];
  try {
    entries = [...Deno.readDirSync(dir)];
  } catch {
    return out;
  }
  for (const entry of entries) {
    const path = join(dir, entry.name);
    if (entry.isDirectory) out.push(...filesUnder(path));
    else if (entry.isFile) {
      try {
        out.push({ path, text: new TextDecoder("latin1").decode(Deno.readFileSync(path)) });
      } catch { /* removed meanwhile */ }
    }
  }
  return out;
}
