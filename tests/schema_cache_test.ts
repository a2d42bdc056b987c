/**
 * The schema cache outlives the daemon and the server's command: after the
 * server's program is deleted, discovery still answers from the cache and
 * only a call (which needs the server) fails, clearly.
 */

import assert from "node:assert/strict";
import { eventually, SERVERS, STACK_LINE, stdioServer, world } from "./_helpers.ts";

Deno.test("ls, types and search answer from the cache after the server's command is deleted", async (t) => {
  await using w = await world();
  const wrapper = `${w.dir}/bin/everything-server`;
  await Deno.mkdir(`${w.dir}/bin`);
  await Deno.writeTextFile(
    wrapper,
    `#!/bin/sh\nexec ${SERVERS.everything.map((a) => `'${a}'`).join(" ")} stdio\n`,
  );
  await Deno.chmod(wrapper, 0o755);
  await w.writeConfig({ mcpServers: { everything: { command: wrapper } } });

  let tools = 0;
  await t.step("ls lists the server once through its wrapper", async () => {
    const { namespaces } = await w.json(["ls"]);
    assert.equal(namespaces[0].state, "ready", JSON.stringify(namespaces[0]));
    tools = namespaces[0].tools;
    assert.ok(tools > 0);
    assert.deepEqual(await w.json(["stop"]), { stopped: 1 });
    assert.ok(await eventually(() => w.processes().length === 0), `left: ${w.processes()}`);
  });

  await t.step("with the wrapper deleted, discovery still answers from the cache", async () => {
    await Deno.remove(wrapper);
    const { namespaces } = await w.json(["ls"]);
    assert.deepEqual(
      [namespaces[0].state, namespaces[0].tools],
      ["ready", tools],
      JSON.stringify(namespaces[0]),
    );
    const types = await w.mcpx(["types", "everything.echo"]);
    assert.equal(types.code, 0, types.stderr);
    assert.match(types.stdout, /function echo\(args: \{/);
    const search = await w.json(["search", "echo"]);
    assert.equal(search.hits[0].function, "everything.echo");
    const catalog = await w.json(["catalog"]);
    assert.ok(catalog.shown > 0);
    assert.deepEqual(w.processes(), [], "discovery started nothing");
  });

  await t.step("call fails clearly because the command is gone", async () => {
    const r = await w.mcpx(["call", "everything.echo", '{"message":"hi"}']);
    assert.equal(r.code, 1);
    assert.equal(r.stdout, "");
    assert.match(
      r.stderr,
      /^error: server "everything": command "[^"]*everything-server" was not found/,
    );
    assert.doesNotMatch(r.stderr, STACK_LINE);
  });

  await t.step("the cached tools survive a failed start and a failed refresh", async () => {
    const { namespaces } = await w.json(["ls"]);
    assert.equal(namespaces[0].tools, tools);
    const refresh = await w.mcpx(["--json", "refresh"]);
    assert.equal(refresh.code, 1);
    assert.match(JSON.parse(refresh.stdout).servers.everything.error, /was not found/);
    const after = await w.json(["ls"]);
    assert.deepEqual([after.namespaces[0].state, after.namespaces[0].tools], ["error", tools]);
    assert.match(after.namespaces[0].error, /was not found/);
    const search = await w.json(["search", "echo"]);
    assert.equal(search.hits[0].function, "everything.echo");
  });
});

Deno.test("an edit that leaves a server unchanged does not list it again", async () => {
  await using w = await world();
  const server = stdioServer("everything", ["stdio"]);
  await w.writeConfig({ mcpServers: { everything: server } });
  const before = await w.json(["ls"]);
  assert.equal(before.namespaces[0].state, "ready");
  await w.mcpx(["stop"]);
  assert.ok(await eventually(() => w.processes().length === 0));
  // Same server, new bytes: a description and a comment-like extra field.
  await w.writeConfig(
    `// edited\n${
      JSON.stringify({ mcpServers: { everything: { ...server, mcpx: { description: "edited" } } } })
    }`,
  );
  const after = await w.json(["ls"]);
  assert.equal(after.namespaces[0].state, "ready");
  assert.equal(after.namespaces[0].tools, before.namespaces[0].tools);
  assert.equal(after.namespaces[0].description, "edited");
  assert.deepEqual(w.processes(), [], "no daemon and no server started for the edit");
});
