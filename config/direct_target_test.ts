import assert from "node:assert/strict";
import {
  directDocument,
  directFileName,
  isDirectUrl,
  shownUrl,
  stdioTarget,
  urlTarget,
} from "./direct_target.ts";

Deno.test("stdioTarget() names a command after the program it runs", () => {
  const cases: [string, string][] = [
    ["npx -y @modelcontextprotocol/server-everything@2026.8.31 stdio", "server_everything"],
    ["node ./srv/main.js --port 1", "main"],
    ["uvx mcp-server-fetch", "mcp_server_fetch"],
    ["uv run tool.py", "tool"],
    ["/opt/bin/my-server", "my_server"],
    ["docker run -i --rm mcp/github", "github"],
  ];
  for (const [line, namespace] of cases) {
    assert.equal(stdioTarget(line, "/p").namespace, namespace, line);
  }
  const t = stdioTarget(`node "my server.js" 'a b'`, "/p");
  assert.deepEqual(t.entry, { command: "node", args: ["my server.js", "a b"], cwd: "/p" });
});

Deno.test("stdioTarget() refuses a blank line and an unclosed quote", () => {
  assert.throws(() => stdioTarget("  ", "/p"), /--stdio needs a command line/);
  assert.throws(() => stdioTarget(`node "x`, "/p"), /--stdio: .*never closes it/);
});

Deno.test("urlTarget() names a URL by its host and never shows its credentials", () => {
  const t = urlTarget("https://me:pw-secret@mcp.example.com:8443/mcp?token=t0k&x=1", [
    "Authorization: Bearer abc",
  ]);
  assert.equal(t.namespace, "mcp_example_com_8443");
  assert.equal(t.shown, "https://mcp.example.com:8443/mcp?token=…&x=…");
  assert.deepEqual(t.entry.headers, { Authorization: "Bearer abc" });
  assert.throws(() => urlTarget("https://x.test/mcp", ["no colon"]), /is not "Name: value"/);
  assert.throws(() => urlTarget("http://", []), /is not a URL/);
  assert.equal(shownUrl("not a url //u:p@h/x?y=1"), "not a url //h/x?…");
});

Deno.test("isDirectUrl() takes http and https URLs only", () => {
  assert.ok(isDirectUrl("HTTP://h/mcp"));
  assert.ok(!isDirectUrl("everything.echo"));
  assert.ok(!isDirectUrl("file:///x"));
});

Deno.test("directFileName() is one file per entry, whatever the header order", async () => {
  const a = urlTarget("http://h/mcp", ["A: 1", "B: 2"]);
  const b = urlTarget("http://h/mcp", ["B: 2", "A: 1"]);
  assert.equal(await directFileName(a), await directFileName(b));
  assert.match(await directFileName(a), /^url-[0-9a-f]{16}\.json$/);
  assert.notEqual(await directFileName(a), await directFileName(urlTarget("http://h/mcp", [])));
  assert.deepEqual(directDocument(a), {
    mcpServers: { h: a.entry },
    daemon: { idleTimeout: "1m" },
  });
});
