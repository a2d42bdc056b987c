import assert from "node:assert/strict";
import * as node from "node:path";
import { basename, dirname, isAbsolute, join, resolve } from "./posix_path.ts";

const paths = [
  "",
  "/",
  "//",
  "/a",
  "/a/",
  "/a/b",
  "a",
  "a/",
  "a/b/",
  "./a",
  "../a",
  "/a/../b",
  "/a/./b//c",
  "a/../../b",
  "/../a",
  "a//b",
  ".",
  "..",
  "/a/b/..",
  "/x/.mcp.json",
];

Deno.test("posix_path functions answer as node:path does", () => {
  for (const p of paths) {
    assert.equal(dirname(p), node.dirname(p), `dirname(${JSON.stringify(p)})`);
    assert.equal(basename(p), node.basename(p), `basename(${JSON.stringify(p)})`);
    assert.equal(isAbsolute(p), node.isAbsolute(p), `isAbsolute(${JSON.stringify(p)})`);
    for (const q of paths) {
      assert.equal(join(p, q), node.join(p, q), `join(${JSON.stringify(p)}, ${JSON.stringify(q)})`);
      assert.equal(
        resolve(p, q),
        node.resolve(p, q),
        `resolve(${JSON.stringify(p)}, ${JSON.stringify(q)})`,
      );
    }
  }
  assert.equal(join(), node.join());
  assert.equal(resolve(), node.resolve());
  assert.equal(join("/a", "b", "../c", "d/"), node.join("/a", "b", "../c", "d/"));
});
