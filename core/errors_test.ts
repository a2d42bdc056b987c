import assert from "node:assert/strict";
import { errorToJson, StorageError, storageErrorOf, storageProblem } from "./errors.ts";

const fsError = (code: string, message: string) => Object.assign(new Error(message), { code });

Deno.test("storageErrorOf() names the path, the problem and the fix for each errno it knows", async (t) => {
  const cases: [string, string, RegExp][] = [
    [
      "ENOSPC",
      "no space left on device",
      /free space on the file system that holds \/s\/mcpx \(`df -h \/s\/mcpx`/,
    ],
    ["EDQUOT", "disk quota exceeded", /free space within your quota on \/s\/mcpx/],
    ["EROFS", "read-only file system", /\/s\/mcpx is on a read-only file system/],
    ["EACCES", "permission denied", /make \/s\/mcpx writable by you/],
  ];
  for (const [code, phrase, fix] of cases) {
    await t.step(code, () => {
      const error = storageErrorOf(fsError(code, "os says no"), "/s/mcpx/sessions.json");
      assert.ok(error instanceof StorageError);
      assert.equal(error.code, "storage");
      assert.equal(error.path, "/s/mcpx/sessions.json");
      assert.ok(error.message.startsWith(`${phrase}: cannot write /s/mcpx/sessions.json; `));
      assert.match(error.message, fix);
      assert.match(error.message, /paths\.state, paths\.cache, logging\.dir/);
    });
  }
  await t.step("anything else is not a storage error", () => {
    assert.equal(storageErrorOf(fsError("EIO", "io"), "/x"), undefined);
    assert.equal(storageErrorOf(new Error("plain"), "/x"), undefined);
    assert.equal(storageProblem(null), undefined);
  });
  await t.step("a StorageError already made keeps its problem", () => {
    // ensurePrivateDir throws one; the log writer and the ledger read its problem back.
    assert.equal(storageProblem(new StorageError("/s/logs", "quota")), "quota");
  });
});

Deno.test("errorToJson() reads an unmapped full disk as a storage error, with the system's message", () => {
  const raw = fsError("ENOSPC", "No space left on device (os error 28): writefile '/s/x'");
  const json = errorToJson(raw);
  assert.equal(json.code, "storage");
  assert.match(
    json.message,
    /^no space left on device \(No space left on device \(os error 28\): writefile '\/s\/x'\); free space/,
  );
  assert.equal(errorToJson(new Error("boom")).code, "internal");
});
