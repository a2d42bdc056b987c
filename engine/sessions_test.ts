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
  const made = await store.create("login-flow", 60_000);
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
  await store.create("a");
  for (
    const [name, pattern] of [["a", /already exists.*--session a/], ["", /must be 1-64/], [
      "has space",
      /must be 1-64/,
    ], ["-x", /must be 1-64/]] as const
  ) {
    await t.step(JSON.stringify(name), async () => {
      await assert.rejects(() => store.create(name), pattern);
    });
  }
  await store.flush();
});

Deno.test("SessionStore.expired() lists sessions unused for longer than their ttl", async () => {
  await using dir = await tmp();
  let now = 1_000_000;
  const store = new SessionStore(sessionsPath(String(dir), "fp"), null, () => now);
  await store.create("short", 1000);
  await store.create("forever");
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
  await store.create("s");
  assert.equal(store.served("s", "browser"), false);
  assert.equal(store.served("s", "browser"), true);
  assert.equal(store.served("unknown", "browser"), false);
  await store.flush();
  assert.deepEqual(readSessions(store.path)[0].namespaces, ["browser"]);
});

Deno.test("SessionStore adopts the newest file of the same configuration path (an edited config)", async () => {
  await using dir = await tmp();
  const old = new SessionStore(sessionsPath(String(dir), "old"), "/p/.mcp.json");
  await old.create("kept");
  const other = new SessionStore(sessionsPath(String(dir), "other"), "/q/.mcp.json");
  await other.create("not-ours");
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

const at = "2026-10-01T00:00:00.000Z";
const record = (name: unknown) => ({ name, createdAt: at, lastUsedAt: at, namespaces: [] });

function damagedCopies(dir: string): string[] {
  return [...Deno.readDirSync(`${dir}/sessions`)].map((e) => e.name).filter((n) =>
    n.includes(".damaged-")
  );
}

Deno.test("SessionStore keeps the sessions before the cut of a truncated file, and the original beside it", async () => {
  await using dir = await tmp();
  const path = sessionsPath(String(dir), "fp");
  await Deno.mkdir(`${dir}/sessions`, { recursive: true });
  const whole = JSON.stringify(
    { configPath: "/p/.mcp.json", sessions: [record("first"), record("second"), record("third")] },
    null,
    1,
  );
  const cut = whole.slice(0, whole.indexOf('"third"') + 3);
  Deno.writeTextFileSync(path, cut);
  const store = new SessionStore(path, "/p/.mcp.json");
  assert.deepEqual(store.list().map((s) => s.name), ["first", "second"]);
  assert.match(store.problems[0], new RegExp(`sessions file ${path} is damaged.*kept the 2`));
  await store.create("new");
  await store.flush();
  assert.deepEqual(readSessions(path).map((s) => s.name), ["first", "second", "new"]);
  const copies = damagedCopies(String(dir));
  assert.equal(copies.length, 1);
  assert.equal(Deno.readTextFileSync(`${dir}/sessions/${copies[0]}`), cut);
  assert.match(store.problems.at(-1)!, /damaged original is kept as .*\.damaged-/);
});

Deno.test("SessionStore skips a null entry and a numeric name, with a warning naming the file", async () => {
  await using dir = await tmp();
  const path = sessionsPath(String(dir), "fp");
  await Deno.mkdir(`${dir}/sessions`, { recursive: true });
  Deno.writeTextFileSync(
    path,
    JSON.stringify({
      configPath: "/p/.mcp.json",
      sessions: [null, record(123), { ...record("ttl"), ttlMs: "soon" }, record("ok")],
    }),
  );
  const store = new SessionStore(path, "/p/.mcp.json");
  assert.deepEqual(store.list().map((s) => s.name), ["ok"]);
  const [nulled, numeric, ttl] = store.problems;
  assert.equal(nulled, `sessions file ${path}: skipped entry 1: null is not a session record`);
  assert.equal(numeric, `sessions file ${path}: skipped entry 2: "name" must be a string, got 123`);
  assert.match(ttl, /entry 3: session "ttl": "ttlMs" must be a positive number/);
  await store.flush();
  assert.deepEqual(readSessions(path).map((s) => s.name), ["ok"], "written again, clean");
  assert.equal(damagedCopies(String(dir)).length, 1);
});

Deno.test("SessionStore.create() fails, keeping nothing, when its file cannot be written", async () => {
  await using dir = await tmp();
  const path = sessionsPath(String(dir), "fp");
  // A directory where the file goes: the rename over it fails.
  await Deno.mkdir(`${path}/x`, { recursive: true });
  const store = new SessionStore(path, null);
  await assert.rejects(
    () => store.create("lost"),
    (e: Error & { code?: string }) =>
      e.code === "state-write" && e.message.includes(path) &&
      e.message.includes('the named session "lost" was not made'),
  );
  assert.equal(store.get("lost"), undefined);
  assert.deepEqual(
    [...Deno.readDirSync(`${dir}/sessions`)].map((e) => e.name),
    ["fp.json"],
    "no temporary file is left",
  );
});
