import assert from "node:assert/strict";
import { followDaemon, SseParser } from "./live_feed.ts";
import type { LiveEvent, LiveMode } from "./tui_data.ts";

Deno.test("SseParser reads messages split anywhere, with comments and multi-line data", () => {
  const parser = new SseParser();
  const text =
    ': hello\n\nid: 9-1\nevent: server.crashed\ndata: {"server":"fs",\ndata: "x":1}\n\n' +
    "id: 9-2\r\nevent: call.finished\r\ndata: {}\r\n\r\n";
  const messages = [...text].flatMap((ch) => parser.push(ch));
  assert.deepEqual(messages, [
    { id: "9-1", event: "server.crashed", data: '{"server":"fs",\n"x":1}' },
    { id: "9-2", event: "call.finished", data: "{}" },
  ]);
});

Deno.test("followDaemon() reads the bus over the socket, and resumes from the last id", async () => {
  const dir = await Deno.makeTempDir();
  const socket = `${dir}/d.sock`;
  const asked: (string | null)[] = [];
  const server = Deno.serve({ path: socket, onListen() {} }, (request) => {
    asked.push(request.headers.get("last-event-id"));
    const body = asked.length === 1
      ? 'id: 1-1\nevent: server.started\ndata: {"server":"fs"}\n\n'
      : "id: 1-2\nevent: call.finished\ndata: {}\n\n";
    return new Response(body, { headers: { "content-type": "text/event-stream" } });
  });
  const abort = new AbortController();
  const events: LiveEvent[] = [];
  const modes: LiveMode[] = [];
  try {
    await new Promise<void>((resolve) => {
      followDaemon({
        socket: () => Promise.resolve(socket),
        listener: (event) => {
          events.push(event);
          if (events.length === 2) resolve();
        },
        onMode: (mode) => modes.push(mode),
        signal: abort.signal,
      });
    });
    assert.deepEqual(events, [{ kind: "server.started", server: "fs" }, { kind: "call.finished" }]);
    assert.deepEqual(asked, [null, "1-1"]);
    assert.deepEqual(modes, ["events"]);
  } finally {
    abort.abort();
    await server.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("followDaemon() polls while no daemon answers with an event stream", async () => {
  const abort = new AbortController();
  const modes: LiveMode[] = [];
  try {
    await new Promise<void>((resolve) => {
      followDaemon({
        socket: () => Promise.resolve("/nonexistent/mcpx.sock"),
        listener: (event) => {
          assert.equal(event.kind, "poll");
          resolve();
        },
        onMode: (mode) => modes.push(mode),
        signal: abort.signal,
        pollMs: 10,
      });
    });
    assert.deepEqual(modes, ["polling"]);
  } finally {
    abort.abort();
  }
});
