import assert from "node:assert/strict";
import { callTarget, type TargetSource } from "./call_target.ts";
import { cachedTool, cacheOf, serverSpec } from "../discovery/_fixtures.ts";
import { namespacesFromCache } from "../discovery/view.ts";
import type { SchemaCacheFile } from "../discovery/types.ts";
import type { ServerSpec } from "../config/types.ts";
import { NotFoundError, UsageError } from "../core/errors.ts";

/** A daemon stand-in: the view over `cache`, and a listing that fills it with `listed`. */
function source(
  servers: ServerSpec[],
  cache: SchemaCacheFile,
  listed: Record<string, SchemaCacheFile["servers"][string]> = {},
): TargetSource & { lists: string[] } {
  const lists: string[] = [];
  return {
    servers,
    lists,
    view: (selection) => namespacesFromCache(servers, cache, selection),
    // As engine/schema_cache.ts: a failed listing waits for its cooldown (here: forever).
    needsListing: (spec) => {
      const entry = cache.servers[spec.name];
      return !entry || (!entry.listedAt && !entry.error);
    },
    list: (spec) => {
      lists.push(spec.name);
      if (listed[spec.name]) cache.servers[spec.name] = listed[spec.name];
      return Promise.resolve();
    },
  };
}

const refused = async (promise: Promise<unknown>, pattern: RegExp) => {
  const error = await promise.then(() => assert.fail("expected a refusal"), (e) => e);
  assert.ok(error instanceof NotFoundError, String(error));
  assert.match(error.message, pattern);
  return error as NotFoundError;
};

Deno.test("callTarget() resolves either spelling to the real name of a visible tool", async () => {
  const s = source([serverSpec("ev")], cacheOf({ ev: [cachedTool("get-sum")] }));
  assert.equal((await callTarget(s, "ev", "get_sum")).tool, "get-sum");
  assert.equal((await callTarget(s, "ev", "get-sum")).tool, "get-sum");
});

Deno.test("callTarget() refuses a tool excludeTools or an alias's subset hides, in either spelling", async () => {
  const servers = [
    serverSpec("ev", { toolFilter: { exclude: ["get-tiny-*"] } }),
    serverSpec("peek", {
      aliasOf: { server: "ev", poolId: "0000000000000000", listingId: "0000000000000000" },
      toolFilter: { include: ["echo"], exclude: [] },
    }),
  ];
  const s = source(servers, cacheOf({ ev: [cachedTool("echo"), cachedTool("get-tiny-image")] }));
  for (
    const [ns, tool] of [["ev", "get-tiny-image"], ["ev", "get_tiny_image"], [
      "peek",
      "get-tiny-image",
    ]]
  ) {
    await refused(callTarget(s, ns, tool), /is hidden by the configuration/);
  }
  assert.equal((await callTarget(s, "peek", "echo")).tool, "echo");
});

Deno.test("callTarget() suggests visible tools only", async () => {
  const servers = [serverSpec("ev", { toolFilter: { exclude: ["echo2"] } })];
  const s = source(servers, cacheOf({ ev: [cachedTool("echo1"), cachedTool("echo2")] }));
  const error = await refused(callTarget(s, "ev", "echo3"), /unknown tool "ev.echo3"/);
  assert.deepEqual(error.suggestions, ["ev.echo1"]);
});

Deno.test("callTarget() applies the selection, the default set when none is given", async () => {
  const servers = [serverSpec("ev"), serverSpec("web", { profiles: ["web"], default: false })];
  const s = source(servers, cacheOf({ ev: [cachedTool("echo")], web: [cachedTool("echo")] }));
  await refused(callTarget(s, "web", "echo"), /outside the selected profiles.*--profile web/);
  const target = await callTarget(s, "web", "echo", {
    profiles: ["web"],
    skipDefault: true,
    all: false,
  });
  assert.equal(target.namespace, "web");
  await refused(
    callTarget(s, "ev", "echo", { profiles: ["web"], skipDefault: true, all: false }),
    /outside the selected profiles/,
  );
  await assert.rejects(
    callTarget(s, "ev", "echo", { profiles: ["nope"], skipDefault: false, all: false }),
    (e) => e instanceof UsageError && /unknown profile "nope"/.test(e.message),
  );
});

Deno.test("callTarget() lists a never-listed server first, so an empty cache hides nothing it should not", async () => {
  const servers = [serverSpec("ev", { toolFilter: { exclude: ["secret-key"] } })];
  const s = source(servers, cacheOf({}), {
    ev: { listedAt: "2026-01-01T00:00:00Z", tools: [cachedTool("secret-key"), cachedTool("echo")] },
  });
  // Named by its identifier, the tool is known hidden only once the listing gives its real name.
  await refused(callTarget(s, "ev", "secret_key"), /hidden by the configuration/);
  assert.deepEqual(s.lists, ["ev"]);
});

Deno.test("callTarget() without any listing: a server with no filter gets the call, one with a filter is refused", async () => {
  const failed = { tools: [], error: { message: "spawn nope ENOENT", at: "2026-01-01T00:00:00Z" } };
  const failedCache = cacheOf({});
  failedCache.servers.ev = failed;
  const open = source([serverSpec("ev")], failedCache, { ev: failed });
  assert.deepEqual(
    { ...(await callTarget(open, "ev", "anything")), spec: undefined },
    { spec: undefined, namespace: "ev", tool: "anything" },
  );
  assert.deepEqual(open.lists, [], "an open server's failed listing is not retried for a call");
  const filtered = source(
    [serverSpec("ev", { toolFilter: { include: ["echo"], exclude: [] } })],
    cacheOf({}),
    { ev: failed },
  );
  await refused(callTarget(filtered, "ev", "echo"), /no tools because listing its server failed/);
  assert.deepEqual(filtered.lists, ["ev"], "a filtered server is listed again first");
});

Deno.test("callTarget() leaves a server the configuration keeps from starting to the daemon", async () => {
  const spec = serverSpec("ev", {
    unavailable: { code: "unset-variable", message: "needs ${TOKEN}", variables: ["TOKEN"] },
  });
  const s = source([spec], cacheOf({}));
  assert.equal((await callTarget(s, "ev", "echo")).spec, spec);
  assert.deepEqual(s.lists, [], "nothing is listed");
});

Deno.test("callTarget() refuses an excludeTools-only hidden tool by the filter itself when the listing failed", async () => {
  const failed = { tools: [], error: { message: "spawn nope ENOENT", at: "2026-01-01T00:00:00Z" } };
  const servers = [serverSpec("ev", { toolFilter: { exclude: ["get-tiny-*"] } })];
  const s = source(servers, cacheOf({}), { ev: failed });
  // The refusal names the filter, not the failed listing: it holds whatever the listing says.
  await refused(callTarget(s, "ev", "get-tiny-image"), /hidden by the configuration/);
  assert.deepEqual(s.lists, [], "the filter refuses before any listing is asked for");
  // A tool the filter shows is still refused while what the server has cannot be told.
  await refused(callTarget(s, "ev", "echo"), /no tools because listing its server failed/);
});
