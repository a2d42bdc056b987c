import assert from "node:assert/strict";
import { rankSessions, type SessionDoc, timeRange } from "./session_search.ts";

const doc = (session: string, more: Partial<SessionDoc> = {}): SessionDoc => ({
  session,
  kind: "session",
  servers: [],
  tools: [],
  calls: 1,
  first: "2026-10-01T10:00:00.000Z",
  last: "2026-10-01T11:00:00.000Z",
  ...more,
});

Deno.test("rankSessions() ranks an exact name above a tool and a tool above a time", () => {
  const docs = [
    doc("login-flow", { servers: ["browser"], tools: ["browser.navigate_page"] }),
    doc("other", { servers: ["fs"], tools: ["fs.read_file"], last: "2026-10-01T12:00:00.000Z" }),
    doc("navigate", {
      servers: ["x"],
      tools: ["x.y"],
      first: "2025-01-01T00:00:00.000Z",
      last: "2025-01-02T00:00:00.000Z",
    }),
  ];
  assert.deepEqual(rankSessions(docs, ["navigate"]).map((h) => h.session), [
    "navigate",
    "login-flow",
  ]);
  assert.deepEqual(rankSessions(docs, ["2026-10-01"]).map((h) => h.session), [
    "other",
    "login-flow",
  ]);
});

Deno.test("rankSessions() wants every word, and falls back to any word when none has all", () => {
  const docs = [doc("a", { servers: ["fs"] }), doc("b", { servers: ["fs", "git"] })];
  assert.deepEqual(rankSessions(docs, ["fs", "git"]).map((h) => h.session), ["b"]);
  assert.deepEqual(rankSessions(docs, ["git", "nothing"]).map((h) => h.session), ["b"]);
  assert.deepEqual(rankSessions(docs, ["nothing"]), []);
});

Deno.test("rankSessions() matches a trace id through the sessions the index names for it", () => {
  const docs = [doc("a"), doc("b")];
  const hits = rankSessions(docs, ["cal-123"], new Map([["cal-123", new Set(["b"])]]));
  assert.deepEqual(hits.map((h) => [h.session, h.matched]), [["b", ["cal-123: trace id"]]]);
});

Deno.test("timeRange() reads ISO prefixes down to the minute", () => {
  assert.deepEqual(timeRange("2026-10"), [Date.UTC(2026, 9, 1), Date.UTC(2026, 10, 1)]);
  const [a, b] = timeRange("2026-10-01T14:05")!;
  assert.equal(b - a, 60_000);
  assert.equal(timeRange("14:05"), undefined);
});

Deno.test("rankSessions() finds a tool by its server's spelling and by mcpx's", () => {
  const docs = [doc("s", { servers: ["everything"], tools: ["everything.get-sum"] })];
  for (const word of ["everything.get_sum", "get_sum", "get-sum"]) {
    assert.deepEqual(rankSessions(docs, [word]).map((h) => h.session), ["s"], word);
  }
});
