/**
 * `mcpx skills` and directory resources (spec 002, "Skills and Resources";
 * decision 0038) against tests/fixtures/servers/skills.ts, an SDK server
 * offering the Skills extension with directory reads (no real server does on
 * demand), and server-everything, which offers no skills.
 */

import assert from "node:assert/strict";
import { fixtureServer, stdioServer, world } from "./_helpers.ts";

Deno.test("mcpx skills lists, gets and verifies skills; resources lists directories", async (t) => {
  await using w = await world();
  await w.writeConfig({
    mcpServers: {
      sk: fixtureServer({ fixture: "skills" }),
      everything: stdioServer("everything", ["stdio"]),
    },
  });

  await t.step("the listing follows every page and keeps each as sent", async () => {
    const out = await w.json(["skills", "sk"]);
    assert.match(out.origin, /^config:sha256:[0-9a-f]{64}$/);
    assert.equal(out.result.pages.length, 2, "one skill per page: the cursor was followed");
    const uris = out.result.pages.flatMap((p: { skills: { uri: string }[] }) =>
      p.skills.map((s) => s.uri)
    );
    assert.deepEqual(uris, ["skill://demo/SKILL.md", "skill://tampered/SKILL.md"]);
    const human = await w.mcpx(["skills", "sk"]);
    assert.equal(human.code, 0, human.stderr);
    assert.match(human.stdout, /demo\s+skill:\/\/demo\/SKILL\.md\s+A demonstration skill/);
  });

  await t.step(
    "a server given on the command line (a direct target) lists and gets its skills",
    async () => {
      const { command, args } = fixtureServer({ fixture: "skills" });
      const stdio = [command, ...args].join(" ");
      const listed = await w.json(["skills", "--stdio", stdio]);
      const uris = listed.result.pages.flatMap((p: { skills: { uri: string }[] }) =>
        p.skills.map((s) => s.uri)
      );
      assert.deepEqual(uris, ["skill://demo/SKILL.md", "skill://tampered/SKILL.md"]);
      const human = await w.mcpx(["skills", "--stdio", stdio]);
      assert.match(
        human.stdout,
        /get one: mcpx skills --stdio '.+' <uri>/,
        "the next command names the server as this one did, not by its generated namespace",
      );
      const ok = await w.mcpx(["skills", "--stdio", stdio, "skill://demo/SKILL.md", "--verify"]);
      assert.equal(ok.code, 0, ok.stderr);
      assert.match(ok.stdout, /^verified skill:\/\/demo\/SKILL\.md/);
    },
  );

  await t.step("a listing longer than listing.maxPages stops with an error naming it", async () => {
    const r = await w.mcpx(["skills", "sk"], { env: { MCPX_LISTING_MAX_PAGES: "1" } });
    assert.notEqual(r.code, 0);
    assert.match(
      r.stderr,
      /server "sk": skills\/list still had more after 1 pages \(listing\.maxPages\); raise/,
    );
    assert.doesNotMatch(r.stderr, /\n\s+at /, "no stack trace");
  });

  await t.step("get keeps frontmatter, manifest and unknown fields", async () => {
    const out = await w.json(["skills", "sk", "skill://tampered/SKILL.md"]);
    assert.deepEqual(out.result.skill["x-fixture"], { note: "kept as sent" });
    assert.equal(out.entryFrom, "skills/get");
    const demo = await w.json(["skills", "sk", "skill://demo/SKILL.md"]);
    assert.deepEqual(demo.result.skill.frontmatter.metadata, { team: "tools" });
    assert.equal(demo.result.skill.resources.length, 2);
  });

  await t.step("--verify passes an honest skill and names a digest mismatch", async () => {
    const ok = await w.mcpx(["skills", "sk", "skill://demo/SKILL.md", "--verify"]);
    assert.equal(ok.code, 0, ok.stderr);
    assert.match(ok.stdout, /^verified skill:\/\/demo\/SKILL\.md .*132 bytes, sha256:[0-9a-f]{64}/);
    const bad = await w.mcpx(["--json", "skills", "sk", "skill://tampered/SKILL.md", "--verify"]);
    assert.equal(bad.code, 1);
    const out = JSON.parse(bad.stdout);
    assert.deepEqual(Object.keys(out).sort(), [
      "entry",
      "entryFrom",
      "origin",
      "problems",
      "resource",
      "skillUri",
      "verified",
    ]);
    assert.equal(out.verified, false);
    assert.equal(out.entryFrom, "skills/get", "this server's skills/get gives the entry");
    assert.match(out.problems[0], /^digest mismatch: the entry declares sha256:0{64}/);
    const usage = await w.mcpx(["skills", "sk", "--verify"]);
    assert.equal(usage.code, 2);
    assert.match(usage.stderr, /--verify checks one skill/);
  });

  await t.step("resources lists a directory's children, and reads a file as content", async () => {
    const dir = await w.json(["resources", "sk", "skill://demo"]);
    assert.deepEqual(
      dir.pages.flatMap((p: { resources: { uri: string }[] }) => p.resources.map((r) => r.uri)),
      ["skill://demo/SKILL.md", "skill://demo/references"],
    );
    const file = await w.mcpx(["resources", "sk", "skill://demo/references/guide.md"]);
    assert.equal(file.code, 0, file.stderr);
    assert.equal(file.stdout, "# Guide\n\nStep one.\n");
  });

  await t.step("a server without the extension offers no skills, exit 0", async () => {
    const r = await w.mcpx(["skills", "everything"]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /everything does not offer skills/);
    const out = await w.json(["skills", "everything"]);
    assert.deepEqual(out.result, { supported: false, pages: [] });
  });
});
