/**
 * A tool call's notifications reach the client of `mcpx serve` before the
 * call's result, every one, in the order the server sent them (issue 27;
 * decision 0078): through `mcpx serve --passthrough` to a 2025-era and a
 * 2026-07-28 client, through plain `mcpx serve`'s `mcpx_call`, and to
 * `mcpx call`'s progress line on a terminal.
 *
 * The upstream is tests/fixtures/servers/notices.ts: `burst` sends a
 * progress update and a log message five times over and answers in the
 * same tick, so its last notifications and its result leave together. What
 * reaches the client is read off its transport, before the SDK's own
 * dispatch (which runs a notification's handler a microtask later than a
 * response's). Each surface is called {@link ROUNDS} times: the loss was a
 * race, which the old relay (a second connection that long-polled the
 * daemon) lost in nearly every round.
 */

import assert from "node:assert/strict";
import { Client, type JSONRPCMessage, LOG_LEVEL_META_KEY } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { fixtureServer, mcpxArgv, onTerminal, type World, world } from "./_helpers.ts";

/** Progress updates (and log messages) per call. */
const COUNT = 5;
/** Calls per surface. */
const ROUNDS = 12;

/** What each call's client must see, in this order. */
const EXPECTED = [
  ...Array.from({ length: COUNT }, (_, i) => [`progress ${i + 1}/${COUNT}`, `log message ${i + 1}`])
    .flat(),
  "result",
];

/** An SDK client of `mcpx serve <flags>` over stdio, and what reaches it, as it arrives. */
async function servedClient(w: World, flags: string[], era: "legacy" | "modern") {
  const [command, ...args] = mcpxArgv(["serve", ...flags]);
  const transport = new StdioClientTransport({
    command,
    args,
    cwd: w.dir,
    env: w.env,
    stderr: "inherit",
  });
  const client = new Client(
    { name: "notices-order", version: "0" },
    era === "modern" ? { versionNegotiation: { mode: { pin: "2026-07-28" } } } : {},
  );
  await client.connect(transport);
  assert.equal(client.getProtocolEra(), era);
  const seen: string[] = [];
  const sdk = transport.onmessage as (message: JSONRPCMessage, extra?: unknown) => void;
  transport.onmessage = (message: JSONRPCMessage, extra?: unknown) => {
    const m = message as {
      method?: string;
      id?: unknown;
      params?: { progress?: number; total?: number; data?: unknown };
    };
    if (m.method === "notifications/progress") {
      seen.push(`progress ${m.params?.progress}/${m.params?.total}`);
    } else if (m.method === "notifications/message") seen.push(`log ${m.params?.data}`);
    else if (m.method === undefined && m.id !== undefined) seen.push("result");
    sdk(message, extra);
  };
  if (era === "legacy") await client.setLoggingLevel("debug");
  return { client, seen };
}

/** Calls `call` {@link ROUNDS} times; each round's arrivals that are not {@link EXPECTED}. */
async function rounds(
  seen: string[],
  call: (round: number) => Promise<unknown>,
): Promise<string[]> {
  const wrong: string[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    seen.length = 0;
    await call(round);
    const got = seen.join(", ");
    if (got !== EXPECTED.join(", ")) wrong.push(`round ${round}: ${got}`);
  }
  return wrong;
}

Deno.test("a tool call's progress and log messages reach its caller before its result, in order, every one", async (t) => {
  await using w = await world();
  await w.writeConfig({ mcpServers: { burst: fixtureServer({ fixture: "notices" }) } });

  for (const era of ["legacy", "modern"] as const) {
    await t.step(`serve --passthrough, a ${era} client`, async () => {
      const { client, seen } = await servedClient(w, ["--passthrough", "burst"], era);
      try {
        const wrong = await rounds(seen, (round) =>
          client.callTool({
            name: "burst",
            arguments: { count: COUNT },
            _meta: {
              progressToken: `${era}-${round}`,
              // A 2026-07-28 request names the level it hears log messages at (SEP-2577).
              ...(era === "modern" ? { [LOG_LEVEL_META_KEY]: "debug" } : {}),
            },
          }));
        assert.deepEqual(wrong, [], `expected each round: ${EXPECTED.join(", ")}`);
      } finally {
        await client.close();
      }
    });
  }

  await t.step(
    "mcpx call on a terminal shows every update, in order, then the result",
    async () => {
      const ERASE = "\r\x1b[K";
      const lines = Array.from(
        { length: COUNT },
        (_, i) => `${ERASE}burst.burst: ${i + 1}/${COUNT} (${Math.floor((i + 1) / COUNT * 100)}%)`,
      );
      for (let round = 0; round < 3; round++) {
        const { code, text } = await onTerminal(w, [
          "call",
          "burst.burst",
          JSON.stringify({ count: COUNT }),
        ]);
        assert.equal(code, 0, text);
        const at = [...lines, `${ERASE}sent ${COUNT}`].map((line) => text.indexOf(line));
        assert.ok(at.every((i, n) => i >= 0 && (n === 0 || i > at[n - 1])), JSON.stringify(text));
      }
    },
  );

  await t.step("serve's mcpx_call, a legacy client", async () => {
    const { client, seen } = await servedClient(w, [], "legacy");
    try {
      const wrong = await rounds(seen, (round) =>
        client.callTool({
          name: "mcpx_call",
          arguments: { target: "burst.burst", arguments: { count: COUNT } },
          _meta: { progressToken: `serve-${round}` },
        }));
      assert.deepEqual(wrong, [], `expected each round: ${EXPECTED.join(", ")}`);
    } finally {
      await client.close();
    }
  });
});
