import assert from "node:assert/strict";
import { existsSync } from "./exists.ts";

Deno.test("existsSync() is true for a file and a folder, false for a missing path and a dangling link", async () => {
  const dir = await Deno.makeTempDir();
  try {
    Deno.writeTextFileSync(`${dir}/file`, "");
    Deno.symlinkSync(`${dir}/gone`, `${dir}/link`);
    assert.equal(existsSync(`${dir}/file`), true);
    assert.equal(existsSync(dir), true);
    assert.equal(existsSync(`${dir}/missing`), false);
    assert.equal(existsSync(`${dir}/link`), false);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
