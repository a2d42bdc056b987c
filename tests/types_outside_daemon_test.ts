/**
 * The daemon lists a real server and stores its TypeScript declarations
 * without loading `json-schema-to-typescript` itself: a process of its own
 * makes them and exits (engine/type_generator.ts, decision 0029). The daemon
 * runs in the foreground under the V8 inspector, and every script its
 * isolate parsed (the inspector's `Debugger.scriptParsed`, sent for each
 * script already loaded and each one after) is read after the listing.
 */

import assert from "node:assert/strict";
import { background, eventually, freePort, ROOT, stdioServer, world } from "./_helpers.ts";
import { readSchemaCache } from "../engine/schema_cache.ts";

/** A Chrome DevTools Protocol session on one inspector target. */
interface Inspector extends Disposable {
  /** Sends a command and resolves with its result. */
  send(method: string, params?: Record<string, unknown>): Promise<unknown>;
  /** URL of every script parsed so far. */
  scripts: string[];
}

/** Connects to the first target of the inspector on `port`, waiting up to `ms` for one. */
async function inspect(port: number, ms: number): Promise<Inspector> {
  const end = Date.now() + ms;
  let targets: { webSocketDebuggerUrl: string }[] = [];
  while (true) {
    try {
      targets = await (await fetch(`http://127.0.0.1:${port}/json/list`)).json();
    } catch (error) {
      if (Date.now() > end) throw error;
    }
    if (targets.length > 0) break;
    if (Date.now() > end) throw new Error(`no inspector target on port ${port} after ${ms} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
  const socket = new WebSocket(targets[0].webSocketDebuggerUrl);
  await new Promise((resolve, reject) => {
    socket.onopen = resolve;
    socket.onerror = reject;
  });
  const scripts: string[] = [];
  const waiting = new Map<number, (result: unknown) => void>();
  let next = 0;
  socket.onmessage = (event) => {
    const message = JSON.parse(event.data);
    if (message.method === "Debugger.scriptParsed") scripts.push(message.params.url);
    if (message.id !== undefined) waiting.get(message.id)?.(message.result ?? message.error);
  };
  return {
    scripts,
    send(method, params = {}) {
      const id = ++next;
      socket.send(JSON.stringify({ id, method, params }));
      return new Promise((resolve) => waiting.set(id, resolve));
    },
    [Symbol.dispose]() {
      socket.close();
    },
  };
}

Deno.test("the daemon stores a real server's declarations without loading json-schema-to-typescript", async () => {
  await using w = await world();
  await w.writeConfig({ mcpServers: { everything: stdioServer("everything", ["stdio"]) } });
  const port = freePort();
  await using daemon = background(Deno.execPath(), [
    "run",
    "-A",
    `--inspect=127.0.0.1:${port}`,
    "--config",
    `${ROOT}deno.json`,
    `${ROOT}cli/main.ts`,
    "daemon",
  ], { env: w.env, cwd: w.dir });
  using inspector = await inspect(port, 30_000).catch((error) => {
    throw new Error(`${error}\n${daemon.output()}`);
  });
  await inspector.send("Debugger.enable");
  // The inspector answers once the isolate exists, before the daemon listens: wait for its socket.
  const listening = await eventually(
    async () => (await w.json(["daemons"])).daemons.length === 1,
    30_000,
  );
  assert.ok(listening, `the foreground daemon never answered:\n${daemon.output()}`);

  // A cold cache: ls lists the server through the daemon in the foreground.
  const ls = await w.json(["ls"]);
  assert.equal(ls.namespaces[0].state, "ready", `${JSON.stringify(ls)}\n${daemon.output()}`);
  assert.ok(!daemon.exited(), `ls went to another daemon:\n${daemon.output()}`);
  // The index (a file); each server's whole entry is in the folder beside it (decision 0028).
  const [cacheFile] = [...Deno.readDirSync(`${w.dir}/.cache/mcpx`)]
    .filter((e) => e.isFile && /^schemas-[0-9a-f]+\.json$/.test(e.name)).map((e) => e.name);
  const cachedTools = () =>
    readSchemaCache(`${w.dir}/.cache/mcpx/${cacheFile}`)?.servers.everything?.tools ?? [];
  // The listing is stored first; the declarations follow it into the cache (decision 0029).
  await eventually(() => cachedTools().every((t) => typeof t.declaration === "string"), 60_000);
  const tools = cachedTools();
  const echo = tools.find((t) => t.name === "echo");
  assert.match(echo?.declaration ?? "", /^function echo\(args: \{/m, "declarations were stored");
  assert.ok(tools.every((t) => typeof t.declaration === "string"), "every tool has one");

  // Every event sent before this answer has arrived.
  await inspector.send("Runtime.evaluate", { expression: "1" });
  assert.ok(
    inspector.scripts.some((url) => url.includes("/@modelcontextprotocol/client/")),
    `the inspector sees the daemon's npm packages: ${inspector.scripts.length} scripts`,
  );
  assert.deepEqual(
    inspector.scripts.filter((url) => /json-schema-to-typescript|\/prettier\//.test(url)),
    [],
  );
});
