import assert from "node:assert/strict";
import {
  boundedJson,
  checkSkillFile,
  digestOf,
  frontmatterDifferences,
  manifestProblems,
} from "./skill_verify.ts";

const TEXT = "---\nname: a\ndescription: b\n---\nbody\n";

Deno.test("checkSkillFile passes matching bytes and names each mismatch", async () => {
  const bytes = new TextEncoder().encode(TEXT);
  const entry = (digest: string, size = bytes.length) => ({
    uri: "s://a/SKILL.md",
    frontmatter: { name: "a", description: "b" },
    resources: [{ uri: "s://a/SKILL.md", digest, size }],
  });
  const read = () => Promise.resolve({ contents: [{ uri: "s://a/SKILL.md", text: TEXT }] });
  const ok = await checkSkillFile("s://a/SKILL.md", entry(await digestOf(bytes)), read);
  assert.deepEqual(ok.problems, []);
  const bad = await checkSkillFile("s://a/SKILL.md", entry("sha256:" + "1".repeat(64), 3), read);
  assert.match(bad.problems.join("\n"), /size mismatch[\s\S]*digest mismatch/);
});

Deno.test("manifestProblems refuses dynamic and oversized manifests", () => {
  assert.match(manifestProblems("u", { resources: "dynamic" })[0], /dynamic/);
  const many = Array.from({ length: 513 }, (_, i) => ({
    uri: i ? `u${i}` : "u",
    digest: "sha256:" + "a".repeat(64),
    size: 1,
  }));
  assert.match(manifestProblems("u", { resources: many })[0], /513 files, more than 512/);
});

Deno.test("boundedJson refuses depth past 128", () => {
  let deep: unknown = 1;
  for (let i = 0; i < 130; i++) deep = [deep];
  assert.throws(() => boundedJson(deep), /deeper than 128/);
});

Deno.test("frontmatterDifferences() names each differing field with both values, key order ignored", () => {
  assert.deepEqual(
    frontmatterDifferences(
      { name: "a", metadata: { team: "x", n: 1 }, tags: ["p", "q"] },
      { tags: ["p", "r"], metadata: { n: 1, team: "y" }, name: "a", extra: true },
    ),
    [
      "extra: the entry has nothing, SKILL.md has true",
      'metadata.team: the entry has "x", SKILL.md has "y"',
      'tags[1]: the entry has "q", SKILL.md has "r"',
    ],
  );
  assert.deepEqual(frontmatterDifferences({ n: 1 }, { n: "1" }), [
    'n: the entry has 1, SKILL.md has "1"',
  ]);
  assert.deepEqual(frontmatterDifferences({ a: [1] }, { a: [1] }), []);
});
