import assert from "node:assert/strict";
import { LeaseBoard, LeaseDeadlockError, type LeaseWait } from "./lease_board.ts";
import { waitNotice } from "../wire/lease_waits.ts";

const T = Date.UTC(2026, 0, 1, 10, 0, 0);

function wait(
  run: string | undefined,
  namespace: string,
  heldBy: string[],
): Omit<LeaseWait, "id"> {
  return {
    ...(run ? { run, token: run } : {}),
    pid: 100,
    namespace,
    server: namespace,
    key: "session:s",
    since: T,
    limitMs: 30_000,
    setting: "leaseTimeout",
    holders: heldBy.map((r, i) => ({ run: r, pid: 200 + i, since: T })),
  };
}

Deno.test("LeaseBoard.post() refuses the wait that closes a cycle of runs, naming both holders", () => {
  const board = new LeaseBoard();
  board.post(wait("B", "first", ["A"]));
  assert.throws(() => board.post(wait("A", "second", ["B"])), (error: Error) => {
    assert.ok(error instanceof LeaseDeadlockError);
    assert.equal(error.code, "lease-deadlock");
    assert.match(error.message, /run A waits for second \(session:s\), held by run B/);
    assert.match(error.message, /run B waits for first \(session:s\), held by run A/);
    assert.deepEqual(error.holders.map((h) => h.run), ["B", "A"]);
    return true;
  });
  assert.equal(board.waits.length, 1, "the refused wait is not posted");
});

Deno.test("LeaseBoard.post() finds a cycle through three runs, and none where there is none", () => {
  const board = new LeaseBoard();
  board.post(wait("B", "x", ["C"]));
  board.post(wait("C", "y", ["A"]));
  board.post(wait(undefined, "z", ["A"])); // a plain call waits too: it holds nothing
  assert.doesNotThrow(() => board.post(wait("D", "w", ["B"])));
  assert.throws(() => board.post(wait("A", "v", ["B"])), LeaseDeadlockError);
  // A run waiting behind its own other call is not a cycle.
  assert.doesNotThrow(() => board.post(wait("E", "u", ["E"])));
});

Deno.test("LeaseBoard.poll() answers at once with posted waits, else when one is posted, else [] in time", async () => {
  const board = new LeaseBoard();
  const first = board.post(wait("A", "browser", ["B"]));
  assert.deepEqual((await board.poll("A", 0, 1000)).map((w) => w.id), [first.id]);
  const later = board.poll("A", first.id, 5000);
  const second = board.post(wait("A", "other", ["B"]));
  assert.deepEqual((await later).map((w) => w.id), [second.id]);
  assert.deepEqual(await board.poll("nobody", 0, 10), []);
  const open = board.poll("nobody", 0, 60_000);
  board.close();
  assert.deepEqual(await open, [], "closing answers every poll");
});

Deno.test("waitNotice() says what is held, by whom, since when, and the bound", () => {
  assert.equal(
    waitNotice(wait("A", "browser", ["B"])),
    "waiting: browser (session:s) is exclusive and held by run B (pid 200) since " +
      "2026-01-01T10:00:00.000Z; waiting up to 30000 ms (leaseTimeout)",
  );
  assert.match(
    waitNotice({ ...wait("A", "browser", []), full: { max: 4 } }),
    /^waiting: all 4 instances of browser are in use; waiting up to 30000 ms/,
  );
  assert.match(
    waitNotice({ ...wait("A", "browser", []), full: { max: 1 } }),
    /^waiting: the one instance of browser is in use; waiting up to 30000 ms/,
  );
});

Deno.test("LeaseBoard.post() leaves a wait for any slot of a full pool to its bound", () => {
  const board = new LeaseBoard();
  // B waits for a slot of a full pool (A holds one of its instances, others may free up).
  board.post({ ...wait("B", "pool", ["A", "C"]), full: { max: 2 } });
  assert.doesNotThrow(() => board.post(wait("A", "other", ["B"])));
  assert.doesNotThrow(() => board.post({ ...wait("C", "third", ["B"]), full: { max: 1 } }));
});

Deno.test("LeaseBoard.post() advises what keeps the runs apart by scope: sessions do nothing for a global server", () => {
  const scoped = (run: string, namespace: string, heldBy: string, scope: string) => ({
    ...wait(run, namespace, [heldBy]),
    scope,
    key: scope === "global" ? "global" : "session:s",
  });
  const global = new LeaseBoard();
  global.post(scoped("B", "browser", "A", "global"));
  assert.throws(() => global.post(scoped("A", "db", "B", "global")), (error: Error) => {
    assert.doesNotMatch(error.message, /Give concurrent runs their own sessions/);
    assert.match(error.message, /"db" and "browser" have scope global/);
    assert.match(error.message, /one after the other/);
    assert.match(
      error.message,
      /"scope": "session" in mcpServers\.db\.mcpx and mcpServers\.browser\.mcpx/,
    );
    return true;
  });
  const sessions = new LeaseBoard();
  sessions.post(scoped("B", "browser", "A", "session"));
  assert.throws(
    () => sessions.post(scoped("A", "db", "B", "session")),
    /Give concurrent runs their own sessions \(--session <key> or MCPX_SESSION_ID\)/,
  );
});
