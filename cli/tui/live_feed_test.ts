import assert from "node:assert/strict";
import { followDaemon } from "./live_feed.ts";
import type { LiveEvent, LiveMode } from "./tui_data.ts";

Deno.test("followDaemon() reads the bus over the socket, and resumes from the last id", async () => {
  const dir = await Deno.makeTempDir();
  const socket = `${dir}/d.sock`;
  const asked: (string | null)[] = [];
  const server = Deno.serve({ path: socket, onListen() {} }, (request) => {
    asked.push(request.headers.get("last-event-id"));
    // Events as the bus sends them (engine/event_bus.ts): the data is the whole event.
    const event = asked.length === 1
      ? { id: "1-1", seq: 1, kind: "server.started", at: 0, server: "fs", data: {} }
      : { id: "1-2", seq: 2, kind: "call.finished", at: 0, data: {} };
    const body = `id: ${event.id}\nevent: ${event.kind}\ndata: ${JSON.stringify(event)}\n\n`;
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
