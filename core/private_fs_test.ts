import * as assert from "node:assert/strict";
import {
  checkPrivateDir,
  ensurePrivateDir,
  UnsafeDirectoryError,
  writePrivateFile,
  writePrivateFileSync,
} from "./private_fs.ts";

Deno.test("ensurePrivateDir() creates a 0700 directory and narrows a readable one of ours", async () => {
  const root = await Deno.makeTempDir();
  try {
    const made = `${root}/a/b`;
    ensurePrivateDir(made, "state");
    assert.equal(Deno.statSync(made).mode! & 0o777, 0o700);
    const readable = `${root}/readable`;
    Deno.mkdirSync(readable, { mode: 0o755 });
    Deno.chmodSync(readable, 0o755);
    ensurePrivateDir(readable, "state");
    assert.equal(Deno.statSync(readable).mode! & 0o777, 0o700);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("checkPrivateDir() refuses a directory others can write into, naming it and the fix", async () => {
  const root = await Deno.makeTempDir();
  try {
    Deno.chmodSync(root, 0o777);
    assert.throws(
      () => checkPrivateDir(root, "the daemon's socket"),
      (e: unknown) =>
        e instanceof UnsafeDirectoryError && e.path === root &&
        e.message.includes("mode 777") && e.message.includes(`chmod 700 ${root}`),
    );
    assert.equal(checkPrivateDir(`${root}/absent`, "state"), false);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("checkPrivateDir() takes a link of ours to a private directory, and refuses a file", async () => {
  const root = await Deno.makeTempDir();
  try {
    Deno.chmodSync(root, 0o700);
    Deno.mkdirSync(`${root}/real`, { mode: 0o700 });
    Deno.symlinkSync(`${root}/real`, `${root}/link`);
    assert.equal(checkPrivateDir(`${root}/link`, "state"), true);
    Deno.writeTextFileSync(`${root}/file`, "");
    assert.throws(() => checkPrivateDir(`${root}/file`, "state"), UnsafeDirectoryError);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

Deno.test("writePrivateFile() replaces the file whole, 0600, leaving no temporary file", async () => {
  const root = await Deno.makeTempDir();
  try {
    const path = `${root}/state.json`;
    Deno.writeTextFileSync(path, "old", { mode: 0o644 });
    await writePrivateFile(path, "new");
    assert.equal(Deno.readTextFileSync(path), "new");
    assert.equal(Deno.statSync(path).mode! & 0o777, 0o600);
    writePrivateFileSync(path, new TextEncoder().encode("newer"));
    assert.equal(Deno.readTextFileSync(path), "newer");
    assert.deepEqual([...Deno.readDirSync(root)].map((e) => e.name), ["state.json"]);
    // A failed write (here: no such folder) leaves nothing behind.
    await assert.rejects(writePrivateFile(`${root}/gone/x.json`, "x"), Deno.errors.NotFound);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});
