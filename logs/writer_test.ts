import assert from "node:assert/strict";
import { listLogFiles, LogWriter } from "./writer.ts";
import { mountTmpfs, TMPFS_REFUSED } from "../tests/_tmpfs.ts";

async function tmp(): Promise<string> {
  return await Deno.makeTempDir({ prefix: "mcpx-logs-" });
}

Deno.test("LogWriter rotates when a file would pass maxFileSize", async () => {
  const dir = await tmp();
  try {
    using w = new LogWriter({ dir, source: "t", maxFileSize: 100, retentionMs: 0 });
    for (let i = 0; i < 5; i++) w.write(`${"x".repeat(40)}${i}\n`);
    const files = listLogFiles(dir);
    assert.equal(files.length, 3, files.join());
    for (const f of files) assert.ok(Deno.statSync(`${dir}/${f}`).size <= 100);
    const text = files.map((f) => Deno.readTextFileSync(`${dir}/${f}`)).join("");
    assert.equal(text.split("\n").filter(Boolean).length, 5);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("LogWriter starts a new file when the UTC day changes", async () => {
  const dir = await tmp();
  try {
    let now = Date.parse("2026-10-01T23:59:59.000Z");
    using w = new LogWriter({
      dir,
      source: "t",
      maxFileSize: 1 << 20,
      retentionMs: 0,
      now: () => now,
    });
    w.write("a\n");
    now += 2000;
    w.write("b\n");
    assert.deepEqual(listLogFiles(dir), ["2026-10-01_t_0.jsonl", "2026-10-02_t_0.jsonl"]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("LogWriter never appends to an older file of the same source, and prunes old files", async () => {
  const dir = await tmp();
  try {
    const now = Date.parse("2026-10-01T12:00:00.000Z");
    Deno.writeTextFileSync(`${dir}/2026-10-01_t_0.jsonl`, "old\n");
    Deno.writeTextFileSync(`${dir}/2026-09-01_other_0.jsonl`, "ancient\n");
    Deno.utimeSync(
      `${dir}/2026-09-01_other_0.jsonl`,
      new Date(now - 40 * 86_400_000),
      new Date(now - 40 * 86_400_000),
    );
    Deno.utimeSync(`${dir}/2026-10-01_t_0.jsonl`, new Date(now), new Date(now));
    using w = new LogWriter({
      dir,
      source: "t",
      maxFileSize: 1 << 20,
      retentionMs: 14 * 86_400_000,
      now: () => now,
    });
    w.write("new\n");
    assert.deepEqual(listLogFiles(dir), ["2026-10-01_t_0.jsonl", "2026-10-01_t_1.jsonl"]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("listLogFiles() orders sequence numbers as numbers", async () => {
  const dir = await tmp();
  try {
    for (const n of [10, 2, 1]) Deno.writeTextFileSync(`${dir}/2026-10-01_t_${n}.jsonl`, "");
    Deno.writeTextFileSync(`${dir}/index.db`, "");
    assert.deepEqual(listLogFiles(dir), [
      "2026-10-01_t_1.jsonl",
      "2026-10-01_t_2.jsonl",
      "2026-10-01_t_10.jsonl",
    ]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a short-lived writer takes a fresh file without listing the folder, and never prunes", () => {
  const dir = Deno.makeTempDirSync();
  try {
    const now = () => Date.parse("2026-10-01T12:00:00Z");
    // An old file of another writer, and a file a dead process of the same pid left.
    Deno.writeTextFileSync(`${dir}/2026-09-01_daemon-x_0.jsonl`, "{}\n");
    Deno.utimeSync(`${dir}/2026-09-01_daemon-x_0.jsonl`, 0, 0);
    Deno.writeTextFileSync(`${dir}/2026-10-01_run-7_0.jsonl`, "old\n");
    const w = new LogWriter({
      dir,
      source: "run-7",
      maxFileSize: 1 << 20,
      retentionMs: 1000,
      now,
      shortLived: true,
    });
    w.write("new\n");
    w.close();
    assert.equal(Deno.readTextFileSync(`${dir}/2026-10-01_run-7_0.jsonl`), "old\n");
    assert.equal(Deno.readTextFileSync(`${dir}/2026-10-01_run-7_1.jsonl`), "new\n");
    Deno.statSync(`${dir}/2026-09-01_daemon-x_0.jsonl`);
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test({
  name:
    "LogWriter.append() counts the lines a full disk refuses, and cuts a half-written one back off",
  ignore: TMPFS_REFUSED !== undefined,
  async fn() {
    const root = await Deno.makeTempDir();
    try {
      await using disk = mountTmpfs(`${root}/disk`, 64 * 1024);
      const writer = new LogWriter({
        dir: `${disk.path}/logs`,
        source: "test",
        maxFileSize: 1 << 30,
        retentionMs: 0,
        now: () => Date.parse("2026-10-01T12:00:00Z"),
      });
      const line = (i: number) => JSON.stringify({ i, pad: "x".repeat(900) }) + "\n";
      assert.equal(writer.append(line(0)), true);
      disk.fill();
      let written = 1;
      while (writer.append(line(written))) written++;
      for (let i = 0; i < 3; i++) writer.append(line(written + 1 + i));
      assert.equal(writer.dropped?.records, 4);
      assert.equal(writer.dropped?.problem, "no-space");
      disk.free();
      assert.equal(writer.append(line(99)), true, "writes again once there is space");
      writer.close();
      const text = Deno.readTextFileSync(writer.path);
      assert.ok(text.endsWith("\n"));
      const lines = text.trimEnd().split("\n").map((l) => JSON.parse(l).i);
      assert.deepEqual(lines, [...Array(written).keys(), 99], "whole lines only, none torn");
    } finally {
      await Deno.remove(root, { recursive: true }).catch(() => {});
    }
  },
});
