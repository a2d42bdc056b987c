import assert from "node:assert/strict";
import { closeIdle, ResponseFrame } from "./keep_alive.ts";
import { encodeRequest, exchangeRequest } from "./wire.ts";

const bytes = (text: string) => new TextEncoder().encode(text);

/** Feeds `text` to a frame one byte at a time; the index at which it said whole, or -1. */
function wholeAt(text: string): { at: number; frame: ResponseFrame } {
  const frame = new ResponseFrame();
  const all = bytes(text);
  for (let i = 0; i < all.length; i++) {
    if (frame.push(all.subarray(i, i + 1))) return { at: i, frame };
  }
  return { at: -1, frame };
}

Deno.test("ResponseFrame: whole at the last byte a content-length or a last chunk names, whatever the pieces", () => {
  const sized = "HTTP/1.1 200 OK\r\ncontent-length: 5\r\n\r\nhello";
  assert.equal(wholeAt(sized).at, sized.length - 1);
  assert.equal(wholeAt(sized).frame.reusable, true);
  const chunked =
    "HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n3\r\nabc\r\n2\r\nde\r\n0\r\n\r\n";
  assert.equal(wholeAt(chunked).at, chunked.length - 1);
  const trailers =
    "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n1\r\na\r\n0\r\nx-t: 1\r\n\r\n";
  assert.equal(wholeAt(trailers).at, trailers.length - 1);
  const empty = "HTTP/1.1 204 No Content\r\ndate: x\r\n\r\n";
  assert.equal(wholeAt(empty).at, empty.length - 1);
});

Deno.test("ResponseFrame: an answer that closes, or that only the connection's end ends, is not kept", () => {
  const closing = wholeAt("HTTP/1.1 200 OK\r\ncontent-length: 2\r\nconnection: close\r\n\r\nok");
  assert.equal(closing.frame.reusable, false);
  assert.equal(wholeAt("HTTP/1.0 200 OK\r\ncontent-length: 2\r\n\r\nok").frame.reusable, false);
  const unframed = wholeAt("HTTP/1.1 200 OK\r\n\r\nto the end");
  assert.equal(unframed.at, -1);
  assert.equal(unframed.frame.reusable, false);
  assert.throws(
    () => wholeAt("HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\nzz\r\n"),
    /malformed/,
  );
});

/**
 * A daemon stand-in on a unix socket: answers each request `{"ok":true,"result":n}` (n counting
 * requests), counts connections, and closes each after `perConnection` answers.
 */
function standIn(dir: string, perConnection = Infinity) {
  const path = `${dir}/d.sock`;
  const listener = Deno.listen({ path, transport: "unix" });
  let connections = 0;
  let requests = 0;
  const open = new Set<Deno.Conn>();
  const serving = (async () => {
    for await (const conn of listener) {
      connections++;
      open.add(conn);
      (async () => {
        const buffer = new Uint8Array(8192);
        let text = "";
        let answered = 0;
        try {
          for (;;) {
            const n = await conn.read(buffer);
            if (n === null) return;
            text += new TextDecoder().decode(buffer.subarray(0, n));
            for (;;) {
              const end = text.indexOf("\r\n\r\n");
              if (end < 0) break;
              const length = Number(/content-length: (\d+)/i.exec(text.slice(0, end))?.[1] ?? 0);
              if (text.length < end + 4 + length) break;
              text = text.slice(end + 4 + length);
              const body = JSON.stringify({ ok: true, result: ++requests });
              await conn.write(
                bytes(`HTTP/1.1 200 OK\r\ncontent-length: ${body.length}\r\n\r\n${body}`),
              );
              if (++answered >= perConnection) return;
            }
          }
        } finally {
          open.delete(conn);
          try {
            conn.close();
          } catch { /* dropped already */ }
        }
      })().catch(() => {});
    }
  })().catch(() => {});
  return {
    path,
    get connections() {
      return connections;
    },
    /** Closes every open connection, as a daemon that stops does. */
    dropAll() {
      for (const c of open) {
        try {
          c.close();
        } catch { /* closed */ }
      }
      open.clear();
    },
    async close() {
      listener.close();
      await serving;
    },
  };
}

const ask = async (path: string) =>
  JSON.parse((await exchangeRequest(path, encodeRequest("health", "{}"))).body).result;

Deno.test("exchangeRequest keeps the connection for the next request, and connects anew when the daemon closed it", async () => {
  const dir = await Deno.makeTempDir();
  await Deno.chmod(dir, 0o700);
  const daemon = standIn(dir);
  try {
    assert.equal(await ask(daemon.path), 1);
    assert.equal(await ask(daemon.path), 2);
    assert.equal(await ask(daemon.path), 3);
    assert.equal(daemon.connections, 1);
    // The daemon goes away and comes back (closes what it had): the kept one is dropped, unused.
    daemon.dropAll();
    await new Promise((r) => setTimeout(r, 50));
    assert.equal(await ask(daemon.path), 4);
    assert.equal(daemon.connections, 2);
  } finally {
    closeIdle();
    await daemon.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("exchangeRequest sends on a fresh connection once a kept one is refused mid-write", async () => {
  const dir = await Deno.makeTempDir();
  await Deno.chmod(dir, 0o700);
  // Each connection answers once and closes: the kept one is closed by the time it is taken,
  // or refuses the write; either way the request is answered on a new connection, once.
  const daemon = standIn(dir, 1);
  try {
    for (let i = 1; i <= 3; i++) assert.equal(await ask(daemon.path), i);
    assert.equal(daemon.connections, 3);
  } finally {
    closeIdle();
    await daemon.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a process whose kept connection is still open exits when its work is done", async () => {
  const dir = await Deno.makeTempDir();
  await Deno.chmod(dir, 0o700);
  const daemon = standIn(dir);
  try {
    const wire = new URL("./wire.ts", import.meta.url).href;
    const code = `import { encodeRequest, exchangeRequest } from "${wire}";
      const r = await exchangeRequest(${
      JSON.stringify(daemon.path)
    }, encodeRequest("health", "{}"));
      console.log(r.body);`;
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["eval", code],
      stdout: "piped",
      stderr: "piped",
      signal: AbortSignal.timeout(20_000),
    }).output();
    assert.equal(out.signal, null, "it had to be killed: the kept connection held it open");
    assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
    assert.match(new TextDecoder().decode(out.stdout), /"result":1/);
  } finally {
    await daemon.close();
    await Deno.remove(dir, { recursive: true });
  }
});
