import assert from "node:assert/strict";
import { text } from "./search.ts";
import type { TextView } from "../commands.ts";

const view = (input: Record<string, unknown>): TextView => ({
  input: { words: [], ...input },
  columns: 100,
  kind: "ok",
  extra: { descriptions: [] },
});
const empty = { mode: "all" as const, hits: [] };

Deno.test("search with no hits under --tag says the tag narrowed it, not that no tool is known", () => {
  const tagOnly = text(empty, view({ tag: "KG" }));
  assert.match(
    tagOnly,
    /^No tool carrying the tag "KG" \(tags match exactly, case included\) is known\./,
  );
  assert.doesNotMatch(tagOnly, /No tools are known/);
  const tagAndWords = text(empty, view({ tag: "nosuch", words: ["graph"] }));
  assert.match(tagAndWords, /^No tool carrying the tag "nosuch" .* matches "graph"\./);
  // Without a tag, the answers are as before.
  assert.match(text(empty, view({})), /^No tools are known\./);
  assert.match(text(empty, view({ words: ["zzq"] })), /^No tool matches "zzq"\. Try fewer/);
});
