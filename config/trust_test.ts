import assert from "node:assert/strict";
import {
  projectSettingNames,
  runnableHashes,
  settingsHash,
  trustChecked,
  trustCommand,
  TrustGate,
} from "./trust.ts";
import { readTrustStore, trustStorePath, updateTrustStore } from "./trust_store.ts";
import type { ServerSpec } from "./types.ts";

const doc = (server: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  mcpServers: { s: server, ...extra },
});
const base = {
  command: "npx",
  args: ["-y", "pkg"],
  env: { TOKEN: "${TOKEN}" },
  mcpx: { description: "one" },
};

Deno.test("runnableHashes() changes with what runs, not with descriptions or pool settings", async (t) => {
  const [before] = [await runnableHashes(doc(base))];
  const cases: [string, Record<string, unknown>, boolean][] = [
    ["description", { ...base, mcpx: { description: "two", tags: ["x"] } }, false],
    ["pool settings", { ...base, mcpx: { ...base.mcpx, min: 2, scope: "session" } }, false],
    ["tool filters", { ...base, mcpx: { ...base.mcpx, excludeTools: ["a"] } }, false],
    ["key order", { mcpx: base.mcpx, env: base.env, args: base.args, command: "npx" }, false],
    ["command", { ...base, command: "sh" }, true],
    ["args", { ...base, args: ["-y", "pkg", "--evil"] }, true],
    ["env", { ...base, env: { TOKEN: "${OTHER}" } }, true],
    ["cwd", { ...base, cwd: "/tmp" }, true],
    ["url", { url: "https://a.test/mcp" }, true],
    ["headers", { ...base, headers: { Authorization: "Bearer ${GH}" } }, true],
    ["type", { ...base, type: "stdio" }, true],
  ];
  for (const [what, server, changes] of cases) {
    await t.step(`${what}: ${changes ? "changes" : "keeps"} the hash`, async () => {
      const after = await runnableHashes(doc(server));
      assert.equal(after.s !== before.s, changes);
    });
  }
});

Deno.test("runnableHashes() of an alias covers its target's process", async () => {
  const alias = { aliasOf: "t", mcpx: { tools: ["a"] } };
  const one = await runnableHashes(doc(alias, { t: { command: "a" } }));
  const two = await runnableHashes(doc(alias, { t: { command: "b" } }));
  assert.notEqual(one.s, two.s);
});

Deno.test("trustChecked() asks only for a project's file under ask", () => {
  assert.equal(trustChecked("project", "ask"), true);
  assert.equal(trustChecked("project", "always"), false);
  assert.equal(trustChecked("user", "ask"), false);
  assert.equal(trustChecked("named", "ask"), false);
});

Deno.test("TrustGate: new file, trusted, changed server, added server; the store is read again", async () => {
  const stateDir = await Deno.makeTempDir();
  try {
    const open = (document: Record<string, unknown>) =>
      TrustGate.open({ file: "/p/.mcp.json", realPath: "/real/.mcp.json", document, stateDir });
    const first = await open(doc(base));
    assert.equal(first.problem("s")?.reason, "new-file");
    assert.equal(first.problem("s")?.trustCommand, trustCommand("/p/.mcp.json"));
    assert.match(first.problem("s")!.message, /ask its user to run that, not run it itself/);
    await updateTrustStore(stateDir, (files) => {
      files["/real/.mcp.json"] = { trustedAt: "2026-01-01T00:00:00Z", servers: first.hashes };
    });
    // The same gate sees the store change on disk (a running daemon after `mcpx trust`).
    assert.equal(first.problem("s"), undefined);
    const edited = await open(doc({ ...base, args: ["other"] }, { n: { command: "x" } }));
    assert.equal(edited.problem("s")?.reason, "changed");
    assert.equal(edited.problem("n")?.reason, "new-server");
    const spec = (name: string) => ({ name }) as ServerSpec;
    const marked = edited.mark([spec("s"), spec("n")]);
    assert.deepEqual(marked.map((s) => s.unavailable?.code), ["untrusted", "untrusted"]);
    assert.equal((await Deno.stat(trustStorePath(stateDir))).mode! & 0o777, 0o600);
  } finally {
    await Deno.remove(stateDir, { recursive: true });
  }
});

Deno.test("readTrustStore(): a damaged store keeps what it can read and says so; a bad entry is skipped", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const path = trustStorePath(dir);
    await Deno.writeTextFile(path, "{");
    const damaged = readTrustStore(path);
    assert.deepEqual(damaged.files, {});
    assert.match(damaged.problems[0], /trust store .*trust\.json is damaged/);
    await Deno.writeTextFile(
      path,
      JSON.stringify({
        version: 1,
        files: { "/a": null, "/b": { trustedAt: "t", servers: { s: "h" } } },
      }),
    );
    const partly = readTrustStore(path);
    assert.deepEqual(Object.keys(partly.files), ["/b"]);
    assert.match(partly.problems[0], /entry for \/a is damaged/);
    // Cut short after one whole record: that one stays trusted, nothing else is.
    const whole = JSON.stringify({
      version: 1,
      files: {
        "/b": { trustedAt: "t", servers: { s: "h" } },
        "/c": { trustedAt: "t", servers: { s: "h" } },
      },
    });
    await Deno.writeTextFile(path, whole.slice(0, whole.indexOf('"/c"') + 8));
    const cut = readTrustStore(path);
    assert.deepEqual(Object.keys(cut.files), ["/b"]);
    assert.match(cut.problems[0], /is damaged .* the 1 file read before the damage stay trusted/);
    // Written over by `mcpx trust`: the damaged bytes are kept beside it first.
    const { keptDamaged } = await updateTrustStore(dir, (files) => {
      files["/d"] = { trustedAt: "t", servers: {} };
    });
    assert.ok(keptDamaged?.startsWith(`${path}.damaged-`), keptDamaged);
    assert.equal(Deno.readTextFileSync(keptDamaged!), whole.slice(0, whole.indexOf('"/c"') + 8));
    assert.deepEqual(Object.keys(readTrustStore(path).files), ["/b", "/d"]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("settingsHash() covers a project's settings, not its servers or userOnly settings", async (t) => {
  const base = { mcpServers: { s: { command: "x" } }, script: { permissions: "none" } };
  const before = await settingsHash(base);
  const cases: [string, Record<string, unknown>, boolean][] = [
    ["a server", { ...base, mcpServers: { s: { command: "y" } } }, false],
    ["the trust setting", { ...base, security: { trustProjectConfigs: "always" } }, false],
    ["key order", { script: { permissions: "none" }, mcpServers: base.mcpServers }, false],
    ["a setting's value", { ...base, script: { permissions: "all" } }, true],
    ["a setting added", { ...base, logging: { dir: "./logs" } }, true],
    ["an unknown key", { ...base, paths: { scripst: "x" } }, true],
  ];
  for (const [what, document, changes] of cases) {
    await t.step(`${what}: ${changes ? "changes" : "keeps"} the hash`, async () => {
      assert.equal((await settingsHash(document)) !== before, changes);
    });
  }
  assert.deepEqual(
    projectSettingNames({ ...base, logging: { dir: "d" }, security: { trustProjectConfigs: "x" } }),
    ["logging.dir", "script.permissions"],
  );
});

Deno.test("TrustGate: servers named like Object members are trusted and asked about as any other", async () => {
  const stateDir = await Deno.makeTempDir();
  try {
    const open = (document: Record<string, unknown>) =>
      TrustGate.open({ file: "/p/.mcp.json", realPath: "/real/.mcp.json", document, stateDir });
    const named = JSON.parse(
      '{"mcpServers": {"__proto__": {"command": "a"}, "toString": {"command": "b"}}}',
    );
    const first = await open(named);
    assert.deepEqual(Object.keys(first.hashes).sort(), ["__proto__", "toString"]);
    await updateTrustStore(stateDir, (files) => {
      files["/real/.mcp.json"] = { trustedAt: "2026-01-01T00:00:00Z", servers: first.hashes };
    });
    assert.equal(first.problem("__proto__"), undefined);
    assert.equal(first.problem("toString"), undefined);
    named.mcpServers.constructor = { command: "c" };
    assert.equal((await open(named)).problem("constructor")?.reason, "new-server");
  } finally {
    await Deno.remove(stateDir, { recursive: true });
  }
});
