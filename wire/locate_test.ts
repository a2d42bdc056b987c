import assert from "node:assert/strict";
import { daemonFiles, MAX_SOCKET_PATH_BYTES, processEnv, socketFallbackDirs } from "./locate.ts";

Deno.test("daemonFiles() keeps a short socket path under the state directory", () => {
  const files = daemonFiles("/home/u/.local/state/mcpx", "0123456789abcdef", processEnv);
  assert.equal(files.socket, "/home/u/.local/state/mcpx/sockets/0123456789abcdef.sock");
  assert.equal(files.record, "/home/u/.local/state/mcpx/daemons/0123456789abcdef.json");
});

Deno.test("daemonFiles() falls back to a short path when the socket path is too long", () => {
  const deep = "/tmp/" + "d".repeat(120);
  const files = daemonFiles(deep, "0123456789abcdef", processEnv);
  assert.ok(!files.socket.startsWith(deep), files.socket);
  assert.ok(new TextEncoder().encode(files.socket).length <= MAX_SOCKET_PATH_BYTES);
  assert.ok(files.record.startsWith(deep));
});

Deno.test("daemonFiles() gives two long state directories different fallback sockets", () => {
  const a = daemonFiles("/tmp/" + "a".repeat(120), "0123456789abcdef", processEnv);
  const b = daemonFiles("/tmp/" + "b".repeat(120), "0123456789abcdef", processEnv);
  assert.notEqual(a.socket, b.socket);
});

Deno.test("daemonFiles() puts a fallback socket in $XDG_RUNTIME_DIR/mcpx when that is set", () => {
  const deep = "/tmp/" + "d".repeat(120);
  const env = (vars: Record<string, string>) => (name: string) => vars[name];
  const uid = Deno.uid();
  const xdg = daemonFiles(deep, "0123456789abcdef", env({ XDG_RUNTIME_DIR: "/run/user/1000/" }));
  assert.match(xdg.socket, /^\/run\/user\/1000\/mcpx\/0123456789abcdef-[0-9a-f]{8}\.sock$/);
  // Without it (or with a relative one, which the XDG spec says to ignore): the temporary directory.
  const cases: Record<string, string>[] = [
    { TMPDIR: "/var/tmp" },
    { XDG_RUNTIME_DIR: "run", TMPDIR: "/var/tmp" },
  ];
  for (const vars of cases) {
    const tmp = daemonFiles(deep, "0123456789abcdef", env(vars));
    assert.equal(tmp.socket.slice(0, tmp.socket.lastIndexOf("/")), `/var/tmp/mcpx-${uid}`);
  }
  // One where the socket's path would still be too long is passed over.
  const long = daemonFiles(
    deep,
    "0123456789abcdef",
    env({ XDG_RUNTIME_DIR: `/${"r".repeat(90)}` }),
  );
  assert.equal(long.socket.slice(0, long.socket.lastIndexOf("/")), `/tmp/mcpx-${uid}`);
  assert.deepEqual(
    socketFallbackDirs(env({ XDG_RUNTIME_DIR: "/run/user/7", TMPDIR: "/tmp/" })),
    ["/run/user/7/mcpx", `/tmp/mcpx-${uid}`],
  );
});
