import assert from "node:assert/strict";
import { LOG_LEVEL_META_KEY } from "@modelcontextprotocol/client";
import { moreVerbose, relayed } from "./input_relay.ts";

/** A client as `relayed` reads it: its era and whether its server declares `logging`. */
function client(era: "legacy" | "modern", logging: boolean) {
  return {
    getProtocolEra: () => era,
    getServerCapabilities: () => (logging ? { logging: {} } : {}),
  } as never;
}

Deno.test("relayed() asks a 2026-07-28 server that declares logging for log messages at the client's level, or the entry's when that is more verbose (SEP-2577)", () => {
  const asked = relayed(client("modern", true), { name: "t" }, { logLevel: "info" });
  assert.equal((asked.params._meta as Record<string, unknown>)[LOG_LEVEL_META_KEY], "info");
  const entry = relayed(
    client("modern", true),
    { name: "t", _meta: { [LOG_LEVEL_META_KEY]: "debug" } },
    { logLevel: "warning" },
  );
  assert.equal((entry.params._meta as Record<string, unknown>)[LOG_LEVEL_META_KEY], "debug");
  const quieter = relayed(
    client("modern", true),
    { name: "t", _meta: { [LOG_LEVEL_META_KEY]: "error" } },
    { logLevel: "notice" },
  );
  assert.equal((quieter.params._meta as Record<string, unknown>)[LOG_LEVEL_META_KEY], "notice");
});

Deno.test("relayed() asks for no log level of a server without logging, nor on a 2025-era connection", () => {
  const none = relayed(client("modern", false), { name: "t" }, { logLevel: "info" });
  assert.equal(none.params._meta, undefined);
  const legacy = relayed(client("legacy", true), { name: "t" }, { logLevel: "info" });
  assert.deepEqual(legacy.params, { name: "t" });
});

Deno.test("moreVerbose() keeps the lower of two levels", () => {
  assert.equal(moreVerbose("warning", "info"), "info");
  assert.equal(moreVerbose("debug", "emergency"), "debug");
  assert.equal(moreVerbose("error", undefined), "error");
});
