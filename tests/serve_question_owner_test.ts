/**
 * Over `mcpx serve --http`, a question belongs to the client whose call
 * raised it (decision 0059): another client neither lists nor answers it,
 * nor receives the call's result; the asking client gets the question back
 * (not a failure) and its own result once it answers. A 2026-07-28 client of
 * no session answers inline through `input_required`, its retry (a request of
 * its own) answering as the caller that asked. Against the real
 * server-everything's elicitation tool, through one serve process.
 */
import assert from "node:assert/strict";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { backgroundMcpx, eventually, freePort, stdioServer, world } from "./_helpers.ts";

const text = (r: unknown) =>
  ((r as { content: { type: string; text?: string }[] }).content[0]?.text) ?? "";

const ASK = { target: "everything.trigger_elicitation_request", arguments: {} };

Deno.test("mcpx serve --http: a client sees, answers and receives only what its own calls raised", async () => {
  await using w = await world();
  w.env.MCPX_ELICIT_TIMEOUT = "60s";
  await w.writeConfig({ mcpServers: { everything: stdioServer("everything", ["stdio"]) } });
  const port = freePort();
  await using serve = backgroundMcpx(w, ["serve", "--http", "--port", String(port)]);
  assert.ok(await eventually(() => /listening on/.test(serve.output()), 60_000), serve.output());
  const url = new URL(`http://127.0.0.1:${port}/mcp`);
  const connect = async (modern = false, capabilities = {}) => {
    const c = new Client({ name: "owner-test", version: "0" }, {
      capabilities,
      ...(modern ? { versionNegotiation: { mode: { pin: "2026-07-28" } } } : {}),
    });
    await c.connect(new StreamableHTTPClientTransport(url));
    return c;
  };
  const a = await connect();
  const b = await connect();
  try {
    // A client that cannot be asked gets the question as its call's answer, not a failure.
    const waiting = await a.callTool({ name: "mcpx_call", arguments: ASK });
    const question = (waiting.structuredContent as { question?: { id: string; kind: string } })
      ?.question;
    assert.match(question?.id ?? "", /^elc-[0-9a-f]{8}$/, JSON.stringify(waiting));
    assert.equal(question!.kind, "elicitation");
    assert.doesNotMatch(text(waiting), /"ok":\s*false/);
    const id = question!.id;

    // Another client does not see it, cannot answer it, and gets no result of A's call.
    const listed = await b.callTool({ name: "mcpx_elicit", arguments: { action: "list" } });
    assert.notEqual(listed.isError, true, JSON.stringify(listed));
    assert.deepEqual((listed.structuredContent as { questions: unknown[] }).questions, []);
    const stolen = await b.callTool({
      name: "mcpx_elicit",
      arguments: { action: "answer", id, words: ["name=Mallory", "check=true"], wait: true },
    });
    assert.equal(stolen.isError, true, JSON.stringify(stolen));
    assert.match(text(stolen), /question-not-yours/);
    assert.doesNotMatch(JSON.stringify(stolen), /Mallory|dark and stormy/);

    // A sees it, answers it and receives its own call's result.
    const mine = await a.callTool({ name: "mcpx_elicit", arguments: { action: "list" } });
    assert.deepEqual(
      (mine.structuredContent as { questions: { id: string }[] }).questions.map((q) => q.id),
      [id],
    );
    const answered = await a.callTool({
      name: "mcpx_elicit",
      arguments: { action: "answer", id, words: ["name=Ada Lovelace", "check=true"], wait: true },
    });
    assert.notEqual(answered.isError, true, JSON.stringify(answered));
    assert.match(text(answered), /Ada Lovelace/);
  } finally {
    await a.close();
    await b.close();
  }

  // A 2026-07-28 client of no session is asked by input_required and answers on its retry.
  const modern = await connect(true, { elicitation: { form: {} } });
  try {
    modern.setRequestHandler("elicitation/create", () =>
      ({
        action: "accept",
        content: { name: "Grace Hopper", check: true },
      }) as never);
    const r = await modern.callTool({ name: "mcpx_call", arguments: ASK });
    assert.notEqual(r.isError, true, JSON.stringify(r));
    // mcpx_call answers with the tool's own result, which says what was answered in a later item.
    assert.match(JSON.stringify(r.content), /Grace Hopper/);
  } finally {
    await modern.close();
  }
});
