/**
 * The durable log records real calls to a real server (server-everything):
 * each call's end record, and its row in `mcpx stats calls`.
 */
import assert from "node:assert/strict";
import { stdioServer, world } from "./_helpers.ts";

Deno.test("mcpx log and stats record calls to server-everything", async () => {
  await using w = await world();
  await w.writeConfig({ mcpServers: { everything: stdioServer("everything", ["stdio"]) } });
  for (const message of ["a", "b", "c"]) {
    const call = await w.mcpx(["call", "everything.echo", JSON.stringify({ message })]);
    assert.equal(call.code, 0, call.stderr);
  }
  const failing = await w.mcpx(["call", "everything.get-sum", '{"a":"x"}']);
  assert.equal(failing.code, 1, "a tool error is a failed call");

  const { records } = await w.json(["log", "--event", "call.end"]);
  const echoes = records.filter((r: { attrs: { tool: string } }) => r.attrs.tool === "echo");
  assert.equal(echoes.length, 3, JSON.stringify(records));
  for (const record of echoes) {
    assert.equal(record.attrs.namespace, "everything");
    assert.equal(record.attrs.ok, true);
    assert.equal(typeof record.attrs.ms, "number");
  }

  const { rows } = await w.json(["stats", "calls"]);
  const echo = rows.find((r: { tool: string }) => r.tool === "echo");
  assert.equal(echo?.calls, 3, JSON.stringify(rows));
  assert.equal(echo?.errors, 0);
  const sum = rows.find((r: { tool: string }) => r.tool === "get-sum");
  assert.equal(sum?.calls, 1, JSON.stringify(rows));
  assert.equal(sum?.errors, 1, "a tool that returns isError counts as an error");

  const started = (await w.json(["log", "--event", "server.start"])).records;
  assert.equal(started.length, 1, "one server process served every call");
  assert.equal(started[0].attrs.key, "global");
});
