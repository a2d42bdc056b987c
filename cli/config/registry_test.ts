/**
 * cli/config/registry.ts in process, against the fixture registry on loopback
 * (tests/fixtures/registry): its handler's documents and its text.
 */

import assert from "node:assert/strict";
import * as registry from "./registry.ts";
import { runHandler } from "../outcome_render.ts";
import { fixtureRegistry } from "../../tests/fixtures/registry/serve.ts";
import { memoryIo } from "../../core/io.ts";
import { UsageError } from "../../core/errors.ts";
import type { CliContext } from "../context.ts";

function registryContext(url: string) {
  const io = memoryIo("");
  const ctx = {
    cwd: "/",
    env: {},
    io,
    signal: new AbortController().signal,
    setting: (name: string) => Promise.resolve(name === "registry.url" ? url : undefined),
    json: () => Promise.resolve(false),
  };
  return { ctx: ctx as unknown as CliContext, io };
}

Deno.test("registry search answers the hits; its text is a table and what to do next", async () => {
  await using r = await fixtureRegistry();
  const { ctx, io } = registryContext(r.url);
  const input = { words: ["search", "weather"] };
  const outcome = await registry.handle(ctx, input);
  assert.equal(outcome.kind, "ok");
  const { servers } = outcome.value as { servers: { name: string; via: string }[] };
  assert.ok(
    servers.some((s) => s.name === "io.github.example/weather-mcp"),
    JSON.stringify(servers),
  );
  assert.equal(await runHandler(ctx, registry, input, false), 0);
  assert.match(io.stdout, /^NAME +VERSION +RUNS +DESCRIPTION\n/);
  assert.match(
    io.stdout,
    /\nmcpx registry show <name> describes one; mcpx registry add <name> adds it\n$/,
  );
});

Deno.test("registry show answers the server and its translation; its text says how it runs", async () => {
  await using r = await fixtureRegistry();
  const { ctx, io } = registryContext(r.url);
  const input = { words: ["show", "playwright-mcp"] };
  const outcome = await registry.handle(ctx, input);
  assert.equal(outcome.kind, "ok");
  assert.ok("translation" in outcome.value && outcome.value.translation);
  assert.equal(await runHandler(ctx, registry, input, false), 0);
  assert.match(io.stdout, /runs: npm @playwright\/mcp@0\.0\.41 \(npx\)\n/);
  assert.match(io.stdout, /add it: mcpx registry add .*playwright-mcp --write\n$/);
});

Deno.test("registry text of a search with no hits names the registry and the words", () => {
  const view = { input: { words: ["search", "no", "such"] }, columns: 120, kind: "ok" as const };
  assert.equal(
    registry.text({ registry: "https://r.test", servers: [] }, view),
    "no server in https://r.test matches no such\n",
  );
});

Deno.test("registry handle() refuses a verb it lacks before asking the registry", async () => {
  const { ctx } = registryContext("http://127.0.0.1:9");
  await assert.rejects(
    registry.handle(ctx, { words: ["remove", "x"] }),
    (e) => e instanceof UsageError && /no registry command remove/.test(e.message),
  );
});
