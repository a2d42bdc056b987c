/**
 * A server whose listing failed is not started again by every `ls`,
 * `search` or `catalog`: the failure and its cooldown live in the schema
 * cache entry (no `listedAt`, so it never reads as "0 tools"), so they hold
 * across commands and across a daemon restart, and discovery lists the
 * server again once the cooldown is over (issue 8; spec 000, "Honest failure
 * reporting").
 */

import assert from "node:assert/strict";
import { fixtureServer, world } from "./_helpers.ts";

interface CacheEntry {
  listedAt?: string;
  tools: unknown[];
  error?: { message: string; at: string; count?: number; retryAt?: string };
}

Deno.test("a failed listing is kept with its cooldown, which holds across commands and daemons", async (t) => {
  await using w = await world();
  const starts = `${w.dir}/starts`;
  await w.writeConfig({
    mcpServers: {
      fx: fixtureServer(),
      broken: {
        command: "sh",
        args: ["-c", `echo start >> '${starts}'; echo 'fatal: no API key' >&2; exit 3`],
      },
    },
  });
  const startCount = () => {
    try {
      return Deno.readTextFileSync(starts).split("\n").filter(Boolean).length;
    } catch {
      return 0;
    }
  };
  const cacheFile = () => {
    const dir = `${w.dir}/.cache/mcpx`;
    const name = [...Deno.readDirSync(dir)].find((e) => /^schemas-.*\.json$/.test(e.name))!.name;
    return `${dir}/${name}`;
  };
  const entry = (): CacheEntry => JSON.parse(Deno.readTextFileSync(cacheFile())).servers.broken;

  await t.step("the cache entry of a failed listing holds the error and no timestamp", async () => {
    const { namespaces } = await w.json(["ls"]);
    assert.equal(
      namespaces.find((n: { namespace: string }) => n.namespace === "broken").state,
      "error",
    );
    assert.equal(startCount(), 1);
    const e = entry();
    assert.equal(e.listedAt, undefined, JSON.stringify(e));
    assert.deepEqual(e.tools, []);
    assert.match(e.error!.message, /exited with code 3/);
    assert.equal(e.error!.count, 1);
    assert.ok(Date.parse(e.error!.retryAt!) > Date.parse(e.error!.at), JSON.stringify(e.error));
  });

  await t.step("ls, search and catalog do not start it again", async () => {
    for (const args of [["ls"], ["search", "echo"], ["catalog"], ["ls"]]) {
      const r = await w.mcpx(args);
      assert.ok(r.code === 0 || r.code === 1, `${args}: ${r.stderr}`);
      assert.equal(startCount(), 1, `mcpx ${args.join(" ")} started the broken server again`);
    }
  });

  await t.step("nor does a new daemon: the cooldown is in the cache, not in memory", async () => {
    await w.mcpx(["stop"]);
    const call = await w.mcpx(["call", "fx.echo", '{"text":"new daemon"}']);
    assert.equal(call.code, 0, call.stderr);
    const { namespaces } = await w.json(["ls"]);
    const row = namespaces.find((n: { namespace: string }) => n.namespace === "broken");
    assert.equal(row.state, "error");
    assert.match(row.error, /fatal: no API key/);
    assert.equal(startCount(), 1);
  });

  await t.step(
    "once the cooldown is over, discovery lists it again and doubles the cooldown",
    async () => {
      await w.mcpx(["stop"]);
      const path = cacheFile();
      const file = JSON.parse(Deno.readTextFileSync(path));
      file.servers.broken.error.retryAt = new Date(Date.now() - 1000).toISOString();
      Deno.writeTextFileSync(path, JSON.stringify(file));
      await w.json(["ls"]);
      assert.equal(startCount(), 2);
      const e = entry();
      assert.equal(e.listedAt, undefined);
      assert.equal(e.error!.count, 2);
      assert.equal(Date.parse(e.error!.retryAt!) - Date.parse(e.error!.at), 60_000);
    },
  );
});
