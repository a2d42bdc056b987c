/**
 * The warm commands never read `globalThis.process` under Deno. Reading it
 * loads Deno's Node compatibility layer, some 40 ms a command: wire/wire.ts
 * once read it on every connection to the daemon (for the user id it needs
 * only under node and bun), and `ls`, `search` and `call` each became 30–50%
 * slower than before (issue 11's warm-command row; found by bisecting with
 * `deno task bench:ab`). Each command here runs the bundle as users run it,
 * with a preloaded trap that reports every read, against a daemon holding the
 * real server-everything.
 *
 * @module
 */

import assert from "node:assert/strict";
import { eventually, ROOT, schemaCacheFiles, stdioServer, world } from "./_helpers.ts";
import { readSchemaCache } from "../engine/schema_cache.ts";

const TRAP = `${ROOT}tests/fixtures/process_trap.js`;

Deno.test("warm commands do not load the Node compatibility layer", async () => {
  await using w = await world();
  await w.writeConfig({ mcpServers: { everything: stdioServer("everything") } });
  const warm = await w.mcpx(["call", "everything.echo", '{"message":"warm"}']);
  assert.equal(warm.code, 0, warm.stderr);
  // The declarations follow the listing into the cache (decision 0029); until they are there,
  // `types` makes them itself, with json-schema-to-typescript, which is Node code. The warm path
  // is the one with them cached: wait for it.
  // A call does not wait for the listing; `ls --wait` does, then the declarations follow it.
  const listed = await w.mcpx(["ls", "--wait"]);
  assert.equal(listed.code, 0, listed.stderr);
  const declared = await eventually(() => {
    const [cacheFile] = schemaCacheFiles(`${w.dir}/.cache/mcpx`);
    if (cacheFile === undefined) return false;
    const tools = readSchemaCache(`${w.dir}/.cache/mcpx/${cacheFile}`)?.servers.everything?.tools;
    return (tools?.length ?? 0) > 0 && tools!.every((t) => typeof t.declaration === "string");
  }, 90_000);
  assert.ok(declared, "the daemon never stored the declarations");
  // The trap works: a script that reads process is reported.
  const probe = `${w.dir}/reads_process.ts`;
  await Deno.writeTextFile(probe, "globalThis.process;\n");
  const caught = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "--no-config", "--preload", TRAP, probe],
    stderr: "piped",
  }).output();
  assert.match(new TextDecoder().decode(caught.stderr), /MCPX-PROCESS-TRAP/);
  for (
    const args of [
      ["--version"],
      ["ls"],
      ["search", "echo"],
      ["types", "everything"],
      ["types", "everything.echo"],
      ["call", "everything.echo", '{"message":"hi"}'],
      ["status"],
    ]
  ) {
    const out = await w.mcpx(args, { denoFlags: ["--preload", TRAP] });
    assert.equal(out.code, 0, `mcpx ${args.join(" ")}: ${out.stderr}`);
    assert.doesNotMatch(out.stderr, /MCPX-PROCESS-TRAP/, `mcpx ${args.join(" ")}:\n${out.stderr}`);
  }
});
