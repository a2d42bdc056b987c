/**
 * Reading a byte stream as lines of text in time and memory linear in its
 * size: what the stdio transport reads from a server's stdout (MCP
 * 2025-11-25, "Transports: stdio": one JSON-RPC message per line).
 *
 * Each byte is examined once for `\n` (a chunk is scanned from where the
 * last line ended) and decoded once. A line inside one chunk is decoded
 * straight from it. The bytes of a line that goes on past its chunk are
 * copied into blocks the splitter owns (64 KiB, doubling up to
 * {@link BLOCK_BYTES}), so the caller's chunks are never kept; when the line
 * ends, the blocks are copied into one buffer of its exact size, each block
 * freed as soon as it is copied, the buffer is decoded once, and the buffer
 * is freed. Freed means released at once with `ArrayBuffer.prototype.transfer(0)`,
 * not left for the garbage collector: a 64 MiB line then costs its bytes once
 * and its text once, not a pile of both waiting to be collected. Splitting on
 * the byte 0x0A is safe in UTF-8: it never occurs inside a multi-byte
 * character.
 *
 * The earlier reader appended every chunk to one string and searched it from
 * the start, which made a 50 MB result take 20 s and 1.5 GB.
 *
 * @module
 */

const NEWLINE = 0x0a;
/** The first block of an unended line: 64 KiB; each next block doubles, up to {@link BLOCK_BYTES}. */
export const FIRST_BLOCK_BYTES = 1 << 16;
/** The largest block of an unended line: 1 MiB. */
export const BLOCK_BYTES = 1 << 20;

/** What reading has cost so far, for tests that hold it linear without timing it. */
export interface SplitWork {
  /** Bytes examined for a newline (each byte of the stream once). */
  scanned: number;
  /** Bytes decoded to text (each byte of the stream at most once). */
  decoded: number;
  /** Bytes copied: into blocks, then into the line's buffer (at most twice per byte). */
  copied: number;
  /** Lines assembled from blocks. */
  joins: number;
}

/**
 * Releases the memory of `bytes` now rather than at the next garbage
 * collection (`ArrayBuffer.prototype.transfer(0)` detaches its buffer), when
 * it spans its whole buffer; only for bytes the splitter made and never uses
 * again.
 */
function release(bytes: Uint8Array): void {
  const buffer = bytes.buffer;
  if (
    buffer instanceof ArrayBuffer && !buffer.detached && bytes.byteOffset === 0 &&
    bytes.byteLength === buffer.byteLength
  ) {
    buffer.transfer(0);
  }
}

/** Lines of text from a UTF-8 byte stream, fed one chunk at a time. */
export class LineSplitter {
  /** Full blocks of the unended line, in order. */
  #full: Uint8Array[] = [];
  /** The block being filled: `#block[0, #used)`. */
  #block?: Uint8Array;
  #used = 0;
  #pendingBytes = 0;
  readonly #decoder = new TextDecoder();
  /** What reading has cost so far. */
  readonly work: SplitWork = { scanned: 0, decoded: 0, copied: 0, joins: 0 };

  /** Bytes held for a line not yet ended. */
  get pendingBytes(): number {
    return this.#pendingBytes;
  }

  /**
   * Adds a chunk and returns the lines it ends, without their `\n` (a `\r`
   * before it is kept: the caller decides). Nothing of `chunk` is kept: the
   * caller may reuse or release it once this returns.
   *
   * @param chunk The next bytes of the stream.
   * @returns The lines finished by this chunk, in order; often none.
   */
  push(chunk: Uint8Array): string[] {
    const lines: string[] = [];
    let start = 0;
    while (start < chunk.length) {
      const newline = chunk.indexOf(NEWLINE, start);
      const end = newline < 0 ? chunk.length : newline;
      this.work.scanned += (newline < 0 ? end : end + 1) - start;
      if (newline < 0) {
        this.#keep(chunk.subarray(start));
        break;
      }
      lines.push(this.#finish(chunk.subarray(start, end)));
      start = newline + 1;
    }
    return lines;
  }

  /**
   * The text after the last `\n`, once the stream has ended (undefined when
   * there is none). The splitter is empty afterwards.
   */
  end(): string | undefined {
    return this.#pendingBytes === 0 ? undefined : this.#finish(new Uint8Array(0));
  }

  /** Copies bytes of the unended line into blocks. */
  #keep(bytes: Uint8Array): void {
    for (let at = 0; at < bytes.length;) {
      if (!this.#block || this.#used === this.#block.length) {
        if (this.#block) this.#full.push(this.#block);
        const size = this.#block
          ? Math.min(this.#block.length * 2, BLOCK_BYTES)
          : FIRST_BLOCK_BYTES;
        this.#block = new Uint8Array(size);
        this.#used = 0;
      }
      const n = Math.min(this.#block.length - this.#used, bytes.length - at);
      this.#block.set(bytes.subarray(at, at + n), this.#used);
      this.#used += n;
      this.#pendingBytes += n;
      this.work.copied += n;
      at += n;
    }
  }

  /** The unended line's bytes followed by `last`, decoded once; frees the blocks. */
  #finish(last: Uint8Array): string {
    if (this.#pendingBytes === 0) {
      this.work.decoded += last.length;
      return this.#decoder.decode(last);
    }
    const line = new Uint8Array(this.#pendingBytes + last.length);
    let at = 0;
    for (const block of this.#full) {
      line.set(block, at);
      at += block.length;
      release(block);
    }
    line.set(this.#block!.subarray(0, this.#used), at);
    line.set(last, at + this.#used);
    release(this.#block!);
    this.work.copied += line.length;
    this.work.decoded += line.length;
    this.work.joins++;
    this.#full = [];
    this.#block = undefined;
    this.#used = 0;
    this.#pendingBytes = 0;
    const text = this.#decoder.decode(line);
    release(line);
    return text;
  }
}
