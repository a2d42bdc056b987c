/**
 * `mcpx exec`'s code as a file for the runtime, for the length of its run
 * only: the code may hold a secret, and one file per distinct program would
 * otherwise pile up in the cache (issue 9, "Cache grows without limit";
 * decision 0024).
 *
 * The file is named by its content (`exec-<hash>.ts`), so a launcher built
 * for it is reused by the next run of the same code. Runs of the same code
 * at once share it: each leaves a mark beside it (`exec-<hash>.<pid>-<n>.run`)
 * for as long as it runs, written before the program, and the last to end
 * removes the program. A run killed before it could clean up leaves both;
 * the daemon removes them an hour later (engine/cache_prune.ts).
 *
 * @module
 */

import { join } from "../core/posix_path.ts";
import { sha256Hex as sha256 } from "../core/sha256.ts";
import { writePrivateFile } from "../core/private_fs.ts";

/** A program written for one run; disposing of it removes it unless another run uses it. */
export interface ExecProgram extends AsyncDisposable {
  /** The program's path. */
  readonly path: string;
}

/**
 * Writes `text` as an exec program in `dir` (a private directory) and marks it in use.
 *
 * @throws {StorageError} when it cannot be written (core/private_fs.ts).
 */
export async function writeExecProgram(dir: string, text: string): Promise<ExecProgram> {
  const stem = `exec-${(await sha256(text)).slice(0, 24)}`;
  const path = join(dir, `${stem}.ts`);
  const mark = join(dir, `${stem}.${Deno.pid}-${crypto.randomUUID().slice(0, 8)}.run`);
  await writePrivateFile(mark, "");
  try {
    // Atomic: a run of the same code at the same moment never imports half a file.
    await writePrivateFile(path, text);
  } catch (error) {
    await Deno.remove(mark).catch(() => {});
    throw error;
  }
  return {
    path,
    async [Symbol.asyncDispose]() {
      await Deno.remove(mark).catch(() => {});
      if (!othersRunning(dir, stem)) await Deno.remove(path).catch(() => {});
    },
  };
}

/** Whether a mark of another run of the same program is in `dir`. */
function othersRunning(dir: string, stem: string): boolean {
  try {
    for (const entry of Deno.readDirSync(dir)) {
      if (entry.name.startsWith(`${stem}.`) && entry.name.endsWith(".run")) return true;
    }
  } catch {
    /* unreadable: keep the program, the daemon removes it later */ return true;
  }
  return false;
}
