/**
 * The one way mcpx reads an input whole: at most a limit of bytes, and from
 * a named file only when it is a regular file. Without it `mcpx call
 * everything.echo @/dev/zero` or `yes | mcpx exec -` grows until the machine
 * runs out of memory (issue 9, "Input has no size limit").
 *
 * - A file (`@args.json`, `--env-file`, `--prefix` sources, placeholder
 *   files, a script, a configuration file) must be a regular file, symbolic
 *   links followed: a device (`/dev/zero` never ends), a named pipe (blocks
 *   until someone writes), a directory or a socket is refused before a byte
 *   is read. Its size is checked first, and again while it is read (it may
 *   grow meanwhile).
 * - A stream (stdin behind `-`) may be anything, a pipe or a device too, and
 *   is read until its end or until it passes the limit, whichever is first.
 *
 * The limit is the setting `input.maxBytes` (config/settings.ts) for what a
 * user passes in; configuration files keep their own 16 MiB
 * (config/config_file.ts).
 *
 * @module
 */

import { InputError } from "./errors.ts";

/** `input.maxBytes`'s default, in bytes (64 MiB). */
export const DEFAULT_INPUT_MAX_BYTES = 64 * 1024 * 1024;

/** What the limit of a read is and where it comes from (config/input_limit.ts makes one). */
export interface InputLimit {
  /** The most bytes that may be read. */
  maxBytes: number;
  /** The setting that sets `maxBytes`, named in the refusal (default `input.maxBytes`). */
  setting?: string;
  /** The setting's variable (`MCPX_INPUT_MAX_BYTES`), named in the refusal when given. */
  env?: string;
}

/** What a file system entry is, in words, when it is not a regular file. */
export function entryKind(info: Deno.FileInfo): string {
  if (info.isDirectory) return "a directory";
  if (info.isFifo) return "a named pipe (FIFO)";
  if (info.isCharDevice) return "a character device";
  if (info.isBlockDevice) return "a block device";
  if (info.isSocket) return "a socket";
  if (info.isSymlink) return "a symbolic link";
  return "of an unknown kind";
}

/** `67108864` → `64 MiB`; `1500` → `1500 bytes`. */
export function formatBytes(n: number): string {
  const units = ["GiB", "MiB", "KiB"];
  for (let i = 0; i < units.length; i++) {
    const size = 1024 ** (3 - i);
    if (n >= size && n % size === 0) return `${n / size} ${units[i]}`;
  }
  return `${n} bytes`;
}

/**
 * The refusal of an input past its limit.
 *
 * @param what The input, as the user knows it (`the arguments on stdin`, `--env-file big.env`).
 * @param read How many bytes were found (read, or the file's size).
 */
export function inputTooLarge(what: string, read: number, limit: InputLimit): InputError {
  const setting = limit.setting ?? "input.maxBytes";
  return new InputError(
    `${what} holds more than ${formatBytes(limit.maxBytes)}, the limit ${setting} sets ` +
      `(${read} bytes read before mcpx stopped): pass a smaller input, or raise ${setting}` +
      (limit.env ? ` (${limit.env}=<bytes>, or in a configuration file)` : ""),
    { input: what, problem: "too-large", limit: limit.maxBytes, setting },
  );
}

/**
 * Reads `source` to its end, refusing as soon as more than `maxBytes` came.
 *
 * @param source An open file, or a stream of bytes (stdin's `readable`).
 * @param maxBytes The most bytes accepted.
 * @param tooLarge The error thrown past the limit, given the bytes read so far.
 * @param signal Stops the read (its reason is thrown).
 * @returns Every byte, in one array.
 * @throws What `tooLarge` returns; the source's own errors as they came.
 */
export async function readAllBounded(
  source: Deno.FsFile | ReadableStream<Uint8Array>,
  maxBytes: number,
  tooLarge: (read: number) => Error,
  signal?: AbortSignal,
): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  let total = 0;
  const take = (chunk: Uint8Array) => {
    total += chunk.length;
    if (total > maxBytes) throw tooLarge(total);
    chunks.push(chunk);
  };
  // Told apart by shape: naming the `ReadableStream` global costs a CLI ~5 ms on first use
  // (Deno loads web streams lazily), and a configuration read must not pay for it.
  if (!(source instanceof Deno.FsFile)) {
    const reader = source.getReader();
    try {
      for (;;) {
        signal?.throwIfAborted();
        const { done, value } = await reader.read();
        if (done) break;
        take(value);
      }
    } finally {
      // Stop reading at once (a device or `yes` never ends); the stream is not ours to drain.
      await reader.cancel().catch(() => {});
    }
  } else {
    const buffer = new Uint8Array(64 * 1024);
    for (;;) {
      signal?.throwIfAborted();
      // A regular file never blocks: read it in this thread (an async read starts
      // Deno's blocking-task pool, ~1–2 ms on a CLI's first one).
      const n = source.readSync(buffer);
      if (n === null) break;
      take(buffer.slice(0, n));
    }
  }
  if (chunks.length === 1) return chunks[0];
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.length;
  }
  return bytes;
}

/**
 * Reads a file the user named, whole: a regular file of at most
 * `limit.maxBytes`.
 *
 * @param path The file (symbolic links are followed).
 * @param what The input as the user knows it, for the errors (`the arguments file args.json`).
 * @param limit The limit and the setting that sets it.
 * @returns Its bytes.
 * @throws {InputError} `not-a-file` for a device, pipe, directory or socket
 *   (nothing is read), `too-large` past the limit.
 * @throws the file system's error when it cannot be opened or read ({@link Deno.errors}).
 * @example
 * ```ts
 * import { readBoundedFile } from "./bounded_read.ts";
 * const error = await readBoundedFile("/dev/zero", "--env-file /dev/zero", { maxBytes: 1024 })
 *   .catch((e) => e);
 * if (error.problem !== "not-a-file") throw new Error(error.message);
 * ```
 */
export async function readBoundedFile(
  path: string,
  what: string,
  limit: InputLimit,
  signal?: AbortSignal,
): Promise<Uint8Array> {
  const info = Deno.statSync(path);
  if (!info.isFile) {
    throw new InputError(
      `${what}: ${path} is ${entryKind(info)}, not a regular file; name a file` +
        (info.isFifo || info.isCharDevice ? " (a stream can come on stdin, as -)" : ""),
      { input: what, problem: "not-a-file" },
    );
  }
  if (info.size > limit.maxBytes) throw inputTooLarge(what, info.size, limit);
  using file = Deno.openSync(path, { read: true });
  return await readAllBounded(file, limit.maxBytes, (n) => inputTooLarge(what, n, limit), signal);
}

/**
 * Reads a stream whole (stdin behind `-`), up to `limit.maxBytes`.
 *
 * @param what The input as the user knows it (`the program on stdin`).
 * @throws {InputError} `too-large` as soon as the stream passes the limit.
 */
export async function readBoundedStream(
  stream: ReadableStream<Uint8Array>,
  what: string,
  limit: InputLimit,
  signal?: AbortSignal,
): Promise<Uint8Array> {
  return await readAllBounded(stream, limit.maxBytes, (n) => inputTooLarge(what, n, limit), signal);
}
