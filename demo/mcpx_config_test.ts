import assert from "node:assert/strict";
import { parseConfig } from "../config/parse.ts";

Deno.test("demo/mcpx.json gives the file-backed memory server exclusive sharing", async () => {
  const file = new URL("./mcpx.json", import.meta.url).pathname;
  const { servers } = parseConfig(await Deno.readTextFile(file), file, {
    MCPX_DEMO_DIR: "/tmp/demo",
  });
  // docs/configuration.md: a server that keeps state in a file and is not safe
  // under concurrent calls wants "sharing": "exclusive".
  const memory = servers.find((s) => s.name === "memory")!;
  assert.equal(memory.env.MEMORY_FILE_PATH, "/tmp/demo/memory.jsonl");
  assert.equal(memory.pool.sharing, "exclusive");
});
