import * as assert from "node:assert/strict";
import { writeExecProgram } from "./exec_program.ts";

Deno.test("writeExecProgram() removes the program when the last run of it ends", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const first = await writeExecProgram(dir, "1 + 1");
    const second = await writeExecProgram(dir, "1 + 1");
    assert.equal(first.path, second.path, "the same code is one file");
    assert.equal(await Deno.readTextFile(first.path), "1 + 1");
    await first[Symbol.asyncDispose]();
    assert.equal(await Deno.readTextFile(second.path), "1 + 1", "still in use by the other run");
    await second[Symbol.asyncDispose]();
    assert.deepEqual([...Deno.readDirSync(dir)], [], "nothing is left");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
