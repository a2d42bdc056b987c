import assert from "node:assert/strict";
import { daemonFiles, MAX_SOCKET_PATH_BYTES } from "./locate.ts";

Deno.test("daemonFiles() keeps a short socket path under the state directory", () => {
  const files = daemonFiles("/home/u/.local/state/mcpx", "0123456789abcdef");
  assert.equal(files.socket, "/home/u/.local/state/mcpx/sockets/0123456789abcdef.sock");
  assert.equal(files.record, "/home/u/.local/state/mcpx/daemons/0123456789abcdef.json");
});

Deno.test("daemonFiles() falls back to a short path when the socket path is too long", () => {
  const deep = "/tmp/" + "d".repeat(120);
  const files = daemonFiles(deep, "0123456789abcdef");
  assert.ok(!files.socket.startsWith(deep), files.socket);
  assert.ok(new TextEncoder().encode(files.socket).length <= MAX_SOCKET_PATH_BYTES);
  assert.ok(files.record.startsWith(deep));
});

Deno.test("daemonFiles() gives two long state directories different fallback sockets", () => {
  const a = daemonFiles("/tmp/" + "a".repeat(120), "0123456789abcdef");
  const b = daemonFiles("/tmp/" + "b".repeat(120), "0123456789abcdef");
  assert.notEqual(a.socket, b.socket);
});
