/**
 * A small file system of a fixed size for tests of a full disk: a tmpfs
 * mounted on a directory (`mount -t tmpfs -o size=…`), which needs root, as
 * CI runs. Where mounting is refused, {@link TMPFS_REFUSED} says why, and the
 * tests print that reason and are ignored.
 *
 * @module
 */

/** A mounted tmpfs; dispose it to unmount. */
export interface Tmpfs extends AsyncDisposable {
  readonly path: string;
  /** Writes zeros into `<path>/fill` until the file system is full. */
  fill(): void;
  /** Removes what {@link fill} wrote. */
  free(): void;
}

function mount(path: string, bytes: number): string | undefined {
  const out = new Deno.Command("mount", {
    args: ["-t", "tmpfs", "-o", `size=${bytes},mode=0700`, "tmpfs", path],
    stdout: "null",
    stderr: "piped",
  }).outputSync();
  return out.success
    ? undefined
    : new TextDecoder().decode(out.stderr).trim() || `exit ${out.code}`;
}

function unmount(path: string): void {
  new Deno.Command("umount", { args: [path], stdout: "null", stderr: "null" }).outputSync();
}

/** Why a tmpfs cannot be mounted here, or undefined when it can. */
export const TMPFS_REFUSED: string | undefined = (() => {
  if (Deno.build.os !== "linux") return `tmpfs mounts are Linux's (this is ${Deno.build.os})`;
  if (Deno.uid() !== 0) return "mounting a tmpfs needs root (CI runs as root)";
  const probe = Deno.makeTempDirSync({ prefix: "mcpx-tmpfs-probe-" });
  try {
    const refused = mount(probe, 64 * 1024);
    if (refused) return `mount -t tmpfs was refused: ${refused}`;
    unmount(probe);
    return undefined;
  } catch (error) {
    return `mount could not run: ${(error as Error).message}`;
  } finally {
    Deno.removeSync(probe);
  }
})();

if (TMPFS_REFUSED) console.warn(`full-disk tests skipped: ${TMPFS_REFUSED}`);

/**
 * Mounts a tmpfs of `bytes` on `path` (created when missing).
 *
 * @throws {Error} when mounting fails (check {@link TMPFS_REFUSED} first).
 */
export function mountTmpfs(path: string, bytes: number): Tmpfs {
  Deno.mkdirSync(path, { recursive: true });
  const refused = mount(path, bytes);
  if (refused) throw new Error(`mount -t tmpfs on ${path}: ${refused}`);
  const filler = `${path}/fill`;
  return {
    path,
    fill() {
      using file = Deno.openSync(filler, { create: true, append: true });
      const zeros = new Uint8Array(64 * 1024);
      try {
        for (;;) file.writeSync(zeros);
      } catch (error) {
        if ((error as { code?: string }).code !== "ENOSPC") throw error;
      }
    },
    free() {
      Deno.removeSync(filler);
    },
    async [Symbol.asyncDispose]() {
      unmount(path);
      await Deno.remove(path, { recursive: true }).catch(() => {});
    },
  };
}
