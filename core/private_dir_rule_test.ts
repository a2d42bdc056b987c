import assert from "node:assert/strict";
import {
  judgePrivateDir,
  type PathFacts,
  privateDirMessage,
  type PrivateDirVerdict,
  stickySocketIsOurs,
} from "./private_dir_rule.ts";

const ME = 1000;
const dir = (uid: number, mode: number): PathFacts => ({
  isDirectory: true,
  isSymlink: false,
  uid,
  mode: 0o40000 | mode,
});
const link = (uid: number): PathFacts => ({
  isDirectory: false,
  isSymlink: true,
  uid,
  mode: 0o120777,
});
const file: PathFacts = { isDirectory: false, isSymlink: false, uid: ME, mode: 0o100600 };

Deno.test("judgePrivateDir() judges the final directory by owner and mode", async (t) => {
  const cases: [string, PathFacts | undefined, PathFacts | undefined, PrivateDirVerdict][] = [
    ["absent", undefined, undefined, { exists: false }],
    ["ours, 0700", dir(ME, 0o700), undefined, { exists: true, readable: false }],
    ["ours, 0755: usable, others may read", dir(ME, 0o755), undefined, {
      exists: true,
      readable: true,
    }],
    ["ours, 0777", dir(ME, 0o777), undefined, {
      exists: true,
      problem: { kind: "writable", mode: 0o777 },
    }],
    ["ours, 0770 (group-writable)", dir(ME, 0o770), undefined, {
      exists: true,
      problem: { kind: "writable", mode: 0o770 },
    }],
    ["ours, sticky 1777 as /tmp", dir(ME, 0o1777), undefined, {
      exists: true,
      problem: { kind: "writable", mode: 0o1777 },
    }],
    ["another user's, 0700", dir(1001, 0o700), undefined, {
      exists: true,
      problem: { kind: "not-owner", owner: 1001, link: false },
    }],
    ["a file", file, undefined, { exists: true, problem: { kind: "not-directory" } }],
    ["our link to our 0700 directory", link(ME), dir(ME, 0o700), {
      exists: true,
      readable: false,
    }],
    ["our link to another user's directory", link(ME), dir(1001, 0o700), {
      exists: true,
      problem: { kind: "not-owner", owner: 1001, link: false },
    }],
    ["another user's link to our directory", link(1001), dir(ME, 0o700), {
      exists: true,
      problem: { kind: "not-owner", owner: 1001, link: true },
    }],
    ["our dangling link", link(ME), undefined, { exists: false }],
  ];
  for (const [name, lstat, stat, expected] of cases) {
    await t.step(name, () => {
      const look = (_: string, follow: boolean) => follow ? stat : lstat;
      assert.deepEqual(judgePrivateDir("/d", ME, look), expected);
    });
  }
});

Deno.test("judgePrivateDir() accepts whatever exists where there are no user ids", () => {
  assert.deepEqual(judgePrivateDir("/d", null, () => dir(1001, 0o777)), { exists: true });
});

Deno.test("privateDirMessage() names the directory, the problem and the fix", () => {
  const owner = privateDirMessage("/tmp/mcpx-1000", "mcpx's daemon sockets", ME, {
    kind: "not-owner",
    owner: 1001,
    link: false,
  });
  assert.match(owner, /^\/tmp\/mcpx-1000 holds mcpx's daemon sockets/);
  assert.match(owner, /owned by user 1001, not by you \(user 1000\)/);
  assert.match(owner, /XDG_RUNTIME_DIR/);
  const writable = privateDirMessage("/s", "state", ME, { kind: "writable", mode: 0o777 });
  assert.match(writable, /mode 777/);
  assert.match(writable, /`chmod 700 \/s`/);
});

Deno.test("stickySocketIsOurs() lets a socket this user owns, or none, through a shared sticky directory", () => {
  const entries: Record<
    string,
    { isDirectory: boolean; isSymlink: boolean; uid: number; mode: number }
  > = {
    "/tmp": { isDirectory: true, isSymlink: false, uid: 0, mode: 0o41777 },
    "/tmp/mine.sock": { isDirectory: false, isSymlink: false, uid: 1000, mode: 0o140755 },
    "/tmp/theirs.sock": { isDirectory: false, isSymlink: false, uid: 1001, mode: 0o140755 },
    "/shared": { isDirectory: true, isSymlink: false, uid: 0, mode: 0o40777 },
  };
  const look = (path: string) => entries[path];
  assert.equal(stickySocketIsOurs("/tmp", "/tmp/mine.sock", 1000, look), true);
  assert.equal(stickySocketIsOurs("/tmp", "/tmp/absent.sock", 1000, look), true);
  assert.equal(stickySocketIsOurs("/tmp", "/tmp/theirs.sock", 1000, look), false);
  // Without the sticky bit anyone may swap the file: the directory rule's refusal stands.
  assert.equal(stickySocketIsOurs("/shared", "/shared/absent.sock", 1000, look), false);
});
