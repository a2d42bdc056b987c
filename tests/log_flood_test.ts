/**
 * A server that floods mcpx with log messages (issue 24, "Server log
 * messages"; decision 0063): what it can make the daemon record is bounded
 * per server (`logging.serverRate` records a second, `logging.serverRecordBytes`
 * a record; the rest counted in one `server.dropped` a second), and the log
 * directory never holds more than `logging.maxDirSize`, index.db included.
 * The fixture's `flood` tool sends a bounded number of messages.
 */

import assert from "node:assert/strict";
import { backgroundMcpx, eventually, fixtureServer, world } from "./_helpers.ts";

type Rec = { time: string; event: string; attrs: Record<string, any> };
const MiB = 1 << 20;

function dirBytes(dir: string): number {
  let total = 0;
  try {
    for (const entry of Deno.readDirSync(dir)) {
      try {
        if (entry.isFile) total += Deno.statSync(`${dir}/${entry.name}`).size;
      } catch { /* removed meanwhile */ }
    }
  } catch { /* not made yet */ }
  return total;
}

const flooder = fixtureServer({ env: { MISBEHAVE_FLOOD: "1" }, mcpx: { logLevel: "info" } });

Deno.test("a flooding server's log messages past its allowance are counted in server.dropped, not written", async () => {
  await using w = await world();
  await w.writeConfig({
    logging: { serverRecordBytes: 2048 },
    mcpServers: { flood: flooder },
  });
  // Five messages larger than a record may be, then 3,000 small ones at once.
  const big = await w.mcpx(["call", "flood.flood", '{"count":5,"bytes":1500}']);
  assert.equal(big.code, 0, big.stderr);
  const small = await w.mcpx(["call", "flood.flood", '{"count":3000,"bytes":100}']);
  assert.equal(small.code, 0, small.stderr);
  assert.equal(small.stdout, "sent 3000\n");

  let written: Rec[] = [];
  let dropped: Rec[] = [];
  const counted = () =>
    written.length + dropped.reduce((n, r) => n + r.attrs.overRate + r.attrs.overSize, 0);
  // The summary of the last window is written once it ends: wait for every message to be accounted for.
  const all = await eventually(async () => {
    written = (await w.json(["log", "--event", "server.message", "-n", "10000"])).records;
    dropped = (await w.json(["log", "--event", "server.dropped", "-n", "10000"])).records;
    return counted() === 3005;
  }, 20_000);
  assert.ok(all, `3,005 sent, ${written.length} written and ${counted() - written.length} counted`);
  assert.equal(dropped.reduce((n, r) => n + r.attrs.overSize, 0), 5, "the five large ones");
  // At most logging.serverRate (100) written in any one second (give or take a record stamped
  // a millisecond after the window that admitted it).
  const perSecond = new Map<number, number>();
  for (const r of written) {
    const second = Math.floor(Date.parse(r.time) / 1000);
    perSecond.set(second, (perSecond.get(second) ?? 0) + 1);
  }
  assert.ok(Math.max(...perSecond.values()) <= 105, JSON.stringify([...perSecond]));
  assert.ok(dropped.length > 0 && written.length < 3005, `${written.length} written`);
  assert.ok(dropped.every((r) => r.attrs.server === "flood" && r.attrs.rate === 100));
});

Deno.test("a flooding server never takes the log directory past logging.maxDirSize", async () => {
  await using w = await world();
  const budget = 2 * MiB;
  // No rate limit to speak of: the budget alone holds ~25 MB of messages back.
  await w.writeConfig({
    logging: { maxDirSize: budget, serverRate: 1_000_000 },
    mcpServers: { flood: flooder },
  });
  const logs = `${w.dir}/.state/mcpx/logs`;
  const call = backgroundMcpx(w, ["call", "flood.flood", '{"count":12000,"bytes":1000}']);
  let largest = 0;
  while (!call.exited()) {
    largest = Math.max(largest, dirBytes(logs));
    await new Promise((r) => setTimeout(r, 20));
  }
  assert.equal((await call.status).code, 0, call.output());
  // `mcpx log` builds index.db from what is left.
  const tail = await w.json(["log", "--event", "server.message", "-n", "1"]);
  assert.equal(tail.records.length, 1, "the newest messages are kept");
  largest = Math.max(largest, dirBytes(logs));
  console.log(
    `  12,000 messages of 1 KB: the log directory peaked at ${largest} bytes of ${budget}`,
  );
  assert.ok(largest <= budget, `the log directory reached ${largest} bytes, over ${budget}`);
});
