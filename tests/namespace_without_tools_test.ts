/**
 * A script that touches a namespace without tools is told why: its server
 * failed to start (with the error's first line), or the configuration hides
 * every tool, never "memory.create_entities is not a function" (issue 8, "The
 * first start on a fresh machine"; spec 000, "Honest failure reporting").
 */

import assert from "node:assert/strict";
import { fixtureServer, world } from "./_helpers.ts";

Deno.test("a script using a namespace without tools gets a NamespaceError saying why", async () => {
  await using w = await world();
  await w.writeConfig({
    mcpServers: {
      // A server that cannot start: it says why on stderr and exits.
      memory: {
        command: Deno.execPath(),
        args: ["eval", "console.error('memory: cannot open the store'); Deno.exit(3)"],
      },
      echo: fixtureServer({ mcpx: { excludeTools: ["*"] } }),
    },
  });
  await Deno.writeTextFile(
    `${w.dir}/use.ts`,
    "export default async function main(args: string[]) {\n" +
      "  try {\n" +
      "    await (tools as any)[args[0]].create_entities({ entities: [] });\n" +
      "  } catch (error) {\n" +
      "    if (!(error instanceof NamespaceError)) throw error;\n" +
      "    return { code: error.code, namespace: error.namespace, member: error.member };\n" +
      "  }\n" +
      "}\n",
  );
  const r = await w.mcpx(["exec", "memory.create_entities({ entities: [] })"]);
  assert.equal(r.code, 1, r.stderr);
  assert.match(
    r.stderr,
    /error: NamespaceError: memory\.create_entities: namespace memory has no tools: its server failed to start \([^)\n]+\)/,
  );
  assert.doesNotMatch(r.stderr, /is not a function/);
  assert.match(r.stderr, /at .*<mcpx exec code>:1:\d+/, "where the code touched it");

  const caught = await w.mcpx(["run", "./use.ts", "memory"]);
  assert.equal(caught.code, 0, caught.stderr);
  assert.deepEqual(JSON.parse(caught.stdout), {
    code: "listing-failed",
    namespace: "memory",
    member: "create_entities",
  });

  const hidden = await w.mcpx(["exec", "echo.echo({ text: 'x' })"]);
  assert.equal(hidden.code, 1, hidden.stderr);
  assert.match(hidden.stderr, /namespace echo has no tools: the configuration hides all 5/);
});
