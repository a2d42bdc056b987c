/**
 * Through `mcpx serve --passthrough`, a question reaches the client whose call
 * raised it when several calls are in flight on one upstream instance
 * (decisions 0059, 0075). The upstream is our `asks` fixture: its `ask_for`
 * calls wait for each other, so every call is in flight before any asks, then
 * each asks for a value naming its own argument.
 *
 * Over Streamable HTTP the upstream says whose a question is (it goes out on
 * the call's own response stream): two clients each get their own call's
 * question, answer it, and get their own answer back; so do one client's two
 * calls, and a call that asks again while its first question is open. Over stdio nothing says whose it is: a question asked while another
 * client's call is in flight reaches nobody else, and reaches its own client
 * once that other call has ended.
 */

import assert from "node:assert/strict";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import {
  type Background,
  background,
  eventually,
  fixtureArgv,
  fixtureServer,
  mcpxArgv,
  world,
} from "./_helpers.ts";

type World = Awaited<ReturnType<typeof world>>;

/** What `ask_for` answers: the name it asked for, how many calls it met, the client's answers. */
interface Asked {
  name: string;
  met: number;
  answers?: { action?: string; content?: { value?: string } }[];
}

/**
 * An SDK client of `mcpx serve --passthrough asks` over stdio that answers
 * each question with `answer(message)`, and keeps the messages it was asked.
 */
async function passthroughClient(
  w: World,
  answer: (message: string) => string | Promise<string>,
) {
  const client = new Client({ name: "question-owner-test", version: "1.0.0" }, {
    capabilities: { elicitation: { form: {} } },
  });
  const asked: string[] = [];
  client.setRequestHandler("elicitation/create", async (request) => {
    const message = (request.params as { message: string }).message;
    asked.push(message);
    return { action: "accept", content: { value: await answer(message) } };
  });
  await client.connect(
    new StdioClientTransport({
      command: Deno.execPath(),
      args: mcpxArgv(["serve", "--passthrough", "asks"]).slice(1),
      cwd: w.dir,
      env: w.env,
      stderr: "inherit",
    }),
  );
  return Object.assign(client, { asked });
}

/** Calls `ask_for` and reads its answer. */
async function askFor(client: Client, args: Record<string, unknown>): Promise<Asked> {
  const result = await client.callTool({ name: "ask_for", arguments: args });
  assert.notEqual(result.isError, true, JSON.stringify(result));
  return JSON.parse((result.content as { text: string }[])[0].text);
}

/** The `asks` fixture over Streamable HTTP on a free port; its endpoint's URL. */
async function httpAsks(w: World): Promise<Background & { url: string }> {
  const [command, ...args] = fixtureArgv("asks", ["--http", "0"]);
  // Not marked: the world's processes are mcpx's own.
  const env = { ...w.env };
  delete env.MCPX_TEST_MARK;
  const process = background(command, args, { env, cwd: w.dir });
  const listening = /listening (http:\/\/\S+)/;
  await eventually(() => process.exited() || listening.test(process.output()), 60_000);
  const url = process.output().match(listening)?.[1];
  if (!url) {
    await process[Symbol.asyncDispose]();
    throw new Error(`the asks fixture did not listen:\n${process.output()}`);
  }
  return Object.assign(process, { url });
}

Deno.test("servePassthrough: over Streamable HTTP each call's question reaches its own client, with several calls in flight", async () => {
  await using w = await world();
  // Before decision 0075 such a question reached no client and expired: fail in seconds, not 10 min.
  w.env.MCPX_ELICIT_TIMEOUT = "10s";
  await using upstream = await httpAsks(w);
  await w.writeConfig({
    mcpServers: { asks: { url: upstream.url, mcpx: { protocol: "legacy" } } },
  });
  const a = await passthroughClient(w, () => "alice");
  const b = await passthroughClient(w, () => "bob");
  try {
    for (let round = 0; round < 3; round++) {
      const [fromA, fromB] = await Promise.all([
        askFor(a, { name: `a${round}`, together: 2 }),
        askFor(b, { name: `b${round}`, together: 2 }),
      ]);
      assert.equal(fromA.met, 2, "both calls were in flight on one instance before either asked");
      assert.deepEqual(fromA.answers, [{ action: "accept", content: { value: "alice" } }]);
      assert.deepEqual(fromB.answers, [{ action: "accept", content: { value: "bob" } }]);
    }
    assert.deepEqual(a.asked, ["Value for a0?", "Value for a1?", "Value for a2?"]);
    assert.deepEqual(b.asked, ["Value for b0?", "Value for b1?", "Value for b2?"]);

    // One client's two calls at once: each gets its own question, and its own result.
    const [first, second] = await Promise.all([
      askFor(a, { name: "first", together: 2 }),
      askFor(a, { name: "second", together: 2 }),
    ]);
    assert.equal(first.name, "first");
    assert.equal(second.name, "second");
    assert.equal(first.answers?.[0].action, "accept", JSON.stringify(first));
    assert.equal(second.answers?.[0].action, "accept", JSON.stringify(second));
    assert.deepEqual(a.asked.slice(3).sort(), ["Value for first?", "Value for second?"]);
  } finally {
    await a.close();
    await b.close();
  }
});

Deno.test("servePassthrough: over Streamable HTTP a call's second question, asked while its first is open and another client's call is in flight, reaches its own client", async () => {
  await using w = await world();
  w.env.MCPX_ELICIT_TIMEOUT = "10s";
  await using upstream = await httpAsks(w);
  await w.writeConfig({
    mcpServers: { asks: { url: upstream.url, mcpx: { protocol: "legacy" } } },
  });
  // Alice holds her first answer until her second question is open.
  const secondOpen = Promise.withResolvers<void>();
  const a = await passthroughClient(w, async (message) => {
    if (message.includes("(1 of 2)")) await secondOpen.promise;
    return "alice";
  });
  const b = await passthroughClient(w, () => "bob");
  // Both calls, settled before the clients close.
  const calls: Promise<unknown>[] = [];
  try {
    const fromA = askFor(a, { name: "a", together: 2, twice: true });
    calls.push(fromA);
    assert.ok(await eventually(() => a.asked.length === 1), "alice is asked her first question");
    // Bob's call arrives and stays in flight until a question is answered; alice's asks again.
    const fromB = askFor(b, { name: "b", together: 2, until: "answered" });
    calls.push(fromB);
    const asked = async () =>
      (await w.json(["elicit", "list", "--any-session", "--all"])).questions.length === 2;
    assert.ok(await eventually(asked, 30_000), "the second question was asked");
    secondOpen.resolve();
    assert.equal((await fromB).met, 2);
    assert.deepEqual(b.asked, [], "bob was never put alice's question");
    assert.deepEqual((await fromA).answers, [
      { action: "accept", content: { value: "alice" } },
      { action: "accept", content: { value: "alice" } },
    ]);
    assert.deepEqual(a.asked, ["Value for a (1 of 2)?", "Value for a (2 of 2)?"]);
  } finally {
    secondOpen.resolve();
    await Promise.allSettled(calls);
    await a.close();
    await b.close();
  }
});

Deno.test("servePassthrough: over stdio a question another client's call may have asked reaches no other client, and its own once that call ends", async () => {
  await using w = await world();
  w.env.MCPX_ELICIT_TIMEOUT = "10s";
  await w.writeConfig({ mcpServers: { asks: fixtureServer({ fixture: "asks" }) } });
  const a = await passthroughClient(w, () => "alice");
  const b = await passthroughClient(w, () => "bob");
  try {
    // Bob's call is in flight when alice's asks, and ends while her question is open: stdio
    // does not say whose the question is, so neither is told until only hers can have asked it.
    const [fromA, fromB] = await Promise.all([
      askFor(a, { name: "a", together: 2 }),
      askFor(b, { name: "b", together: 2, until: "asked" }),
    ]);
    assert.equal(fromB.met, 2, "both calls were in flight on one instance when alice's asked");
    assert.deepEqual(fromA.answers, [{ action: "accept", content: { value: "alice" } }]);
    assert.deepEqual(a.asked, ["Value for a?"]);
    assert.deepEqual(b.asked, [], "bob was never put alice's question");
  } finally {
    await a.close();
    await b.close();
  }
});

Deno.test("servePassthrough: over stdio two questions asked at once, that nothing ties to a call, reach neither client", async () => {
  await using w = await world();
  w.env.MCPX_ELICIT_TIMEOUT = "2s";
  await w.writeConfig({ mcpServers: { asks: fixtureServer({ fixture: "asks" }) } });
  const a = await passthroughClient(w, () => "alice");
  const b = await passthroughClient(w, () => "bob");
  try {
    // Either question may be either call's: putting one to a client could show it another's.
    const [fromA, fromB] = await Promise.all([
      askFor(a, { name: "a", together: 2 }),
      askFor(b, { name: "b", together: 2 }),
    ]);
    assert.equal(fromA.met, 2);
    assert.deepEqual(fromA.answers, [{ action: "cancel" }], "expired: elicit.timeout");
    assert.deepEqual(fromB.answers, [{ action: "cancel" }]);
    // While both calls run, neither question reaches a client. Both expire together; once one
    // call has ended, the other's question may reach its own client in the moment before it
    // expires (decision 0075: told to its call once only one call can have asked it). Never
    // another's, and never both.
    assert.ok(a.asked.every((m) => m === "Value for a?"), `a was asked ${a.asked}`);
    assert.ok(b.asked.every((m) => m === "Value for b?"), `b was asked ${b.asked}`);
    assert.ok(a.asked.length + b.asked.length <= 1, `both were asked: ${a.asked}, ${b.asked}`);
  } finally {
    await a.close();
    await b.close();
  }
});
