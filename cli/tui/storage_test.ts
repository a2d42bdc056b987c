import assert from "node:assert/strict";
import { storageRows } from "./storage.ts";

Deno.test("storageRows() groups what mcpx keeps by what it is, largest first", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const state = `${dir}/state`;
    const cache = `${dir}/cache`;
    const write = async (path: string, bytes: number) => {
      await Deno.mkdir(path.slice(0, path.lastIndexOf("/")), { recursive: true });
      await Deno.writeFile(path, new Uint8Array(bytes));
    };
    await write(`${state}/logs/2026-12-07.jsonl`, 300);
    await write(`${state}/logs/index.db`, 500);
    await write(`${state}/oauth/token.json`, 20);
    await write(`${state}/trust.json`, 10);
    await write(`${state}/mystery/thing`, 1);
    await write(`${cache}/schemas-abc.json`, 100);
    await write(`${cache}/schemas-abc/everything.json`, 900);
    const rows = await storageRows({ stateDir: state, cacheDir: cache, logsDir: `${state}/logs` });
    assert.deepEqual(rows.map((r) => [r.what, r.bytes, r.files]), [
      ["schema cache", 1000, 2],
      ["log index", 500, 1],
      ["log", 300, 1],
      ["OAuth tokens", 20, 1],
      ["trust store", 10, 1],
      ["mystery", 1, 1],
    ]);
    assert.equal(rows[0].path, `${cache}/schemas-*`);
    assert.equal(rows[0].size, "1000 B");
    // A folder that is not there costs nothing.
    assert.deepEqual(
      await storageRows({ stateDir: `${dir}/no`, cacheDir: `${dir}/no`, logsDir: `${dir}/no` }),
      [],
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
