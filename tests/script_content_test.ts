/**
 * `ns.$prompts` and `ns.$resources` in a script (`mcpx exec`) against the
 * real server-everything: listing and rendering its prompts, listing its
 * resources and templates, reading a resource and an expanded template,
 * completing a prompt's argument and a template's variable; the
 * daemon's checks reach the script as typed errors; and server-memory, which
 * publishes none, lists nothing. One world, one warm daemon.
 */

import assert from "node:assert/strict";
import { stdioServer, world } from "./_helpers.ts";

Deno.test("a script lists and renders prompts and reads resources through ns.$prompts/$resources", async (t) => {
  await using w = await world();
  await w.writeConfig({
    mcpServers: {
      everything: stdioServer("everything", ["stdio"]),
      memory: stdioServer("memory"),
    },
  });

  const exec = async (code: string) => {
    const r = await w.mcpx(["exec", code]);
    assert.equal(r.code, 0, r.stderr);
    return JSON.parse(r.stdout);
  };

  await t.step("$prompts.list() and $prompts.get(name, args)", async () => {
    const out = await exec(
      "const prompts = await everything.$prompts.list();\n" +
        'const got = await everything.$prompts.get("args-prompt", { city: "Paris" });\n' +
        "({ names: prompts.map((p) => p.name), messages: got.messages })",
    );
    assert.ok(out.names.includes("args-prompt"), out.names);
    assert.ok(out.names.includes("completable-prompt"), out.names);
    assert.deepEqual(out.messages, [
      { role: "user", content: { type: "text", text: "What's weather in Paris?" } },
    ]);
  });

  await t.step("$resources.list() and $resources.read(uri, vars)", async () => {
    const out = await exec(
      "const { resources, templates } = await everything.$resources.list();\n" +
        'const doc = await everything.$resources.read("demo://resource/static/document/features.md");\n' +
        'const two = await everything.$resources.read("demo://resource/dynamic/text/{resourceId}", { resourceId: "2" });\n' +
        "({ some: resources.length > 0, templates: templates.map((t) => t.uriTemplate),\n" +
        "   doc: doc.contents[0].text.slice(0, 17), two: two.contents[0].text })",
    );
    assert.equal(out.some, true);
    assert.deepEqual(out.templates, [
      "demo://resource/dynamic/text/{resourceId}",
      "demo://resource/dynamic/blob/{resourceId}",
    ]);
    assert.equal(out.doc, "# Everything Serv");
    assert.match(out.two, /^Resource 2: This is a plaintext resource/);
  });

  await t.step("$prompts.complete() and $resources.complete()", async () => {
    const out = await exec(
      'const dept = await everything.$prompts.complete("completable-prompt", "department", "S");\n' +
        'const names = await everything.$prompts.complete("completable-prompt", "name", "",\n' +
        '  { department: "Engineering" });\n' +
        "const ids = await everything.$resources.complete(\n" +
        '  "demo://resource/dynamic/text/{resourceId}", "resourceId", "3");\n' +
        "({ dept: dept.values, names: names.values, ids: ids.values, offered: ids.offered })",
    );
    assert.deepEqual(out, {
      dept: ["Sales", "Support"],
      names: ["Alice", "Bob", "Charlie"],
      ids: ["3"],
      offered: true,
    });
  });

  await t.step("the daemon's checks reach the script as McpxCallError codes", async () => {
    const out = await exec(
      "const codes = [];\n" +
        'try { await everything.$prompts.get("completable-prompt", {}); } catch (e) { codes.push(e.code); }\n' +
        'try { await everything.$prompts.get("no-such-prompt"); } catch (e) { codes.push(e.code); }\n' +
        "codes",
    );
    assert.deepEqual(out, ["usage", "not-found"]);
  });

  await t.step("$prompts and $resources are not tools: not enumerable, not in tools", async () => {
    const out = await exec(
      'const keys = Object.keys(everything);\n({ has: keys.includes("$prompts"), memory: await memory.$prompts.list() })',
    );
    assert.deepEqual(out, { has: false, memory: [] });
  });
});
