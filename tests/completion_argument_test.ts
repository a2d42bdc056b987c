/**
 * `--complete` of `mcpx prompts` and `mcpx resources` against the real
 * server-everything: its `completable-prompt` (department, then name narrowed
 * by the department given) and its resource templates (`resourceId`); and
 * server-memory, which offers no completion. One world, one warm daemon.
 */

import assert from "node:assert/strict";
import { stdioServer, world } from "./_helpers.ts";

Deno.test("mcpx prompts/resources --complete print a server's completions", async (t) => {
  await using w = await world();
  await w.writeConfig({
    mcpServers: {
      everything: stdioServer("everything", ["stdio"]),
      memory: stdioServer("memory"),
    },
  });

  await t.step("a prompt argument's values, one per line", async () => {
    const r = await w.mcpx([
      "prompts",
      "everything.completable-prompt",
      "--complete",
      "department=",
    ]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, "Engineering\nSales\nMarketing\nSupport\n");
    const some = await w.mcpx([
      "prompts",
      "everything.completable-prompt",
      "--complete",
      "department=S",
    ]);
    assert.equal(some.stdout, "Sales\nSupport\n");
  });

  await t.step("the other arguments given are the context that narrows the values", async () => {
    const r = await w.mcpx([
      "prompts",
      "everything.completable-prompt",
      "department=Engineering",
      "--complete",
      "name=",
    ]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, "Alice\nBob\nCharlie\n");
  });

  await t.step("--json prints the whole answer", async () => {
    const json = await w.json([
      "prompts",
      "everything.completable-prompt",
      "--complete",
      "department=E",
    ]);
    assert.equal(json.offered, true);
    assert.deepEqual(json.values, ["Engineering"]);
  });

  await t.step("a resource template's variable", async () => {
    const r = await w.mcpx([
      "resources",
      "everything",
      "demo://resource/dynamic/text/{resourceId}",
      "--complete",
      "resourceId=3",
    ]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, "3\n");
    const none = await w.mcpx([
      "resources",
      "everything",
      "demo://resource/dynamic/text/{resourceId}",
      "--complete",
      "resourceId=x",
    ]);
    assert.equal(none.code, 0, none.stderr);
    assert.equal(none.stdout, "");
  });

  await t.step("a server without completion offers none: empty, exit 0", async () => {
    const r = await w.mcpx(["prompts", "memory.anything", "--complete", "a="]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, "");
    assert.match(r.stderr, /^note: memory offers no completion$/m);
    const json = await w.json(["prompts", "memory.anything", "--complete", "a="]);
    assert.deepEqual(json, { offered: false, values: [] });
  });

  await t.step(
    "--complete without name=prefix, or without a prompt, is a usage error",
    async () => {
      const bad = await w.mcpx(["prompts", "everything.completable-prompt", "--complete", "x"]);
      assert.equal(bad.code, 2);
      assert.match(bad.stderr, /--complete takes name=prefix, got "x"/);
      const noPrompt = await w.mcpx(["prompts", "everything", "--complete", "a="]);
      assert.equal(noPrompt.code, 2);
      assert.match(noPrompt.stderr, /completes an argument of one prompt/);
    },
  );

  await t.step("each completion/complete is in the durable log", async () => {
    const { records } = await w.json(["log", "--event", "request.end", "-n", "1000"]);
    assert.ok(
      records.some((r: { attrs: { method: string; target?: string } }) =>
        r.attrs.method === "completion/complete" && r.attrs.target === "completable-prompt"
      ),
    );
  });
});
