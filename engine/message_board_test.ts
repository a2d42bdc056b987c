import assert from "node:assert/strict";
import { MessageBoard } from "./message_board.ts";

Deno.test("MessageBoard.poll() answers every message after the last seen, in order, then forgets an ended call once read", async () => {
  const board = new MessageBoard();
  const waiting = board.poll("t", 0, 60_000);
  board.post("t", { level: "info", data: "one" });
  const first = await waiting;
  assert.deepEqual(first.messages.map((m) => m.data), ["one"]);
  assert.equal(first.ended, false);
  board.post("t", { level: "info", data: "two" });
  board.post("t", { level: "warning", data: "three", logger: "x" });
  board.end("t");
  const last = await board.poll("t", first.messages[0].seq, 60_000);
  assert.deepEqual(last.messages.map((m) => [m.level, m.data]), [
    ["info", "two"],
    ["warning", "three"],
  ]);
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
