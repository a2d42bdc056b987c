import assert from "node:assert/strict";
import { LineSplitter } from "./line_splitter.ts";

const encoder = new TextEncoder();

/** Feeds `text` to a splitter in chunks of `size` bytes; returns the lines and the splitter. */
function split(text: string, size: number): { lines: string[]; splitter: LineSplitter } {
  const bytes = encoder.encode(text);
  const splitter = new LineSplitter();
  const lines: string[] = [];
  const chunk = new Uint8Array(size);
  for (let at = 0; at < bytes.length; at += size) {
    // One buffer filled again for every chunk, as the transport's reader does: nothing of a
    // chunk may be kept.
    const part = bytes.subarray(at, at + size);
    chunk.set(part);
    lines.push(...splitter.push(chunk.subarray(0, part.length)));
  }
  const rest = splitter.end();
  if (rest !== undefined) lines.push(rest);
  return { lines, splitter };
}

Deno.test("LineSplitter returns the same lines however the bytes are cut", () => {
  const text = 'first\n{"a":"é😀"}\r\n\n\nlong ' + "x".repeat(200_000) + "\nno newline at the end";
  const expected = text.split("\n");
  for (const size of [1, 2, 3, 7, 64, 1000, 65_536, 300_000]) {
    assert.deepEqual(split(text, size).lines, expected, `chunks of ${size}`);
  }
  assert.deepEqual(split("a\n", 1).lines, ["a"]);
  assert.deepEqual(split("", 1).lines, []);
});

Deno.test("LineSplitter scans and decodes each byte once, and joins a message of N chunks once", () => {
  // The earlier reader appended each chunk to a string and searched it from the start:
  // a message of N chunks cost N²/2 chunk-lengths of scanning and as many copies.
  const message = JSON.stringify({ jsonrpc: "2.0", id: 1, result: { text: "y".repeat(3 << 20) } });
  const { lines, splitter } = split(`${message}\n${message}\n`, 4096);
  assert.deepEqual(lines, [message, message]);
  const total = 2 * (message.length + 1);
  assert.equal(splitter.work.scanned, total, "every byte examined exactly once");
  assert.equal(splitter.work.decoded, 2 * message.length, "every byte decoded exactly once");
  assert.equal(splitter.work.joins, 2, "one join per message");
  assert.ok(splitter.work.copied <= 2 * total, `${splitter.work.copied} bytes copied`);
  assert.equal(splitter.pendingBytes, 0);
});

Deno.test("LineSplitter decodes a line inside one chunk straight from it, copying nothing", () => {
  const splitter = new LineSplitter();
  assert.deepEqual(splitter.push(encoder.encode("one\ntwo\nthr")), ["one", "two"]);
  assert.equal(splitter.pendingBytes, 3);
  assert.deepEqual(splitter.push(encoder.encode("ee\n")), ["three"]);
  assert.deepEqual(splitter.work, { scanned: 14, decoded: 11, copied: 3 + 5, joins: 1 });
});

Deno.test("LineSplitter keeps a character cut between two chunks whole", () => {
  const bytes = encoder.encode("é€😀\n");
  for (let cut = 1; cut < bytes.length - 1; cut++) {
    const splitter = new LineSplitter();
    const lines = [...splitter.push(bytes.slice(0, cut)), ...splitter.push(bytes.slice(cut))];
    assert.deepEqual(lines, ["é€😀"], `cut at ${cut}`);
  }
});
