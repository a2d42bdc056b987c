import assert from "node:assert/strict";
import { closeLog, daemonSpan, log, newSpan, openDurableLog, setLogLevel } from "./log.ts";
import { listLogFiles } from "../logs/writer.ts";
import { Redactor } from "../core/redact.ts";

Deno.test("log() writes redacted records with spans to the durable log, above the level", async () => {
  const dir = await Deno.makeTempDir({ prefix: "mcpx-daemon-log-" });
  try {
    openDurableLog({
      dir,
      source: "daemon-test-1",
      maxFileSize: 1 << 20,
      retentionMs: 0,
      redactor: new Redactor([{ value: "hunter2-hunter2", reference: "${FS_TOKEN}" }]),
    });
    setLogLevel("info");
    const instance = newSpan("instance");
    log("debug", "test.hidden", "below the level", {});
    log("info", "server.start", "server {server} started", { server: "fs" }, {
      span: instance,
      parent: daemonSpan(),
    });
    log("warn", "server.list", "listing {server} failed: {error}", {
      server: "fs",
      error: "bad token hunter2-hunter2",
    });
    closeLog();
    const [file] = listLogFiles(dir);
    const records = Deno.readTextFileSync(`${dir}/${file}`).trim().split("\n").map((l) =>
      JSON.parse(l)
    );
    assert.deepEqual(records.map((r) => r.event), ["server.start", "server.list"]);
    assert.equal(records[0].span, instance);
    assert.equal(records[0].parent, daemonSpan());
    assert.equal(records[1].span, daemonSpan(), "the daemon's span unless one is given");
    assert.equal(records[1].parent, undefined);
    assert.equal(records[1].msg, "listing fs failed: bad token ${FS_TOKEN}");
    assert.ok(!JSON.stringify(records).includes("hunter2"));
  } finally {
    closeLog();
    await Deno.remove(dir, { recursive: true });
  }
});
