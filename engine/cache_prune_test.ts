import * as assert from "node:assert/strict";
import { EXEC_LEFTOVER_MS, pruneCache } from "./cache_prune.ts";

const DAY = 86_400_000;

/** Writes each file under `cache` (its folders made), last used `age` ms before `now`. */
async function writeAged(cache: string, files: Record<string, number>, now: number) {
  for (const [path, age] of Object.entries(files)) {
    const full = `${cache}/${path}`;
    await Deno.mkdir(full.slice(0, full.lastIndexOf("/")), { recursive: true });
    await Deno.writeTextFile(full, "x");
    await Deno.utime(full, (now - age) / 1000, (now - age) / 1000);
  }
}

Deno.test("pruneCache() removes what was unused for the limit and keeps the rest", async () => {
  const cache = await Deno.makeTempDir();
  const now = Date.now();
  const files: Record<string, number> = {
    // path → age in ms
    "launchers/old.ts": 20 * DAY,
    "launchers/old.ok": 20 * DAY,
    "launchers/new.ts": DAY,
    "clients/old.ts": 20 * DAY,
    "clients/new.ts": 0,
    "schemas-aaaa.json": 20 * DAY,
    "config-aaaa.json": 20 * DAY,
    "schemas-bbbb.json": 20 * DAY, // a live daemon serves bbbb
    "schemas-cccc.json": DAY,
    "notes.txt": 20 * DAY, // not a shape mcpx writes
    "exec/dddd/mcpx-client.ts": 20 * DAY,
    "exec/eeee/mcpx-client.ts": DAY,
    "exec/eeee/exec-1.ts": EXEC_LEFTOVER_MS * 2,
    "exec/eeee/exec-1.99.run": EXEC_LEFTOVER_MS * 2,
    "exec/eeee/exec-2.ts": 1000,
  };
  try {
    await writeAged(cache, files, now);
    await Deno.utime(`${cache}/exec/dddd`, (now - 20 * DAY) / 1000, (now - 20 * DAY) / 1000);
    const removed = pruneCache(cache, { maxAgeMs: 14 * DAY, live: new Set(["bbbb"]), now })
      .map((p) => p.slice(cache.length + 1)).sort();
    assert.deepEqual(removed, [
      "clients/old.ts",
      "config-aaaa.json",
      "exec/dddd",
      "exec/eeee/exec-1.99.run",
      "exec/eeee/exec-1.ts",
      "launchers/old.ok",
      "launchers/old.ts",
      "schemas-aaaa.json",
    ]);
    assert.ok(Deno.statSync(`${cache}/notes.txt`).isFile);
    assert.ok(Deno.statSync(`${cache}/exec/eeee/exec-2.ts`).isFile);
  } finally {
    await Deno.remove(cache, { recursive: true });
  }
});

Deno.test("pruneCache() with cache.maxAge 0 keeps everything but leftover exec programs", async () => {
  const cache = await Deno.makeTempDir();
  const now = Date.now();
  try {
    await Deno.mkdir(`${cache}/launchers`);
    await Deno.mkdir(`${cache}/exec/ffff`, { recursive: true });
    for (const path of ["launchers/a.ts", "exec/ffff/exec-9.ts"]) {
      await Deno.writeTextFile(`${cache}/${path}`, "x");
      await Deno.utime(`${cache}/${path}`, (now - 400 * DAY) / 1000, (now - 400 * DAY) / 1000);
    }
    const removed = pruneCache(cache, { maxAgeMs: 0, live: new Set(), now });
    assert.deepEqual(removed, [`${cache}/exec/ffff/exec-9.ts`]);
  } finally {
    await Deno.remove(cache, { recursive: true });
  }
});

Deno.test("pruneCache() removes a schemas folder with its index, never before it", async () => {
  const cache = await Deno.makeTempDir();
  const now = Date.now();
  const old = (now - 20 * DAY) / 1000;
  const files: Record<string, number> = {
    "schemas-aaaa.json": 20 * DAY,
    "schemas-aaaa/s-1.json": 20 * DAY, // goes with its index
    "schemas-bbbb/s-1.json": 20 * DAY, // a live daemon serves bbbb
    "schemas-cccc.json": DAY,
    "schemas-cccc/s-1.json": 20 * DAY, // its index is in use: entries are read through it
    "schemas-dddd/s-1.json": 20 * DAY, // an index already gone
    "schemas-eeee/s-1.json": DAY, // an index gone, but an entry used recently
  };
  try {
    await writeAged(cache, files, now);
    for (const fp of ["aaaa", "bbbb", "cccc", "dddd", "eeee"]) {
      await Deno.utime(`${cache}/schemas-${fp}`, old, old);
    }
    const removed = pruneCache(cache, { maxAgeMs: 14 * DAY, live: new Set(["bbbb"]), now })
      .map((p) => p.slice(cache.length + 1)).sort();
    assert.deepEqual(removed, ["schemas-aaaa", "schemas-aaaa.json", "schemas-dddd"]);
    for (const fp of ["bbbb", "cccc", "eeee"]) {
      assert.ok(Deno.statSync(`${cache}/schemas-${fp}/s-1.json`).isFile, fp);
    }
  } finally {
    await Deno.remove(cache, { recursive: true });
  }
});
