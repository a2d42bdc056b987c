import assert from "node:assert/strict";
import { memoryIo } from "./io.ts";

Deno.test("Io.out() and Io.err() show control characters; Io.errRaw() and outBytes() pass them", async () => {
  const io = memoryIo();
  io.out("tool said \x1b]0;PWNED\x07\n");
  io.err("stderr \x1b[2J\n");
  io.errRaw!("\r\x1b[K");
  await io.outBytes!(new TextEncoder().encode("script \x1b[31m\n"));
  assert.equal(io.stdout, "tool said \\u001b]0;PWNED\\u0007\nscript \x1b[31m\n");
  assert.equal(io.stderr, "stderr \\u001b[2J\n\r\x1b[K");
});
