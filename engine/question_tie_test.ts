import assert from "node:assert/strict";
import { onOwnStream, sendingFor, tiedCall } from "./question_tie.ts";
import { PendingCall } from "./pending_call.ts";

/**
 * A transport's stream as the SDK reads it: a loop over a byte stream started
 * by the send, each message handed to its handler on a later microtask.
 * Resolves with what `tiedCall()` said in the handler of each message.
 */
function readStream(stream: ReadableStream<string>): Promise<(PendingCall | undefined)[]> {
  const seen: (PendingCall | undefined)[] = [];
  return (async () => {
    const reader = stream.getReader();
    while (true) {
      const { done } = await reader.read();
      if (done) return seen;
      await Promise.resolve().then(() => seen.push(tiedCall()));
    }
  })();
}

/** A stream of `n` messages written later, on timers (as a socket delivers them). */
function later(n: number): ReadableStream<string> {
  let sent = 0;
  return new ReadableStream({
    pull: (controller) =>
      new Promise((resolve) =>
        setTimeout(() => {
          if (sent++ < n) controller.enqueue("message");
          else controller.close();
          resolve();
        }, 1)
      ),
  });
}

Deno.test("tiedCall() names the call whose request opened the stream, for every message read from it", async () => {
  const alice = new PendingCall("ns.tool", "alice");
  const bob = new PendingCall("ns.tool", "bob");
  const send = (call: PendingCall) =>
    sendingFor(call, async () => {
      await Promise.resolve(); // the SDK's own awaits before the transport's send
      return await onOwnStream(true, async () => {
        await new Promise((r) => setTimeout(r, 1)); // the POST's answer
        return await readStream(later(3));
      });
    });
  const [a, b] = await Promise.all([send(alice), send(bob)]);
  assert.deepEqual(a, [alice, alice, alice]);
  assert.deepEqual(b, [bob, bob, bob]);
});

Deno.test("tiedCall() names no call for a stream a notification opened, or one read outside any send", async () => {
  const alice = new PendingCall("ns.tool", "alice");
  // The standalone GET stream, opened by sending `notifications/initialized`.
  const opened = await sendingFor(alice, () => onOwnStream(false, () => readStream(later(2))));
  assert.deepEqual(opened, [undefined, undefined]);
  // A stdio pipe: read by a loop started with the connection, whoever writes to it.
  const pipe = new TransformStream<string, string>();
  const read = readStream(pipe.readable);
  await sendingFor(alice, () =>
    onOwnStream(true, async () => {
      const writer = pipe.writable.getWriter();
      await writer.write("message");
      await writer.close();
    }));
  assert.deepEqual(await read, [undefined]);
});

Deno.test("tiedCall() names no call for a request sent for none", async () => {
  assert.equal(await onOwnStream(true, () => Promise.resolve(tiedCall())), undefined);
});
