import assert from "node:assert/strict";
import { runnableOf, runsOf } from "./runs_of.ts";
import { runnableHashes } from "./trust.ts";

const doc = (server: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  mcpServers: { s: server, ...extra },
});

Deno.test("runsOf() shows the command line as written, quoted, without expanding variables", () => {
  const d = doc(
    { command: "sh", args: ["-c", "touch it; echo '${SECRET}'"] },
    { r: { url: "https://x.test/mcp" }, a: { aliasOf: "r" } },
  );
  assert.equal(runsOf(d, "s"), `sh -c 'touch it; echo '\\''\${SECRET}'\\'''`);
  assert.equal(runsOf(d, "r"), "https://x.test/mcp");
  assert.equal(runsOf(d, "a"), "(alias of r) https://x.test/mcp");
});

Deno.test("runsOf() shows env, the directory, the transport and headers: every edit that asks again shows", async (t) => {
  // Issue 9: NODE_OPTIONS added to a trusted server's env asked again with the same line shown.
  const base = { command: "npx", args: ["-y", "pkg"], env: { TOKEN: "${TOKEN}" } };
  const remote = { url: "https://a.test/mcp", headers: { "X-Team": "a" } };
  const cases: [string, Record<string, unknown>, Record<string, unknown>][] = [
    ["env added", base, { ...base, env: { ...base.env, NODE_OPTIONS: "--require /tmp/evil.js" } }],
    ["env reference", base, { ...base, env: { TOKEN: "${OTHER}" } }],
    ["cwd", base, { ...base, cwd: "sub" }],
    ["command", base, { ...base, command: "sh" }],
    ["args", base, { ...base, args: ["-y", "pkg", "--evil"] }],
    ["url", remote, { ...remote, url: "https://b.test/mcp" }],
    ["transport", remote, { ...remote, type: "sse" }],
    ["header added", remote, { ...remote, headers: { ...remote.headers, Authorization: "${GH}" } }],
    ["header reference", { ...remote, headers: { A: "Bearer ${X}" } }, {
      ...remote,
      headers: { A: "Bearer ${Y}" },
    }],
  ];
  for (const [what, before, after] of cases) {
    await t.step(what, async () => {
      const [one, two] = [await runnableHashes(doc(before)), await runnableHashes(doc(after))];
      assert.notEqual(one.s, two.s, "the hash asks again");
      assert.notEqual(
        runsOf(doc(before), "s", { dir: "/p" }),
        runsOf(doc(after), "s", { dir: "/p" }),
      );
    });
  }
  // An ordinary value (a path) is shown; one the redactor takes for a secret by its shape is
  // shown as where it is written, so the line still says the variable is set and where to look.
  const env = { LD_PRELOAD: "/tmp/evil.so", NODE_OPTIONS: "--require /tmp/evil.js" };
  assert.equal(
    runsOf(doc({ ...base, env }), "s", { dir: "/p" }),
    "cd /p && LD_PRELOAD=/tmp/evil.so NODE_OPTIONS='${mcpServers.s.env.NODE_OPTIONS}' npx -y pkg",
  );
});

Deno.test("runnableOf() shows literal secrets as their references and the directory the server starts in", () => {
  const d = doc({
    command: "./srv.sh",
    args: ["--api-key", "sk-live-0123456789"],
    env: { API_TOKEN: "sk-live-abcdefghij", PATH_EXTRA: "/opt/bin", GH: "${GH_TOKEN}" },
    cwd: "sub",
  }, {
    r: {
      url: "https://me:hunter2hunter2@x.test/mcp?api_key=k-0123456789",
      headers: { Authorization: "Bearer sk-live-headerheader", "X-Gh": "Bearer ${GH_TOKEN}" },
    },
  });
  assert.deepEqual(runnableOf(d, "s", { dir: "/real/p" }), {
    command: "./srv.sh",
    args: ["--api-key", "${mcpServers.s.args[1]}"],
    env: {
      API_TOKEN: "${mcpServers.s.env.API_TOKEN}",
      PATH_EXTRA: "/opt/bin",
      GH: "${GH_TOKEN}",
    },
    cwd: "/real/p/sub",
  });
  const r = runnableOf(d, "r");
  assert.deepEqual(r.headers, {
    Authorization: "${mcpServers.r.headers.Authorization}",
    "X-Gh": "Bearer ${GH_TOKEN}",
  });
  for (const secret of ["hunter2hunter2", "k-0123456789", "sk-live"]) {
    assert.ok(!JSON.stringify(r).includes(secret), JSON.stringify(r));
    assert.ok(!runsOf(d, "s").includes(secret) && !runsOf(d, "r").includes(secret));
  }
  // Without a cwd of its own, a stdio server starts in the file's real directory.
  assert.equal(runnableOf(doc({ command: "node" }), "s", { dir: "/real/p" }).cwd, "/real/p");
});
