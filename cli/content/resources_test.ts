/**
 * cli/content/resources.ts in process: its handler's documents and its text, with a
 * context whose daemon answers from a table (no daemon, no server).
 */

import assert from "node:assert/strict";
import * as resources from "./resources.ts";
import { runHandler } from "../outcome_render.ts";
import { contentContext } from "./_content_context.ts";

const LISTING = [{
  namespace: "files",
  resources: [{ uri: "file:///a.txt", name: "a", mimeType: "text/plain" }],
  resourceTemplates: [{ uriTemplate: "file:///{path}", name: "any file" }],
}];

Deno.test("resources handle() answers the listing; its text is the table and how to read one", async () => {
  const { ctx, io } = contentContext({ resources: LISTING });
  const outcome = await resources.handle(ctx, { variables: [] });
  assert.deepEqual(outcome, { kind: "ok", value: { namespaces: LISTING } });
  assert.equal(await runHandler(ctx, resources, { variables: [] }, false), 0);
  assert.match(io.stdout, /^NAMESPACE +URI +MIME +DESCRIPTION\n/);
  assert.match(io.stdout, /files +file:\/\/\/\{path\} + template: any file\n/);
  assert.match(io.stdout, /read one: mcpx resources <namespace> <uri>;/);
  assert.equal(io.stderr, "");
});

Deno.test("resources text prints text and describes binary content", () => {
  const input = { namespace: "files", uri: "file:///a", variables: [] };
  const value = {
    contents: [
      { uri: "file:///a", text: "hello" },
      { uri: "file:///b", mimeType: "image/png", blob: btoa("abc") },
    ],
  };
  assert.equal(
    resources.text(value, { input, columns: 120, kind: "ok" }),
    "hello\n[binary file:///b: image/png, 3 bytes; --out FILE writes them]\n",
  );
});

Deno.test("resources --out writes the bytes, notes the file it replaced, and prints the document under --json", async () => {
  const dir = await Deno.makeTempDir();
  try {
    await Deno.writeTextFile(`${dir}/out.bin`, "12345");
    const result = { contents: [{ uri: "file:///b", mimeType: "image/png", blob: btoa("abc") }] };
    const input = { namespace: "files", uri: "file:///b", variables: [], out: "out.bin" };
    const { ctx, io } = contentContext({ resourceRead: result }, dir);
    const outcome = await resources.handle(ctx, input);
    assert.deepEqual(outcome.notes, ["replaced out.bin, which held 5 bytes"]);
    assert.equal(await Deno.readTextFile(`${dir}/out.bin`), "abc");
    assert.equal(
      resources.text(outcome.value, { input, columns: 120, kind: "ok" }),
      "wrote 3 bytes (image/png) to out.bin\n",
    );
    assert.equal(await runHandler(ctx, resources, input, true), 0);
    assert.equal(io.stdout, JSON.stringify(result, null, 2) + "\n");
    assert.equal(io.stderr, "note: replaced out.bin, which held 3 bytes\n");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("resources text of a directory is a table of its children", () => {
  const input = { namespace: "files", uri: "file:///d/", variables: [] };
  const view = { input, columns: 120, kind: "ok" as const };
  assert.equal(
    resources.text({ pages: [{ resources: [] }] }, view),
    "file:///d/: an empty directory\n",
  );
  assert.match(
    resources.text({ pages: [{ resources: [{ uri: "file:///d/x", name: "x" }] }] }, view) as string,
    /^URI +MIME +DESCRIPTION\nfile:\/\/\/d\/x +x\n$/,
  );
});
