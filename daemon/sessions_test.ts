import assert from "node:assert/strict";
import {
  freshSessionName,
  readSessions,
  SESSION_NAME,
  sessionsPath,
  SessionStore,
} from "./sessions.ts";

async function tmp(): Promise<string & AsyncDisposable> {
  const dir = await Deno.makeTempDir({ prefix: "mcpx-sessions-" });
  return Object.assign(new String(dir) as string, {
    [Symbol.asyncDispose]: () => Deno.remove(dir, { recursive: true }),
  }) as string & AsyncDisposable;
}

Deno.test("SessionStore.create() writes a record another store reads back", async () => {
  await using dir = await tmp();
  const path = sessionsPath(String(dir), "fp1");
  const store = new SessionStore(path, "/p/.mcp.json", () => Date.parse("2026-10-01T00:00:00Z"));
  const made = store.create("login-flow", 60_000);
  assert.deepEqual(made, {
    name: "login-flow",
    createdAt: "2026-10-01T00:00:00.000Z",
    lastUsedAt: "2026-10-01T00:00:00.000Z",
    ttlMs: 60_000,
    namespaces: [],
  });
  await store.flush();
  assert.deepEqual(readSessions(path), [made]);
  assert.deepEqual(new SessionStore(path, "/p/.mcp.json").list(), [made]);
  assert.equal((Deno.statSync(path).mode ?? 0) & 0o777, 0o600);
});

Deno.test("SessionStore.create() refuses a taken or malformed name", async (t) => {
  await using dir = await tmp();
  const store = new SessionStore(sessionsPath(String(dir), "fp"), null);
  store.create("a");
  for (
    const [name, pattern] of [["a", /already exists.*--session a/], ["", /must be 1-64/], [
      "has space",
      /must be 1-64/,
    ], ["-x", /must be 1-64/]] as const
  ) {
    await t.step(JSON.stringify(name), () => {
      assert.throws(() => store.create(name), pattern);
    });
  }
  await store.flush();
});

Deno.test("SessionStore.expired() lists sessions unused for longer than their ttl", async () => {
  await using dir = await tmp();
  let now = 1_000_000;
  const store = new SessionStore(sessionsPath(String(dir), "fp"), null, () => now);
  store.create("short", 1000);
  store.create("forever");
  now += 1000;
  assert.deepEqual(store.expired(), []);
  now += 1;
  assert.deepEqual(store.expired().map((s) => s.name), ["short"]);
  store.touch("short");
  assert.deepEqual(store.expired(), [], "a call resets the clock");
  await store.flush();
});

Deno.test("SessionStore.served() is true the second time a namespace gets an instance", async () => {
  await using dir = await tmp();
  const store = new SessionStore(sessionsPath(String(dir), "fp"), null);
  store.create("s");
  assert.equal(store.served("s", "browser"), false);
  assert.equal(store.served("s", "browser"), true);
  assert.equal(store.served("unknown", "browser"), false);
  await store.flush();
  assert.deepEqual(readSessions(store.path)[0].namespaces, ["browser"]);
});

Deno.test("SessionStore adopts the newest file of the same configuration path (an edited config)", async () => {
  await using dir = await tmp();
  const old = new SessionStore(sessionsPath(String(dir), "old"), "/p/.mcp.json");
  old.create("kept");
  const other = new SessionStore(sessionsPath(String(dir), "other"), "/q/.mcp.json");
  other.create("not-ours");
  await Promise.all([old.flush(), other.flush()]);
  const edited = new SessionStore(sessionsPath(String(dir), "new"), "/p/.mcp.json");
  assert.deepEqual(edited.list().map((s) => s.name), ["kept"]);
  await edited.flush();
  assert.deepEqual(readSessions(edited.path).map((s) => s.name), ["kept"]);
});

Deno.test("freshSessionName() is a valid 8-character name", () => {
  const names = new Set(Array.from({ length: 50 }, freshSessionName));
  assert.equal(names.size, 50);
  for (const name of names) assert.match(name, SESSION_NAME);
});
