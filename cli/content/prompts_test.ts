/**
 * cli/content/prompts.ts in process: its handler's documents and its text, with a
 * context whose daemon answers from a table (no daemon, no server).
 */

import assert from "node:assert/strict";
import * as prompts from "./prompts.ts";
import { runHandler } from "../outcome_render.ts";
import { contentContext } from "./_content_context.ts";

const LISTING = [
  {
    namespace: "weather",
    prompts: [{
      name: "forecast",
      description: "A forecast",
      arguments: [{ name: "city", required: true }, { name: "state" }],
    }],
  },
  { namespace: "broken", prompts: [], error: "it did not start" },
];

Deno.test("prompts handle() answers the listing, failed when a namespace could not list", async () => {
  const { ctx } = contentContext({ prompts: LISTING });
  const outcome = await prompts.handle(ctx, { arguments: [] });
  assert.equal(outcome.kind, "failed");
  assert.deepEqual(outcome.value, { namespaces: LISTING });
});

Deno.test("prompts text is the table and how to render one; the error lines go to stderr either way", async (t) => {
  for (const json of [false, true]) {
    await t.step(json ? "--json" : "text", async () => {
      const { ctx, io } = contentContext({ prompts: LISTING });
      const code = await runHandler(ctx, prompts, { arguments: [] }, json);
      assert.equal(code, 1);
      if (json) assert.deepEqual(JSON.parse(io.stdout), { namespaces: LISTING });
      else {
        assert.match(io.stdout, /^PROMPT +ARGUMENTS +DESCRIPTION\n/);
        assert.match(io.stdout, /weather\.forecast +city \(required\), state +A forecast\n/);
        assert.match(io.stdout, /render one: mcpx prompts <namespace>\.<prompt> key=value…\n$/);
      }
      assert.equal(io.stderr, "error: broken: it did not start\n");
    });
  }
});

Deno.test("prompts text renders each message as its role and text", () => {
  const input = { target: "weather.forecast", arguments: ["city=Paris"] };
  const view = { input, columns: 120, kind: "ok" as const };
  assert.equal(
    prompts.text({
      messages: [
        { role: "user", content: { type: "text", text: "Weather in Paris?" } },
        { role: "assistant", content: [{ type: "text", text: "Sunny." }] },
      ],
    }, view),
    "user:\nWeather in Paris?\n\nassistant:\nSunny.\n",
  );
  assert.equal(prompts.text({ messages: [] }, view), "weather.forecast: no messages\n");
});

Deno.test("prompts text of --complete is one value a line, its notes on stderr", () => {
  const input = { target: "weather.forecast", arguments: [], complete: "city=Pa" };
  const view = { input, columns: 120, kind: "ok" as const };
  assert.deepEqual(
    prompts.text({ offered: true, values: ["Paris", "Palo\nAlto"], hasMore: true, total: 9 }, view),
    {
      out: "Paris\nPalo\\nAlto\n",
      err: "note: 9 values in all; type more of city to narrow them\n",
    },
  );
  assert.deepEqual(
    prompts.text({ offered: false, values: [] }, view),
    { err: "note: weather offers no completion\n" },
  );
});
