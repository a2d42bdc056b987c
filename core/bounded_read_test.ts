import * as assert from "node:assert/strict";
import { formatBytes, readAllBounded, readBoundedFile, readBoundedStream } from "./bounded_read.ts";
import { errorToJson, exitCodeOf, InputError } from "./errors.ts";

const LIMIT = { maxBytes: 1024, setting: "input.maxBytes", env: "MCPX_INPUT_MAX_BYTES" };

Deno.test("readBoundedFile() reads a regular file whole", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(`${dir}/a.json`, '{"a":1}');
    const bytes = await readBoundedFile(`${dir}/a.json`, "the arguments file a.json", LIMIT);
    assert.equal(new TextDecoder().decode(bytes), '{"a":1}');
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("readBoundedFile() refuses a device, a FIFO and a directory before reading, naming them", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const fifo = `${dir}/pipe`;
    await new Deno.Command("mkfifo", { args: [fifo] }).output();
    for (
      const [path, kind] of [
        ["/dev/zero", "a character device"],
        [fifo, "a named pipe (FIFO)"],
        [dir, "a directory"],
      ]
    ) {
      const error = await readBoundedFile(path, `--env-file ${path}`, LIMIT).catch((e) => e);
      assert.ok(error instanceof InputError, String(error));
      assert.equal(error.problem, "not-a-file");
      assert.equal(error.message.startsWith(`--env-file ${path}: ${path} is ${kind}`), true);
      assert.equal(exitCodeOf(error), 2);
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("readBoundedFile() refuses a file past the limit, naming the input, the limit and the setting", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeFile(`${dir}/big`, new Uint8Array(1025));
    const error = await readBoundedFile(`${dir}/big`, "the arguments file big", LIMIT)
      .catch((e) => e);
    assert.ok(error instanceof InputError);
    assert.equal(error.problem, "too-large");
    assert.match(error.message, /^the arguments file big holds more than 1 KiB/);
    assert.match(error.message, /input\.maxBytes/);
    assert.match(error.message, /MCPX_INPUT_MAX_BYTES=<bytes>/);
    const json = errorToJson(error);
    assert.equal(json.limit, 1024);
    assert.equal(json.setting, "input.maxBytes");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("readBoundedStream() stops a stream that never ends at the limit", async () => {
  let pulled = 0;
  const endless = new ReadableStream<Uint8Array>({
    pull(controller) {
      pulled++;
      controller.enqueue(new Uint8Array(100));
    },
  });
  const error = await readBoundedStream(endless, "the program on stdin", LIMIT).catch((e) => e);
  assert.ok(error instanceof InputError);
  assert.match(error.message, /^the program on stdin holds more than 1 KiB/);
  assert.ok(pulled < 20, `read ${pulled} chunks`);
});

Deno.test("readAllBounded() returns everything up to the limit exactly", async () => {
  const stream = new Blob([new Uint8Array(1024).fill(7)]).stream();
  const bytes = await readAllBounded(stream, 1024, () => new Error("too large"));
  assert.equal(bytes.length, 1024);
  assert.equal(bytes[1023], 7);
});

Deno.test("formatBytes() names round sizes in binary units", () => {
  assert.equal(formatBytes(64 * 1024 * 1024), "64 MiB");
  assert.equal(formatBytes(1024), "1 KiB");
  assert.equal(formatBytes(1500), "1500 bytes");
});
