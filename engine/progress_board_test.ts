import assert from "node:assert/strict";
import { ProgressBoard } from "./progress_board.ts";

Deno.test("ProgressBoard.poll answers the latest newer update at once, or the next one posted", async () => {
  const board = new ProgressBoard();
  board.post("t", { progress: 1, total: 4 });
  board.post("t", { progress: 2, total: 4 });
  const now = await board.poll("t", 0, 1000);
  assert.deepEqual(now, { progress: 2, total: 4, seq: 2 });
  const next = board.poll("t", now!.seq, 5000);
  board.post("other", { progress: 9 });
  board.post("t", { progress: 3, total: 4, message: "three" });
  assert.deepEqual(await next, { progress: 3, total: 4, message: "three", seq: 4 });
});

Deno.test("ProgressBoard.poll answers none when the hold passes, the call ends or the caller goes", async () => {
  const board = new ProgressBoard();
  assert.equal(await board.poll("t", 0, 10), undefined);
  const ending = board.poll("t", 0, 5000);
  board.end("t");
  assert.equal(await ending, undefined);
  const abort = new AbortController();
  const gone = board.poll("t", 0, 5000, abort.signal);
  abort.abort();
  assert.equal(await gone, undefined);
  board.post("t", { progress: 1 });
  board.end("t");
  assert.equal(await board.poll("t", 0, 0), undefined, "an ended call's progress is forgotten");
});
