/**
 * `--inline` (setting `daemon.inline`): the daemon's handler inside the
 * command, for a sandbox that cannot fork a daemon (spec 000, "Running
 * without a daemon"; decision 0051). A call and a script's calls work, and
 * when the command ends nothing of it is left: no daemon, no server, no socket.
 *
 * @module
 */

import assert from "node:assert/strict";
import { stdioServer, world } from "./_helpers.ts";

Deno.test({
  name: "--inline: call and exec run through a daemon inside the command, which leaves no " +
    "process, socket or daemon record behind",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn() {
    await using w = await world();
    await w.writeConfig({ mcpServers: { everything: stdioServer("everything") } });
    const called = await w.mcpx(["--inline", "call", "everything.echo", '{"message":"inline"}']);
    assert.equal(called.code, 0, called.stderr);
    assert.match(called.stdout, /inline/);
    // With a declared namespace beside it, the handler serves the command's configuration.
    await Deno.writeTextFile(
      `${w.dir}/apis.json`,
      JSON.stringify({ apis: [{ name: "petstore", spec: "./petstore.yaml" }] }),
    );
    const declared = await w.mcpx(["--inline", "call", "everything.echo", '{"message":"again"}'], {
      env: { MCPX_PATHS_APIS: `${w.dir}/apis.json` },
    });
    assert.equal(declared.code, 0, declared.stderr);
    assert.match(declared.stdout, /again/);
    assert.deepEqual(w.processes(), [], "a server or a daemon outlived the command");
    assert.deepEqual(entries(`${w.dir}/.state/mcpx/sockets`), [], "a socket was left");
    assert.deepEqual(
      entries(`${w.dir}/.state/mcpx/daemons`).filter((n) => n.endsWith(".json")),
      [],
      "a daemon record was written",
    );
    // The variable as a sandbox would set it; a script's calls reach the same handler.
    const script = await w.mcpx(
      ["exec", 'String(await everything.echo({ message: "from a script" }))'],
      { env: { MCPX_DAEMON_INLINE: "true" } },
    );
    assert.equal(script.code, 0, script.stderr);
    assert.match(script.stdout, /from a script/);
    assert.deepEqual(w.processes(), []);
    // The listing it made went to the schema cache as a daemon's does: types reads it.
    const types = await w.json<{ namespaces: unknown[] }>(["types", "everything.echo"], {
      env: { MCPX_DAEMON_INLINE: "true" },
    });
    assert.equal(types.namespaces.length, 1);
    assert.deepEqual(w.processes(), []);
  },
});

/** The names in `dir`, or none when it does not exist. */
function entries(dir: string): string[] {
  try {
    return [...Deno.readDirSync(dir)].map((e) => e.name);
  } catch {
    return [];
  }
}
