/**
 * A large tool result (issue 9, "Bounded, and not quadratic") reaches the
 * caller whole: 24 MiB of text through the server's stdout, the daemon's
 * stdio reader, its HTTP answer, the wire client and `mcpx call`'s printing,
 * every byte checked. Timing and memory are the bench's job
 * (`deno task bench:big-result`), not this test's.
 *
 * @module
 */

import assert from "node:assert/strict";
import { fixtureServer, world } from "./_helpers.ts";
import { bigText } from "../dev/big_text.ts";

const BYTES = 24 << 20;

Deno.test("mcpx call prints a 24 MiB text result byte for byte, and --json carries it whole", async () => {
  await using w = await world();
  await w.writeConfig({ mcpServers: { big: fixtureServer({ fixture: "big_result" }) } });
  const expected = bigText(BYTES);
  const args = JSON.stringify({ bytes: BYTES });

  const text = await w.mcpx(["call", "big.text", args], { timeoutMs: 120_000 });
  assert.equal(text.code, 0, text.stderr);
  // The text ends with a newline of its own, so call adds none.
  assert.equal(text.stdout.length, BYTES);
  assert.ok(text.stdout === expected, "the printed text differs from what the server sent");

  const raw = await w.mcpx(["--json", "call", "big.text", args], { timeoutMs: 120_000 });
  assert.equal(raw.code, 0, raw.stderr);
  const envelope = JSON.parse(raw.stdout);
  assert.ok(envelope.content[0].text === expected, "the --json result differs");
});
