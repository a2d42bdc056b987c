/**
 * Start failures name the real cause and never print a secret from a URL.
 */
import assert from "node:assert/strict";
import { freePort, world } from "./_helpers.ts";

Deno.test("a missing cwd is reported as a missing directory, not a missing command", async () => {
  await using w = await world();
  await w.writeConfig({ mcpServers: { m: { command: "sh", args: ["-c", "cat"], cwd: "./nope" } } });
  const call = await w.mcpx(["call", "m.x", "{}"]);
  assert.equal(call.code, 1);
  assert.match(
    call.stderr,
    /working directory .*\/nope does not exist; create it or fix mcpServers\.m\.cwd/,
  );
  assert.doesNotMatch(call.stderr, /command "sh" was not found/);
});

Deno.test("a remote server's URL secrets stay out of error messages", async () => {
  await using w = await world();
  const url = `http://127.0.0.1:${freePort()}/mcp?key=sk-very-secret-777`;
  await w.writeConfig({ mcpServers: { web: { url } } });
  for (const args of [["call", "web.echo", "{}"], ["--json", "status"], ["ls"]]) {
    const result = await w.mcpx(args);
    assert.doesNotMatch(result.stdout + result.stderr, /sk-very-secret-777/, args.join(" "));
  }
  const ls = await w.json(["ls"]);
  assert.equal(ls.namespaces[0].state, "error");
  // The value shows as the place it is written (decision 0017).
  assert.match(ls.namespaces[0].error, /key=\$\{mcpServers\.web\.url\.query\.key\}/);
});
