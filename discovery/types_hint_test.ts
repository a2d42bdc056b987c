import assert from "node:assert/strict";
import { toolEntry } from "./_fixtures.ts";
import { sizeOf, typesHint, wholeBlock } from "./types_hint.ts";
import { blockKey } from "./block_key.ts";
import { renderNamespace, renderTypes, TYPES_PREAMBLE } from "./typescript.ts";
import type { NamespaceEntry } from "./types.ts";

const ns = (): NamespaceEntry => ({
  namespace: "everything",
  server: "everything",
  description: "reference server",
  tools: [
    toolEntry("everything", "echo", "Echoes back the input"),
    toolEntry("everything", "add", "Adds two numbers"),
  ],
});

Deno.test("typesHint() counts a whole namespace by the size stored for it while its key holds", async () => {
  const plain = ns();
  const worked = await typesHint([plain], [plain.tools[0]]);
  const sized = { ...ns(), blocks: [sizeOf(await wholeBlock(ns()))] };
  assert.deepEqual(await typesHint([sized], [sized.tools[0]]), worked, "the same figures");
  // A stored size is what is counted (3,000 bytes more: 1,000 tokens more).
  const stored = sized.blocks[0];
  const bigger = { ...ns(), blocks: [{ key: stored.key, bytes: stored.bytes + 3000 }] };
  const hint = await typesHint([bigger], [bigger.tools[0]]);
  assert.equal(hint.namespaceTokens, worked.namespaceTokens + 1000);
  assert.equal(hint.tokens, worked.tokens);
  // Under another view (a tool hidden by the configuration since), it is worked out again.
  const fewer = { ...ns(), tools: ns().tools.slice(0, 1), blocks: bigger.blocks };
  assert.notEqual(blockKey(fewer), stored.key);
  const again = await typesHint([fewer], [fewer.tools[0]]);
  assert.equal(
    again.namespaceTokens,
    (await typesHint([{ ...fewer, blocks: [] }], [fewer.tools[0]])).namespaceTokens,
  );
});

Deno.test("renderNamespace() prints the block the daemon laid out while its key holds, and lays it out again otherwise", async () => {
  const laid = await wholeBlock(ns());
  const plain = await renderNamespace(ns());
  assert.equal(laid.text, plain, "laid out as mcpx types lays it out");
  // What is stored is what is printed, without parsing a declaration.
  const stored = { ...ns(), rendered: [{ key: laid.key, text: "declare namespace stored {}" }] };
  assert.equal(await renderNamespace(stored), "declare namespace stored {}");
  assert.equal(
    await renderTypes([stored]),
    `${TYPES_PREAMBLE}\n\ndeclare namespace stored {}\n`,
  );
  // Some tools only, or another view of the namespace: laid out here.
  assert.equal(
    await renderNamespace(stored, { tools: ["echo"] }),
    await renderNamespace(ns(), { tools: ["echo"] }),
  );
  const renamed = { ...stored, description: "described otherwise" };
  assert.equal(
    await renderNamespace(renamed),
    await renderNamespace({ ...ns(), ...renamed, rendered: [] }),
  );
});
