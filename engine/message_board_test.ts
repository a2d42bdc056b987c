import assert from "node:assert/strict";
import { type BoardMessage, MessageBoard } from "./message_board.ts";

/** A notice as `[level, data]`, a progress update as `["progress", progress]`. */
const shown = (m: BoardMessage) =>
  "progress" in m ? ["progress", m.progress.progress] : [m.level, m.data];

Deno.test("MessageBoard.poll() answers every message and progress update after the last seen, in order, then forgets an ended call once read", async () => {
  const board = new MessageBoard();
  const waiting = board.poll("t", 0, 60_000);
  board.post("t", { level: "info", data: "one" });
  const first = await waiting;
  assert.deepEqual(first.messages.map(shown), [["info", "one"]]);
  assert.equal(first.ended, false);
  board.post("t", { level: "info", data: "two" });
  board.post("t", { progress: { progress: 1, total: 2 } });
  board.post("t", { level: "warning", data: "three", logger: "x" });
  board.post("t", { progress: { progress: 2, total: 2 } });
  board.end("t");
  const last = await board.poll("t", first.messages[0].seq, 60_000);
  assert.deepEqual(last.messages.map(shown), [
    ["info", "two"],
    ["progress", 1],
    ["warning", "three"],
    ["progress", 2],
  ], "every progress update is kept beside the log messages, in order");
  assert.equal(last.ended, true);
  const after = await board.poll("t", 0, 0);
  assert.deepEqual(after, { messages: [], ended: false }, "read once, then forgotten");
});

Deno.test("MessageBoard.end() answers a waiting poll at once, and a call that heard nothing reads as ended", async () => {
  const board = new MessageBoard();
  const waiting = board.poll("quiet", 0, 60_000);
  board.end("quiet");
  assert.deepEqual(await waiting, { messages: [], ended: true });
  board.end("late");
  assert.deepEqual(await board.poll("late", 0, 60_000), { messages: [], ended: true });
  const aborted = new AbortController();
  const held = board.poll("other", 0, 60_000, aborted.signal);
  aborted.abort();
  assert.deepEqual(await held, { messages: [], ended: false });
});
