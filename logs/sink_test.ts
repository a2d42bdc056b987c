import assert from "node:assert/strict";
import { configureSync, getLogger, resetSync } from "@logtape/logtape";
import type { LogRecord } from "./record.ts";
import { Redactor } from "../core/redact.ts";
import { recordSink, RESERVED } from "./sink.ts";

Deno.test("recordSink() turns LogTape records into redacted mcpx records", () => {
  const seen: LogRecord[] = [];
  configureSync({
    reset: true,
    sinks: {
      records: recordSink({
        redactor: new Redactor([{ value: "hunter2-secret", reference: "${PW}" }]),
        defaultSpan: () => "dmn-000000000000",
        emit: (r) => seen.push(r),
      }),
    },
    loggers: [{ category: ["t"], sinks: ["records"], lowestLevel: "debug" }],
  });
  try {
    const log = getLogger(["t"]);
    log.warn("login as {user} failed: {error}", {
      user: "ada",
      error: "bad password hunter2-secret",
      [RESERVED.event]: "auth.fail",
      [RESERVED.span]: "cal-1",
      [RESERVED.parent]: "ins-1",
    });
    log.info("plain {missing}");
  } finally {
    resetSync();
  }
  assert.equal(seen.length, 2);
  const [a, b] = seen;
  assert.equal(a.level, "warn");
  assert.equal(a.event, "auth.fail");
  assert.equal(a.span, "cal-1");
  assert.equal(a.parent, "ins-1");
  assert.equal(a.template, "login as {user} failed: {error}");
  assert.equal(a.msg, "login as ada failed: bad password ${PW}");
  assert.deepEqual(a.attrs, { user: "ada", error: "bad password ${PW}" });
  assert.match(a.time, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  assert.equal(b.event, "log");
  assert.equal(b.span, "dmn-000000000000");
  assert.equal(b.parent, undefined);
  assert.equal(b.msg, "plain {missing}");
  assert.ok(a.id < b.id);
});
