/**
 * A temporary directory for tests, removed when disposed:
 * `await using tmp = await withTmpDir();`. Private to launcher/.
 *
 * @module
 */

/** A temporary directory; `path` is absolute. */
export interface TmpDir extends AsyncDisposable {
  readonly path: string;
  /** Writes `text` to `name` (relative to the directory) and returns the absolute path. */
  write(name: string, text: string | Uint8Array): Promise<string>;
}

/**
 * Makes a temporary directory that is removed, recursively, on dispose.
 *
 * @returns The directory.
 */
export async function withTmpDir(): Promise<TmpDir> {
  const path = await Deno.makeTempDir({ prefix: "mcpx-launcher-" });
  return {
    path,
    async write(name, text) {
      const file = `${path}/${name}`;
      await Deno.mkdir(file.slice(0, file.lastIndexOf("/")), { recursive: true });
      if (typeof text === "string") await Deno.writeTextFile(file, text);
      else await Deno.writeFile(file, text);
      return file;
    },
    async [Symbol.asyncDispose]() {
      await Deno.remove(path, { recursive: true }).catch(() => {});
    },
  };
}
