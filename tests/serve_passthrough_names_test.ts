/**
 * `serve --passthrough` lists an upstream's tools under names a strict client
 * accepts (`^[A-Za-z0-9_-]{1,64}$`; cli/serve/passthrough_names.ts) and calls
 * each by its own name. The upstream is the odd-names fixture with extra
 * tools named `a.b`, `c/d` and a 70-character name. (Two names one strict
 * name would share are kept apart earlier, by the namespace's own rule for
 * function names, which hides the later one with a warning; mapNames' own
 * example covers its side.)
 */

import assert from "node:assert/strict";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { fixtureServer, mcpxArgv, world } from "./_helpers.ts";
import { STRICT_NAME } from "../cli/serve/passthrough_names.ts";

Deno.test("serve --passthrough names tools for strict clients and maps their calls back", async () => {
  await using w = await world();
  const long = `long.${"x".repeat(65)}`;
  const extra = ["a.b", "c/d", long];
  await Deno.writeTextFile(`${w.dir}/extra.txt`, extra.join("\n"));
  await w.writeConfig({
    mcpServers: {
      odd: fixtureServer({
        fixture: "odd_names",
        env: { ODD_NAMES_EXTRA: `${w.dir}/extra.txt` },
      }),
    },
  });
  const transport = new StdioClientTransport({
    command: Deno.execPath(),
    args: mcpxArgv(["serve", "--passthrough", "odd"]).slice(1),
    cwd: w.dir,
    env: w.env,
    stderr: "inherit",
  });
  const client = new Client({ name: "strict-client", version: "1.0.0" });
  await client.connect(transport);
  try {
    const { tools } = await client.listTools();
    const names = tools.map((t) => t.name);
    for (const name of names) assert.match(name, STRICT_NAME);
    const longName = names.find((n) => n.startsWith("long_"))!;
    assert.ok(longName, JSON.stringify(names));
    assert.equal(longName.length, 64);
    assert.deepEqual(names.filter((n) => /^(a_b|a\.b|c_d|long)/.test(n)), ["a_b", "c_d", longName]);
    const text = async (name: string) =>
      ((await client.callTool({ name, arguments: { x: "1" } })).content as { text: string }[])[0]
        .text;
    assert.equal(await text("c_d"), 'called c/d with {"x":"1"}');
    assert.equal(await text(longName), `called ${long} with {"x":"1"}`);
    assert.equal(await text("a_b"), 'called a.b with {"x":"1"}');
  } finally {
    await client.close();
  }
});
