/**
 * The event bus through a real daemon's socket (issue 28, "Done when";
 * decision 0080): `GET /v1/events` followed across a disconnect and resumed
 * with `Last-Event-ID` (nothing lost, nothing twice), a position older than
 * `events.retention` answered with a gap, `?since=0` against no position,
 * the filters, the refusals, and `mcpx events` itself.
 *
 * @module
 */

import assert from "node:assert/strict";
import { fixtureServer, type World, world } from "./_helpers.ts";
import { requestDaemon } from "../wire/daemon_request.ts";
import { SseParser } from "../wire/sse.ts";
import type { BusEvent } from "../engine/event_bus.ts";

/** The retention the test's configuration sets: small, so old positions fall out. */
const RETENTION = 400;

/** A reader of `GET /v1/events` on a unix socket: events as they arrive, closable. */
class EventsStream implements AsyncDisposable {
  readonly events: BusEvent[] = [];
  readonly ids: string[] = [];
  readonly status: Promise<number>;
  #abort = new AbortController();
  #client: Deno.HttpClient;
  #done: Promise<void>;
  #wake?: () => void;

  constructor(socket: string, query: string, headers: Record<string, string> = {}) {
    this.#client = Deno.createHttpClient({ proxy: { transport: "unix", path: socket } });
    const response = fetch(`http://mcpx/v1/events${query}`, {
      client: this.#client,
      headers,
      signal: this.#abort.signal,
    });
    this.status = response.then((r) => r.status, () => 0);
    this.#done = response.then(async (r) => {
      const parser = new SseParser();
      const decoder = new TextDecoder();
      for await (const chunk of r.body!) {
        for (const message of parser.push(decoder.decode(chunk, { stream: true }))) {
          const event = JSON.parse(message.data) as BusEvent;
          assert.equal(message.id, event.id, "the SSE id is the event's id");
          assert.equal(message.event, event.kind, "the SSE event is the event's kind");
          this.ids.push(message.id!);
          this.events.push(event);
          this.#wake?.();
        }
      }
    }).catch((error) => {
      if (!this.#abort.signal.aborted) throw error;
    }).finally(() => this.#wake?.());
  }

  /** Resolves once `test` holds for the events read, or fails after `ms`. */
  async until(test: (events: BusEvent[]) => boolean, what: string, ms = 30_000): Promise<void> {
    const deadline = Date.now() + ms;
    while (!test(this.events)) {
      if (Date.now() > deadline) {
        throw new Error(`no ${what} within ${ms} ms; read ${this.events.length} events`);
      }
      await Promise.race([
        new Promise<void>((resolve) => this.#wake = resolve),
        this.#done,
        new Promise((resolve) => setTimeout(resolve, Math.max(1, deadline - Date.now()))),
      ]);
    }
  }

  /** Resolves when the daemon ends the stream. */
  ended(): Promise<void> {
    return this.#done;
  }

  async [Symbol.asyncDispose](): Promise<void> {
    if (this.#abort.signal.aborted) return;
    this.#abort.abort();
    await this.#done.catch(() => {});
    this.#client.close();
  }
}

/** A world with one fixture server and a small retention; its daemon's socket. */
async function eventsWorld(): Promise<{ w: World; socket: string }> {
  const w = await world();
  await w.writeConfig({
    events: { retention: RETENTION },
    mcpServers: { fx: fixtureServer() },
  });
  const first = await w.mcpx(["call", "fx.echo", '{"text":"hi"}']);
  assert.equal(first.code, 0, first.stderr);
  const { daemons } = await w.json<{ daemons: { socket: string }[] }>(["daemons"]);
  return { w, socket: daemons[0].socket };
}

/**
 * `n` calls of `fx.echo` over the socket, one after another (two events
 * each). Its failure is also caught at once, so a test that fails meanwhile
 * reports its own error, not this one's.
 */
function calls(socket: string, n: number, session?: string): Promise<void> {
  const run = async () => {
    for (let i = 0; i < n; i++) {
      await requestDaemon(socket, "call", {
        target: "fx.echo",
        arguments: { text: `n${i}` },
        ...(session ? { session } : {}),
      });
    }
  };
  const running = run();
  running.catch(() => {});
  return running;
}

/** Each seq once, in order, with none missing between the first and the last. */
function assertContiguous(events: BusEvent[], from: number, to: number): void {
  const seqs = events.map((e) => e.seq);
  assert.deepEqual(seqs, Array.from({ length: to - from + 1 }, (_, i) => from + i));
}

Deno.test("GET /v1/events follows 1,000 events across a disconnect: nothing lost, nothing twice", async () => {
  const { w, socket } = await eventsWorld();
  await using _ = w;
  // `since=0` replays what the first call published, from seq 1; no position, nothing old.
  {
    await using all = new EventsStream(socket, "?since=0&follow=false");
    await all.ended();
    assert.equal(all.events[0].seq, 1);
    assert.ok(all.events.some((e) => e.kind === "call.finished" && e.server === "fx"));
    assert.ok(all.events.some((e) => e.kind === "server.started" && e.server === "fx"));
    await using none = new EventsStream(socket, "?follow=false");
    await none.ended();
    assert.deepEqual(none.events, [], "no position is live only: nothing retained is replayed");
  }
  await using live = new EventsStream(socket, "");
  assert.equal(await live.status, 200);
  const before = (await requestDaemon<{ pid: number }>(socket, "health", {})).pid;
  assert.ok(before > 0);
  // Live only: the first event read is one published after connecting.
  await calls(socket, 1);
  await live.until((e) => e.some((x) => x.kind === "call.finished"), "live call.finished");
  const start = live.events[0].seq;
  assert.ok(start > 2, `live reading starts after what was published before (${start})`);

  // Read about half, disconnect, publish more while away, resume with Last-Event-ID.
  const target = start + 999;
  let first: BusEvent[];
  {
    await using reader = new EventsStream(socket, `?since=${start - 1}`);
    const feeding = calls(socket, 250);
    await reader.until((e) => e.length >= 500, "500 events");
    await reader[Symbol.asyncDispose]();
    await feeding;
    first = [...reader.events];
  }
  const lastId = first.at(-1)!.id;
  const away = calls(socket, 50); // published while no reader is connected
  await away;
  {
    await using resumed = new EventsStream(socket, "", { "last-event-id": lastId });
    const feeding = calls(socket, 250);
    await resumed.until((e) => e.length > 0 && e.at(-1)!.seq >= target, `events up to ${target}`);
    await feeding;
    const all = [...first, ...resumed.events].filter((e) => e.seq <= target);
    assertContiguous(all, start, target);
    assert.ok(!all.some((e) => e.kind === "gap"), "no gap within the retention");
  }
  // The live reader saw the same events, each once.
  await live.until((e) => e.length > 0 && e.at(-1)!.seq >= target, "the live reader to catch up");
  assertContiguous(live.events.filter((e) => e.seq <= target), start, target);

  // A position older than the retention: a gap with how many were lost, then the oldest kept.
  {
    await using old = new EventsStream(socket, "?since=1&follow=false");
    await old.ended();
    const [gap, next] = old.events;
    assert.equal(gap.kind, "gap");
    assert.equal(gap.data.reason, "retention");
    assert.equal(next.seq, (gap.data.missed as number) + 2);
    assert.equal(gap.seq, next.seq - 1, "the gap's id is a position to resume from");
    assert.equal(old.events.length - 1, RETENTION);
  }
  // A Last-Event-ID of another daemon (another epoch): a gap, then what this one kept.
  {
    await using other = new EventsStream(socket, "?follow=false", {
      "last-event-id": "00000000-12",
    });
    await other.ended();
    assert.equal(other.events[0].kind, "gap");
    assert.equal(other.events[0].data.reason, "epoch");
  }
});

Deno.test("GET /v1/events filters by kind, family, server and session; refuses what it cannot read", async () => {
  const { w, socket } = await eventsWorld();
  await using _ = w;
  await calls(socket, 2, "alpha");
  await calls(socket, 1, "beta");
  const read = async (query: string) => {
    await using s = new EventsStream(socket, query);
    await s.ended();
    return s.events;
  };
  const finished = await read("?since=0&follow=false&kind=call.finished");
  assert.ok(finished.length >= 4 && finished.every((e) => e.kind === "call.finished"));
  const family = await read("?since=0&follow=false&kind=server,session");
  assert.ok(family.length > 0);
  assert.ok(family.every((e) => e.kind.startsWith("server.") || e.kind.startsWith("session.")));
  assert.deepEqual(
    family.filter((e) => e.kind === "session.opened").map((e) => e.session),
    ["alpha", "beta"],
  );
  const alpha = await read("?since=0&follow=false&session=alpha&kind=call");
  assert.equal(alpha.length, 4);
  assert.ok(alpha.every((e) => e.session === "alpha"));
  assert.equal((await read("?since=0&follow=false&server=nope")).length, 0);

  const client = Deno.createHttpClient({ proxy: { transport: "unix", path: socket } });
  try {
    const refused = async (path: string, method = "GET") => {
      const response = await fetch(`http://mcpx${path}`, { client, method });
      return { status: response.status, body: await response.json() };
    };
    const since = await refused("/v1/events?since=abc");
    assert.equal(since.status, 400);
    assert.equal(since.body.error.code, "usage");
    assert.match(since.body.error.message, /since must be a sequence number .* got "abc"/);
    const kind = await refused("/v1/events?kind=sever");
    assert.equal(kind.status, 400);
    assert.match(kind.body.error.message, /kind "sever" is no event kind; did you mean server/);
    const unknown = await refused("/v1/events?sinse=1");
    assert.match(unknown.body.error.message, /no parameter "sinse"; it takes since, kind/);
    const post = await refused("/v1/events", "POST");
    assert.equal(post.status, 405);
    assert.match(post.body.error.message, /events is GET \/v1\/events/);
  } finally {
    client.close();
  }
});

Deno.test("a crash and the next call's start are server.crashed and server.restarted", async () => {
  const { w, socket } = await eventsWorld();
  await using _ = w;
  await using s = new EventsStream(socket, "?kind=server");
  // Live only: the reader's position is taken when the daemon answers the request.
  assert.equal(await s.status, 200);
  await requestDaemon(socket, "call", { target: "fx.crash", arguments: {} }).catch(() => {});
  await s.until((e) => e.some((x) => x.kind === "server.crashed"), "server.crashed");
  await calls(socket, 1);
  await s.until((e) => e.some((x) => x.kind === "server.restarted"), "server.restarted");
  const restarted = s.events.find((e) => e.kind === "server.restarted")!;
  assert.equal(restarted.data.why, "crash");
  assert.equal(restarted.server, "fx");
});

Deno.test("mcpx events prints what is retained, one JSON event per line, and -f follows until SIGINT", async () => {
  const { w } = await eventsWorld();
  await using _ = w;
  const printed = await w.mcpx(["events", "--json", "--kind", "call.finished"]);
  assert.equal(printed.code, 0, printed.stderr);
  const lines = printed.stdout.trim().split("\n").map((line) => JSON.parse(line) as BusEvent);
  assert.equal(lines.length, 1);
  assert.equal(lines[0].data.tool, "fx.echo");
  const human = await w.mcpx(["events", "--kind", "call"]);
  assert.match(human.stdout, /call\.finished +fx fx\.echo ok \d+(\.\d+)? ms/);

  const child = new Deno.Command(`${w.dir}/.bin/mcpx`, {
    args: ["events", "-f", "--json", "--kind", "call.finished", "--kind", "server.stopped"],
    env: w.env,
    clearEnv: true,
    cwd: w.dir,
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  try {
    const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
    // Calls until the follower prints one: it may connect after the first few.
    let text = "";
    const deadline = Date.now() + 30_000;
    const caller = (async () => {
      while (!text.includes("\n") && Date.now() < deadline) {
        await w.mcpx(["call", "fx.echo", '{"text":"followed"}']);
      }
    })();
    while (!text.includes("\n")) {
      const { value, done } = await reader.read();
      if (done) break;
      text += value;
    }
    await caller;
    const event = JSON.parse(text.split("\n")[0]) as BusEvent;
    assert.equal(event.kind, "call.finished");
    assert.ok(event.seq > lines[0].seq, "-f without --since is live only");

    // `mcpx stop` stays stopped: the follower waits for a daemon rather than starting one.
    assert.equal((await w.mcpx(["stop"])).code, 0);
    const errors = child.stderr.pipeThrough(new TextDecoderStream()).getReader();
    let said = "";
    // A follower that never says it waits is ended after 30 s, which fails the loop below.
    const late = setTimeout(() => child.kill("SIGKILL"), 30_000);
    try {
      while (!said.includes("waiting for the next one")) {
        const { value, done } = await errors.read();
        assert.ok(!done, `the follower ended without waiting for a daemon: ${said}`);
        said += value;
      }
    } finally {
      clearTimeout(late);
      errors.releaseLock();
    }
    // What the daemon published as it stopped reached the follower before its stream ended.
    const silent = setTimeout(() => child.kill("SIGKILL"), 30_000);
    try {
      while (!text.includes('"server.stopped"')) {
        const { value, done } = await reader.read();
        assert.ok(!done, `no server.stopped before the stream ended: ${text}`);
        text += value;
      }
    } finally {
      clearTimeout(silent);
    }
    const daemons = await w.json<{ daemons: unknown[] }>(["daemons"]);
    assert.deepEqual(daemons.daemons, [], "the follower started a daemon after mcpx stop");

    child.kill("SIGINT");
    reader.releaseLock();
    const status = await child.status;
    assert.equal(status.code, 0);
  } finally {
    try {
      child.kill("SIGKILL");
    } catch { /* exited */ }
    await child.status;
    await child.stdout.cancel().catch(() => {});
    await child.stderr.cancel().catch(() => {});
  }
});
