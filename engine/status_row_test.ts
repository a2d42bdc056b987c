import assert from "node:assert/strict";
import { statusRow } from "./status_row.ts";
import { Redactor } from "../core/redact.ts";
import { DEFAULT_POOL, type ServerSpec } from "../config/types.ts";

const SPEC: ServerSpec = {
  name: "api",
  namespace: "api",
  disabled: false,
  tags: [],
  toolTags: {},
  toolFilter: { exclude: [] },
  transport: "stdio",
  command: "srv",
  args: [],
  env: { API_TOKEN: "sk-live-123456" },
  headers: {},
  pool: { ...DEFAULT_POOL },
  poolId: "p",
  listingId: "p",
};

Deno.test("statusRow() shows a secret a failure or stderr tail echoes as its reference", () => {
  const r = new Redactor([{
    value: "sk-live-123456",
    reference: "${mcpServers.api.env.API_TOKEN}",
  }]);
  const row = statusRow(
    SPEC,
    { tools: [], error: { message: "refused sk-live-123456", at: "t", stderr: "sk-live-123456" } },
    {
      instances: [{
        id: "i1",
        key: "global",
        holders: 0,
        active: 0,
        uptimeMs: 1,
        calls: 0,
        stderrTail: "starting with sk-live-123456",
      }],
    },
    r,
  );
  assert.doesNotMatch(JSON.stringify(row), /sk-live/);
  assert.equal(row.instances[0].stderrTail, "starting with ${mcpServers.api.env.API_TOKEN}");
  assert.equal(row.cacheError?.message, "refused ${mcpServers.api.env.API_TOKEN}");
});
