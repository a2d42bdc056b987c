import assert from "node:assert/strict";
import { parseConfig } from "./parse.ts";
import { ConfigError } from "../core/errors.ts";
import type { ServerSpec } from "./types.ts";
import { poolId } from "./pool_id.ts";

const FILE = "/p/.mcp.json";

function servers(entries: Record<string, unknown>, env: Record<string, string> = {}): ServerSpec[] {
  return parseConfig(JSON.stringify({ mcpServers: entries }), FILE, env, { dir: "/real/p" })
    .servers;
}

function problem(roots: unknown): string {
  try {
    servers({ s: { command: "x", mcpx: { roots } } });
  } catch (error) {
    assert.ok(error instanceof ConfigError, String(error));
    return error.message;
  }
  throw new Error("no ConfigError");
}

Deno.test("readRoots() resolves relative roots against the file's real directory", () => {
  const [s] = servers({
    s: { command: "x", mcpx: { roots: [".", "../shared", "/abs/dir/", "${HOME}/w", "."] } },
  }, { HOME: "/home/me" });
  assert.deepEqual(s.roots, ["/real/p", "/real/shared", "/abs/dir", "/home/me/w"]);
});

Deno.test("readRoots() no roots, or an empty list, is none", () => {
  const [a, b] = servers({ a: { command: "x" }, b: { command: "x", mcpx: { roots: [] } } });
  assert.equal(a.roots, undefined);
  assert.equal(b.roots, undefined);
  assert.equal(poolId(a), poolId({ ...a, roots: undefined }));
});

Deno.test("readRoots() roots are part of the pool identity", () => {
  const [a, b] = servers({
    a: { command: "x", mcpx: { roots: ["/one"] } },
    b: { command: "x", mcpx: { roots: ["/two"] } },
  });
  assert.notEqual(a.poolId, b.poolId);
});

Deno.test("readRoots() an alias offers its target's roots unless it names its own", () => {
  const [, same, own] = servers({
    fs: { command: "x", mcpx: { roots: ["/one"] } },
    same: { aliasOf: "fs" },
    own: { aliasOf: "fs", mcpx: { roots: ["/two"] } },
  });
  assert.deepEqual(same.roots, ["/one"]);
  assert.deepEqual(own.roots, ["/two"]);
});

Deno.test("readRoots() an unset variable makes only that server unavailable", () => {
  const [s] = servers({ s: { command: "x", mcpx: { roots: ["${NOPE}/w"] } } });
  assert.equal(s.unavailable?.code, "unset-variable");
  assert.match(s.unavailable!.message, /\$\{NOPE\} is not set.*mcpServers\.s\.mcpx\.roots\[0\]/);
});

Deno.test("readRoots() refuses what is not a list of directories, saying how to write one", () => {
  assert.match(
    problem("."),
    /mcpServers\.s\.mcpx\.roots: must be an array of directories, got "\."/,
  );
  assert.match(
    problem([42]),
    /mcpx\.roots\[0\]: must be a directory \(a non-empty string\), got 42/,
  );
  assert.match(problem([""]), /mcpx\.roots\[0\]: must be a directory/);
});
