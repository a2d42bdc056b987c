import assert from "node:assert/strict";
import { LiveNotes } from "./live_notes.ts";

/** A chunked HTTP response whose body is `lines`, one chunk each. */
function chunked(lines: string[]): Uint8Array {
  const body = lines.map((l) => `${new TextEncoder().encode(l).length.toString(16)}\r\n${l}\r\n`);
  return new TextEncoder().encode(
    "HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n" + body.join("") + "0\r\n\r\n",
  );
}

Deno.test("LiveNotes tells notes and notifications in the order sent, however the bytes are cut, and stops at the answer", () => {
  const lines = [
    '{"notification":{"method":"notifications/progress","params":{"progress":1}}}\n',
    '{"note":"waiting"}\n',
    '{"notification":{"method":"notifications/message","params":{"level":"info","data":"x"}}}\n',
    '{"ok":true,"result":{"note":"not one"}}\n',
    '{"note":"after the answer"}\n',
  ];
  const bytes = chunked(lines);
  for (const cut of [1, 7, 64, bytes.length]) {
    const heard: string[] = [];
    const live = new LiveNotes(
      (text) => heard.push(`note ${text}`),
      (n) => heard.push(n.method),
    );
    for (let at = 0; at < bytes.length; at += cut) live.push(bytes.subarray(at, at + cut));
    assert.deepEqual(heard, [
      "notifications/progress",
      "note waiting",
      "notifications/message",
    ], `cut every ${cut} bytes`);
    assert.equal(live.heard, 1);
    assert.equal(live.notificationsHeard, 2);
  }
});
