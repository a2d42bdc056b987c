import assert from "node:assert/strict";
import { emptyDaemon } from "../engine/_empty_daemon.ts";
import { serveDaemon } from "./http.ts";
import { requestDaemon } from "../wire/daemon_request.ts";
import type { CallOptions } from "../engine/engine.ts";
import { McpxError } from "../core/errors.ts";
import type { WireNotification } from "../wire/wire.ts";

/** A daemon whose `call` is `call`, served on a socket for `run`. */
async function withCallingDaemon(
  call: (options?: CallOptions) => Promise<unknown>,
  run: (socket: string) => Promise<void>,
): Promise<void> {
  const { daemon, dir } = await emptyDaemon();
  daemon.call = (_ns, _tool, _args, _caller, options?: CallOptions) =>
    call(options) as ReturnType<typeof daemon.call>;
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

/** A daemon whose `call` says `notes` and then answers what `answer` does. */
function withNotingDaemon(
  notes: string[],
  answer: () => Promise<unknown>,
  run: (socket: string) => Promise<void>,
): Promise<void> {
  return withCallingDaemon((options) => {
    for (const note of notes) options?.onNote?.(note);
    return answer();
  }, run);
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

/**
 * A daemon whose `call` hears its server send two progress updates and a log
 * message between them, and answers in the same tick, as a server that
 * reports 100% and answers does.
 */
function withNotifyingDaemon(run: (socket: string) => Promise<void>): Promise<void> {
  return withCallingDaemon((options) => {
    options?.onprogress?.({ progress: 1, total: 2 });
    options?.onmessage?.({ level: "info", data: "half" });
    options?.onprogress?.({ progress: 2, total: 2, message: "done" });
    return Promise.resolve({ content: [{ type: "text", text: "done" }] });
  }, run);
}

const HEARD = [
  "notifications/progress 1/2",
  "notifications/message half",
  "notifications/progress 2/2",
];

/** Each notification as one line of {@link HEARD}. */
function line(n: WireNotification): string {
  return n.method === "notifications/progress"
    ? `${n.method} ${n.params.progress}/${n.params.total}`
    : `${n.method} ${n.params.data}`;
}

Deno.test("a call that carries a notify token tells its caller every notification of its server, in order, before the answer, live or not", async () => {
  await withNotifyingDaemon(async (socket) => {
    for (const live of [true, false]) {
      const heard: string[] = [];
      const result = await requestDaemon<{ content: unknown[] }>(
        socket,
        "call",
        { target: "fs.read", notify: "t", live },
        { onNotification: (n) => heard.push(line(n)) },
      );
      // Told before the request resolved: nothing is left to arrive after the answer.
      assert.deepEqual(heard, HEARD, `live: ${live}`);
      assert.deepEqual(result.content, [{ type: "text", text: "done" }]);
    }
    const quiet: string[] = [];
    await requestDaemon(socket, "call", { target: "fs.read", live: true }, {
      onNotification: (n) => quiet.push(line(n)),
    });
    assert.deepEqual(quiet, [], "a call without a notify token is told nothing");
  });
});
