import assert from "node:assert/strict";
import { emptyDaemon } from "../engine/_empty_daemon.ts";
import { serveDaemon } from "./http.ts";
import { requestDaemon } from "../wire/daemon_request.ts";
import type { CallOptions } from "../engine/engine.ts";
import { McpxError } from "../core/errors.ts";

/** A daemon whose `call` says `notes` and then waits for `gate` before answering. */
async function withNotingDaemon(
  notes: string[],
  answer: () => Promise<unknown>,
  run: (socket: string) => Promise<void>,
): Promise<void> {
  const { daemon, dir } = await emptyDaemon();
  daemon.call = (_ns, _tool, _args, _caller, options?: CallOptions) => {
    for (const note of notes) options?.onNote?.(note);
    return answer() as ReturnType<typeof daemon.call>;
  };
  const socket = `${dir}/d.sock`;
  const server = await serveDaemon(daemon, socket, () => {});
  try {
    await run(socket);
  } finally {
    await server.shutdown();
    await daemon.shutdown();
    await Deno.remove(dir, { recursive: true });
  }
}

Deno.test("a live caller hears a call's note while the call still runs, then its answer", async () => {
  const { promise: gate, resolve: open } = Promise.withResolvers<void>();
  await withNotingDaemon(["waiting: a held instance"], async () => {
    await gate;
    return { content: [{ type: "text", text: "done" }] };
  }, async (socket) => {
    const heard: string[] = [];
    const { promise: noted, resolve: onNoted } = Promise.withResolvers<void>();
    const call = requestDaemon<{ content: unknown[] }>(
      socket,
      "call",
      { target: "fs.read", live: true },
      {
        onNote: (text) => {
          heard.push(text);
          onNoted();
        },
      },
    );
    // Heard before the call may answer: the gate opens only after the note arrived.
    await noted;
    assert.deepEqual(heard, ["waiting: a held instance"]);
    open();
    const result = await call;
    assert.deepEqual(result.content, [{ type: "text", text: "done" }]);
    assert.deepEqual(heard, ["waiting: a held instance"], "each note is told once");
  });
});

Deno.test("a caller that is not live gets the notes with the answer, in order", async () => {
  await withNotingDaemon(
    ["first", "second"],
    () => Promise.resolve({ content: [] }),
    async (socket) => {
      const heard: string[] = [];
      await requestDaemon(socket, "call", { target: "fs.read" }, {
        onNote: (text) => heard.push(text),
      });
      assert.deepEqual(heard, ["first", "second"]);
    },
  );
});

Deno.test("a streamed answer that fails is the daemon's error, after its notes", async () => {
  const { promise: gate, resolve: open } = Promise.withResolvers<void>();
  await withNotingDaemon(["waiting"], async () => {
    await gate;
    throw new McpxError("server-unavailable", "it cannot start");
  }, async (socket) => {
    const heard: string[] = [];
    const call = requestDaemon(socket, "call", { target: "fs.read", live: true }, {
      onNote: (text) => {
        heard.push(text);
        open();
      },
    });
    await assert.rejects(
      call,
      (e: unknown) => e instanceof McpxError && e.code === "server-unavailable",
    );
    assert.deepEqual(heard, ["waiting"]);
  });
});

Deno.test("a live call with nothing to say is answered as one JSON body", async () => {
  await withNotingDaemon([], () => Promise.resolve({ content: [] }), async (socket) => {
    const { exchangeRequest, encodeRequest } = await import("../wire/wire.ts");
    const response = await exchangeRequest(
      socket,
      encodeRequest("call", JSON.stringify({ target: "fs.read", live: true })),
    );
    assert.deepEqual(JSON.parse(response.body), { ok: true, result: { content: [] } });
  });
});
