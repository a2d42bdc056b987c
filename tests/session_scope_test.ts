/**
 * A session-scoped server called without a session key: the call works, but
 * gets a process of its own that ends with it, so mcpx says so once, on
 * stderr, and how to keep one.
 */
import assert from "node:assert/strict";
import { fixtureServer, world } from "./_helpers.ts";

const fixture = (scope?: string) => fixtureServer(scope ? { mcpx: { scope } } : {});

Deno.test("call of a session-scoped server without a session prints one note", async (t) => {
  await using w = await world();
  await w.writeConfig({
    mcpServers: {
      sess: fixture("session"),
      parent: fixture("parent-session"),
      glob: fixture(),
    },
  });
  const none = { MCPX_SESSION_ID: "", MCPX_PARENT_SESSION_ID: "" };
  const call = (ns: string, args: string[] = [], env: Record<string, string> = {}) =>
    w.mcpx(["call", `${ns}.echo`, '{"text":"hi"}', ...args], { env: { ...none, ...env } });
  const notes = (stderr: string) => stderr.split("\n").filter((l) => l.startsWith("note:"));

  const cases: [string, string, string[], Record<string, string>, boolean][] = [
    ["session scope, no session", "sess", [], {}, true],
    ["session scope, --session", "sess", ["--session", "k"], {}, false],
    ["session scope, MCPX_SESSION_ID", "sess", [], { MCPX_SESSION_ID: "k" }, false],
    ["parent-session scope, no session", "parent", [], {}, true],
    ["parent-session scope, MCPX_PARENT_SESSION_ID", "parent", [], {
      MCPX_PARENT_SESSION_ID: "p",
    }, false],
    ["parent-session scope, --session", "parent", ["--session", "k"], {}, false],
    ["global scope", "glob", [], {}, false],
  ];
  for (const [name, ns, args, env, noted] of cases) {
    await t.step(`${name}: ${noted ? "one note" : "no note"}`, async () => {
      const r = await call(ns, args, env);
      assert.equal(r.code, 0, r.stderr);
      assert.equal(r.stdout, "hi\n");
      if (!noted) {
        assert.deepEqual(notes(r.stderr), []);
        return;
      }
      assert.equal(notes(r.stderr).length, 1, r.stderr);
      assert.match(r.stderr, /a process of its own that ends with it/);
      assert.match(r.stderr, /--session <key>/);
      assert.match(r.stderr, /MCPX_SESSION_ID/);
    });
  }
});
