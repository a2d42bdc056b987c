/**
 * `mcpx status` while the daemon's socket directory is refused (issue 24):
 * it said `idle`; it says `refused`, and why (core/private_dir_rule.ts).
 */

import assert from "node:assert/strict";
import { home } from "./_home.ts";

Deno.test("status says the socket directory is refused, and why, in text and --json", async () => {
  await using h = await home();
  Deno.writeTextFileSync(
    `${h.dir}/.mcp.json`,
    JSON.stringify({ mcpServers: { fx: { command: "mcpx-test-never-started" } } }),
  );
  const sockets = `${h.state}/sockets`;
  Deno.mkdirSync(sockets, { recursive: true });
  Deno.chmodSync(h.state, 0o700);
  Deno.chmodSync(sockets, 0o777);

  const json = await h.run(["status", "--json"]);
  assert.equal(json.code, 0, json.stderr);
  const output = JSON.parse(json.stdout);
  assert.deepEqual(output.servers.map((r: { state: string }) => r.state), ["refused"]);
  assert.equal(output.refused.directory, sockets);
  assert.match(output.refused.message, /other users can write into it \(mode 777\)/);
  assert.match(output.refused.message, new RegExp(`chmod 700 ${sockets}`));

  const text = await h.run(["status"]);
  assert.equal(text.code, 0, text.stderr);
  assert.doesNotMatch(text.stdout, /\bidle\b/);
  assert.match(text.stdout, /^fx .* refused\s*$/m);
  assert.match(
    text.stdout,
    new RegExp(`no daemon can run: its socket directory is refused: ${sockets} holds`),
  );
});
