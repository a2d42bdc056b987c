/**
 * cli/content/skills.ts in process: its handler's documents and its text, with a
 * context whose daemon answers from a table (no daemon, no server).
 */

import assert from "node:assert/strict";
import * as skills from "./skills.ts";
import { runHandler } from "../outcome_render.ts";
import { contentContext } from "./_content_context.ts";

const PAGE = {
  skills: [{
    uri: "skill://notes/SKILL.md",
    frontmatter: { name: "notes", description: "Take notes" },
  }],
};

Deno.test("skills handle() answers the origin and the pages; its text is a table", async () => {
  const { ctx, io } = contentContext({
    skills: { namespace: "docs", supported: true, pages: [PAGE] },
  });
  const input = { namespace: "docs", verify: false };
  const outcome = await skills.handle(ctx, input);
  assert.equal(outcome.kind, "ok");
  const { origin, result } = outcome.value as skills.SkillsListed;
  assert.match(origin, /^config:sha256:[0-9a-f]{64}$/);
  assert.deepEqual(result, { supported: true, pages: [PAGE] });
  assert.equal(await runHandler(ctx, skills, input, false), 0);
  assert.match(io.stdout, new RegExp(`^origin: ${origin}\nNAME +URI +DESCRIPTION\n`));
  assert.match(io.stdout, /notes +skill:\/\/notes\/SKILL\.md +Take notes\n/);
  assert.match(io.stdout, /get one: mcpx skills docs <uri>; check it: add --verify\n$/);
});

Deno.test("skills text says when a server offers none", () => {
  const value = { origin: "o", result: { supported: false, pages: [] } };
  const view = { input: { namespace: "docs" }, columns: 120, kind: "ok" as const };
  assert.equal(
    skills.text(value, view),
    "docs does not offer skills (it declares no io.modelcontextprotocol/skills extension)\n",
  );
});

Deno.test("skills --verify that fails is failed (exit 1), each problem a line", async () => {
  const checked = {
    skillUri: "skill://notes/SKILL.md",
    verified: false,
    problems: ["the digest differs"],
    entry: { resources: [] },
  };
  const { ctx, io } = contentContext({ skillGet: checked });
  const input = { namespace: "docs", uri: "skill://notes/SKILL.md", verify: true };
  const outcome = await skills.handle(ctx, input);
  assert.equal(outcome.kind, "failed");
  assert.deepEqual({ ...outcome.value, origin: "" }, { origin: "", ...checked });
  assert.equal(await runHandler(ctx, skills, input, false), 1);
  assert.match(
    io.stdout,
    /^NOT verified skill:\/\/notes\/SKILL\.md \(origin config:sha256:.*\):\n/,
  );
  assert.match(io.stdout, / {2}- the digest differs\n$/);
});
