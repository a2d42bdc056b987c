/**
 * `mcpx call` against the real server-everything over stdio: how results,
 * arguments and failures reach the user. One world and one warm daemon for
 * every step.
 */

import assert from "node:assert/strict";
import { STACK_LINE, stdioServer, world } from "./_helpers.ts";

Deno.test("mcpx call prints results, reads arguments and reports failures", async (t) => {
  await using w = await world();
  await w.writeConfig({ mcpServers: { everything: stdioServer("everything", ["stdio"]) } });

  await t.step("call of a misspelt tool on a cold cache suggests the nearest name", async () => {
    const r = await w.mcpx(["call", "everything.ecko", '{"message":"x"}']);
    assert.equal(r.code, 1);
    assert.equal(r.stdout, "");
    assert.match(
      r.stderr,
      /^error: unknown tool "everything\.ecko"; did you mean everything\.echo\?/,
    );
    assert.doesNotMatch(
      r.stderr,
      /mcpx types everything\.ecko/,
      "no hint to a tool that is not there",
    );
  });

  await t.step("call prints a text result as text", async () => {
    const r = await w.mcpx(["call", "everything.echo", '{"message":"hello mcpx"}']);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, "Echo: hello mcpx\n");
    assert.equal(r.stderr, "");
  });

  await t.step("call prints structured output as JSON", async () => {
    const r = await w.mcpx(["call", "everything.get_structured_content", '{"location":"Chicago"}']);
    assert.equal(r.code, 0, r.stderr);
    const value = JSON.parse(r.stdout);
    assert.equal(typeof value.temperature, "number");
    assert.equal(typeof value.conditions, "string");
  });

  await t.step("call describes an image instead of dumping it", async () => {
    const raw = await w.json(["call", "everything.get_tiny_image"]);
    const image = raw.content.find((c: { type: string }) => c.type === "image");
    assert.ok(image && image.data.length > 1000, "the raw envelope carries the image data");

    const r = await w.mcpx(["call", "everything.get_tiny_image"]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /\[image: image\/png, [\d.]+ (KiB|bytes)/);
    assert.ok(!r.stdout.includes(image.data.slice(0, 64)), "no base64 in the human output");
    assert.ok(r.stdout.length < 500, `output is short, got ${r.stdout.length} chars`);
  });

  await t.step("call --raw prints the whole MCP envelope", async () => {
    const r = await w.mcpx(["call", "--raw", "everything.echo", '{"message":"raw"}']);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(JSON.parse(r.stdout), { content: [{ type: "text", text: "Echo: raw" }] });
  });

  await t.step("call reads arguments from stdin with -", async () => {
    const r = await w.mcpx(["call", "everything.get_sum", "-"], { stdin: '{"a": 2, "b": 40}' });
    assert.equal(r.code, 0, r.stderr);
    assert.ok(r.stdout.includes("42"), r.stdout);
  });

  await t.step("call reads arguments from @file, relative or absolute", async () => {
    await Deno.writeTextFile(`${w.dir}/args.json`, '{"message":"from a file"}');
    for (const ref of ["@args.json", `@${w.dir}/args.json`]) {
      const r = await w.mcpx(["call", "everything.echo", ref]);
      assert.equal(r.code, 0, r.stderr);
      assert.equal(r.stdout, "Echo: from a file\n");
    }
  });

  await t.step("call exits 1 with the text on stderr when the tool returns isError", async () => {
    const r = await w.mcpx(["call", "everything.echo", "{}"]);
    assert.equal(r.code, 1);
    assert.equal(r.stdout, "");
    assert.ok(r.stderr.includes("everything.echo returned an error"), r.stderr);
    assert.ok(r.stderr.includes("message"), r.stderr);
    assert.doesNotMatch(r.stderr, STACK_LINE);

    const json = await w.mcpx(["--json", "call", "everything.echo", "{}"]);
    assert.equal(json.code, 1);
    assert.equal(JSON.parse(json.stdout).isError, true);
  });

  await t.step("call of an unknown tool exits 1 and suggests the nearest name", async () => {
    const r = await w.mcpx(["call", "everything.ecko", '{"message":"x"}']);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /did you mean[^\n]*everything\.echo/);
    assert.doesNotMatch(r.stderr, STACK_LINE);

    const ns = await w.mcpx(["call", "everythin.echo", '{"message":"x"}']);
    assert.equal(ns.code, 1);
    assert.match(ns.stderr, /did you mean[^\n]*everything/);
  });

  await t.step("call with malformed JSON arguments is a usage error (exit 2)", async () => {
    const r = await w.mcpx(["call", "everything.echo", "{message: hi"]);
    assert.equal(r.code, 2);
    assert.equal(r.stdout, "");
    assert.match(r.stderr, /^error: the arguments are not JSON/m);
    assert.doesNotMatch(r.stderr, STACK_LINE);

    const stdin = await w.mcpx(["call", "everything.echo", "-"], { stdin: "[1," });
    assert.equal(stdin.code, 2);
    assert.match(stdin.stderr, /^error: the arguments in stdin are not JSON/m);
  });
});
