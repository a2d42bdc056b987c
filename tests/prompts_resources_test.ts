/**
 * `mcpx prompts` and `mcpx resources` against the real server-everything
 * (prompts, resources, templates) and server-memory (no prompts), over
 * stdio: listing, rendering with checked arguments, reading text, describing
 * binary and writing its exact bytes with --out, expanding a template, and
 * each request in the durable log. One world and one warm daemon.
 */

import assert from "node:assert/strict";
import { join } from "../core/posix_path.ts";
import { stdioServer, world } from "./_helpers.ts";

Deno.test("mcpx prompts and resources list, render and read a real server's content", async (t) => {
  await using w = await world();
  await w.writeConfig({
    mcpServers: {
      everything: stdioServer("everything", ["stdio"]),
      memory: stdioServer("memory"),
      broken: { command: "/nonexistent/prompt-server" },
    },
  });

  await t.step(
    "prompts lists every namespace's prompts; a server without any has none",
    async () => {
      const r = await w.mcpx(["--json", "prompts"]);
      assert.equal(r.code, 1, "the broken server's failure is the exit status");
      const { namespaces } = JSON.parse(r.stdout);
      const everything = namespaces.find((n: { namespace: string }) =>
        n.namespace === "everything"
      );
      const args = everything.prompts.find((p: { name: string }) => p.name === "args-prompt");
      assert.deepEqual(args.arguments, [
        { name: "city", description: "Name of the city", required: true },
        { name: "state" },
      ]);
      assert.deepEqual(namespaces.find((n: { namespace: string }) => n.namespace === "memory"), {
        namespace: "memory",
        prompts: [],
      });
      const broken = namespaces.find((n: { namespace: string }) => n.namespace === "broken");
      assert.match(broken.error, /command "\/nonexistent\/prompt-server" was not found/);
      assert.match(r.stderr, /^error: broken: server "broken": command/m);
    },
  );

  await t.step(
    "prompts <ns> of a server without prompts is an empty list, not an error",
    async () => {
      const r = await w.mcpx(["prompts", "memory"]);
      assert.equal(r.code, 0, r.stderr);
      assert.equal(r.stdout, "memory publishes no prompts\n");
    },
  );

  await t.step("prompts <ns> of a server that does not start fails as call does", async () => {
    const r = await w.mcpx(["prompts", "broken"]);
    assert.equal(r.code, 1);
    assert.match(
      r.stderr,
      /^error: server "broken": command "\/nonexistent\/prompt-server" was not found/,
    );
  });

  await t.step("the table marks required arguments", async () => {
    const r = await w.mcpx(["prompts", "everything"]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /everything\.args-prompt +city \(required\), state +A prompt/);
  });

  await t.step("a prompt is rendered with its arguments, role and text", async () => {
    const r = await w.mcpx(["prompts", "everything.args-prompt", "city=Paris"]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, "user:\nWhat's weather in Paris?\n");
    const json = await w.json(["prompts", "everything.args-prompt", "city=Paris", "state=TX"]);
    assert.deepEqual(json.messages, [
      { role: "user", content: { type: "text", text: "What's weather in Paris, TX?" } },
    ]);
  });

  await t.step("non-text content of a rendered prompt is described, not inlined", async () => {
    const r = await w.mcpx([
      "prompts",
      "everything.resource-prompt",
      "resourceType=Text",
      "resourceId=1",
    ]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(
      r.stdout,
      /\[resource demo:\/\/resource\/dynamic\/text\/1: text\/plain, \d+ bytes/,
    );
    assert.doesNotMatch(r.stdout, /This is a plaintext resource/);
  });

  await t.step(
    "missing required arguments are named together; an unknown one gets a suggestion",
    async () => {
      const missing = await w.mcpx(["prompts", "everything.completable-prompt"]);
      assert.equal(missing.code, 2);
      assert.match(
        missing.stderr,
        /error: prompt everything\.completable-prompt needs the arguments department, name;/,
      );
      const unknown = await w.mcpx(["prompts", "everything.args-prompt", "cty=Paris"]);
      assert.equal(unknown.code, 2);
      assert.match(unknown.stderr, /takes no argument "cty"; did you mean city\?/);
      const prompt = await w.mcpx(["prompts", "everything.args-promt"]);
      assert.equal(prompt.code, 1);
      assert.match(
        prompt.stderr,
        /unknown prompt "everything\.args-promt"; did you mean everything\.args-prompt\?/,
      );
    },
  );

  await t.step("resources lists resources and templates", async () => {
    const { namespaces } = await w.json(["resources", "everything"]);
    assert.equal(namespaces.length, 1);
    assert.ok(
      namespaces[0].resources.some((r: { uri: string }) =>
        r.uri === "demo://resource/static/document/features.md"
      ),
    );
    assert.deepEqual(
      namespaces[0].resourceTemplates.map((t: { uriTemplate: string }) => t.uriTemplate),
      ["demo://resource/dynamic/text/{resourceId}", "demo://resource/dynamic/blob/{resourceId}"],
    );
  });

  await t.step("a text resource is printed", async () => {
    const r = await w.mcpx([
      "resources",
      "everything",
      "demo://resource/static/document/features.md",
    ]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^# Everything Server/);
  });

  await t.step("a template is expanded with key=value", async () => {
    const r = await w.mcpx([
      "resources",
      "everything",
      "demo://resource/dynamic/text/{resourceId}",
      "resourceId=2",
    ]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^Resource 2: This is a plaintext resource/);
    const wrong = await w.mcpx([
      "resources",
      "everything",
      "demo://resource/dynamic/text/{resourceId}",
    ]);
    assert.equal(wrong.code, 2);
    assert.match(wrong.stderr, /needs a value for resourceId; pass resourceId=…/);
  });

  await t.step("a binary resource is described; --out writes its exact bytes", async () => {
    const blob = "demo://resource/dynamic/blob/{resourceId}";
    const r = await w.mcpx(["resources", "everything", blob, "resourceId=3"]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(
      r.stdout,
      /^\[binary demo:\/\/resource\/dynamic\/blob\/3: text\/plain, \d+ bytes; --out FILE/,
    );
    assert.doesNotMatch(r.stdout, /UmVzb3VyY2Ug/, "no base64");

    const file = join(w.dir, "blob.bin");
    const both = await w.mcpx([
      "--json",
      "resources",
      "everything",
      blob,
      "resourceId=3",
      "--out",
      file,
    ]);
    assert.equal(both.code, 0, both.stderr);
    const sent = JSON.parse(both.stdout).contents[0].blob;
    assert.deepEqual(await Deno.readFile(file), Uint8Array.fromBase64(sent));

    const again = await w.mcpx([
      "resources",
      "everything",
      blob,
      "resourceId=3",
      "--out",
      "blob.bin",
    ]);
    assert.equal(again.code, 0, again.stderr);
    assert.match(again.stderr, /^note: replaced blob\.bin, which held \d+ bytes/);
    const dir = await w.mcpx(["resources", "everything", blob, "resourceId=3", "--out", w.dir]);
    assert.equal(dir.code, 2);
    assert.match(dir.stderr, /is a directory; name a file inside it/);
  });

  await t.step("each request is in the durable log", async () => {
    const { records } = await w.json(["log", "--event", "request.end", "-n", "1000"]);
    const methods = new Set(records.map((r: { attrs: { method: string } }) => r.attrs.method));
    for (const m of ["prompts/list", "prompts/get", "resources/list", "resources/read"]) {
      assert.ok(methods.has(m), `${m} logged: ${[...methods]}`);
    }
    const read = records.find((r: { attrs: { target?: string } }) =>
      r.attrs.target === "demo://resource/dynamic/blob/3"
    );
    assert.equal(read.attrs.namespace, "everything");
  });
});
