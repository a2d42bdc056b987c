import assert from "node:assert/strict";
import { LineReader } from "./line_reader.ts";
import { InputError } from "../../core/errors.ts";

/** A source handing out `chunks` one per read, counting the reads. */
function source(chunks: (string | Uint8Array)[]) {
  const queue = chunks.map((c) => typeof c === "string" ? new TextEncoder().encode(c) : c);
  const counter = { reads: 0 };
  const read = (buffer: Uint8Array) => {
    counter.reads++;
    const chunk = queue.shift();
    if (chunk === undefined) return Promise.resolve(null);
    buffer.set(chunk);
    return Promise.resolve(chunk.length);
  };
  return { read, counter };
}

const LIMIT = { maxBytes: 64, setting: "input.maxBytes" };

async function all(reader: LineReader): Promise<string[]> {
  const lines: string[] = [];
  for (let line = await reader.next(); line !== undefined; line = await reader.next()) {
    lines.push(line);
  }
  return lines;
}

Deno.test("LineReader.next() joins lines split across reads, drops \\n and \\r\\n, keeps a last line without one", async () => {
  const { read } = source(["ty", "pes fs\r\nls\n\nchain", " cal-1"]);
  assert.deepEqual(await all(new LineReader(read, LIMIT)), ["types fs", "ls", "", "chain cal-1"]);
});

Deno.test("LineReader.next() decodes a character split across two reads", async () => {
  const bytes = new TextEncoder().encode("search café\n");
  const { read } = source([bytes.subarray(0, 10), bytes.subarray(10)]);
  assert.deepEqual(await all(new LineReader(read, LIMIT)), ["search café"]);
});

Deno.test("LineReader.next() reads only when no whole line is held", async () => {
  const { read, counter } = source(["ls\nfs\n", "quit\n"]);
  const reader = new LineReader(read, LIMIT);
  assert.equal(await reader.next(), "ls");
  assert.equal(await reader.next(), "fs");
  assert.equal(counter.reads, 1);
  assert.equal(await reader.next(), "quit");
  assert.equal(counter.reads, 2);
});

Deno.test("LineReader.next() refuses a line past the limit, naming the setting", async () => {
  const { read } = source(["x".repeat(40), "x".repeat(40), "\n"]);
  await assert.rejects(
    () => new LineReader(read, LIMIT).next(),
    (error: unknown) =>
      error instanceof InputError && /a line of explore's input/.test(error.message) &&
      error.setting === "input.maxBytes",
  );
});
