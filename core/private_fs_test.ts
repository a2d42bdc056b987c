import * as assert from "node:assert/strict";
import { lchownSync } from "node:fs";
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

/** Another user's id for tests that chown (root only). */
const OTHER_UID = 65534;
const ROOT_ONLY = Deno.uid() === 0 ? undefined : "needs root to give a directory to another user";

Deno.test({
  name: "ensurePrivateDir() with from refuses another user's directory anywhere on the way down" +
    (ROOT_ONLY ? ` (skipped: ${ROOT_ONLY})` : ""),
  ignore: ROOT_ONLY !== undefined,
  fn: async () => {
    const root = await Deno.realPath(await Deno.makeTempDir());
    try {
      const state = `${root}/state`;
      Deno.mkdirSync(`${state}/daemons`, { recursive: true, mode: 0o700 });
      Deno.chownSync(`${state}/daemons`, OTHER_UID, OTHER_UID);
      assert.throws(
        () => ensurePrivateDir(`${state}/daemons/x.groups`, "a ledger", { from: state }),
        (e: unknown) =>
          e instanceof UnsafeDirectoryError && e.path === `${state}/daemons` &&
          e.message.includes(`owned by user ${OTHER_UID}, not by you (user 0)`),
      );
      assert.equal(checkPrivateDir(`${state}/daemons/x.groups`, "a ledger"), false);
      // Without `from` only the final directory is judged (its parents may be anything).
      Deno.chownSync(`${state}/daemons`, 0, 0);
      Deno.chmodSync(root, 0o755);
      ensurePrivateDir(`${state}/daemons/x.groups`, "a ledger", { from: state });
      assert.equal(Deno.statSync(state).mode! & 0o777, 0o700);
      assert.equal(Deno.statSync(`${state}/daemons/x.groups`).mode! & 0o777, 0o700);
      assert.equal(Deno.statSync(root).mode! & 0o777, 0o755);
    } finally {
      await Deno.remove(root, { recursive: true });
    }
  },
});

Deno.test({
  name: "checkPrivateDir() refuses another user's link to a directory of ours" +
    (ROOT_ONLY ? ` (skipped: ${ROOT_ONLY})` : ""),
  ignore: ROOT_ONLY !== undefined,
  fn: async () => {
    const root = await Deno.realPath(await Deno.makeTempDir());
    try {
      Deno.mkdirSync(`${root}/real`, { mode: 0o700 });
      Deno.symlinkSync(`${root}/real`, `${root}/link`);
      lchownSync(`${root}/link`, OTHER_UID, OTHER_UID);
      assert.throws(
        () => checkPrivateDir(`${root}/link`, "state"),
        (e: unknown) =>
          e instanceof UnsafeDirectoryError &&
          /a symbolic link owned by user 65534/.test(e.message),
      );
    } finally {
      await Deno.remove(root, { recursive: true });
    }
  },
});
