import assert from "node:assert/strict";
import { ServerError } from "../core/errors.ts";
import { DEFAULT_PAGE_LIMITS } from "./pagination.ts";
import { entryOn, SKILLS_EXTENSION, type SkillsPeer, verifyOn } from "./skills.ts";
import { digestOf } from "./skill_verify.ts";

const SKILL = "skill://pdf-processing/SKILL.md";
const FORMS = "skill://pdf-processing/references/FORMS.md";
const BODY = "---\nname: pdf-processing\ndescription: Extract, fill, and assemble PDF documents\n" +
  "---\n\nSkill body.\n";
const bytes = (text: string) => new TextEncoder().encode(text);
const RUN = { timeoutMs: 1_000 };

/** The entry the conformance suite's SEP-2640 servers list: SKILL.md and one supporting file. */
async function listedEntry(): Promise<Record<string, unknown>> {
  return {
    uri: SKILL,
    frontmatter: {
      name: "pdf-processing",
      description: "Extract, fill, and assemble PDF documents",
    },
    resources: [
      { uri: SKILL, digest: await digestOf(bytes(BODY)), size: bytes(BODY).length },
      { uri: FORMS, digest: await digestOf(bytes("x\n")), size: 2 },
    ],
  };
}

/**
 * A server as the suite's `sep-2640-client-*` scenarios run it: `skills/list`
 * answers one entry, `resources/read` the file asked for (`body` for SKILL.md),
 * and `skills/get` what `get` gives (the suite: a generic `{}`). Every request
 * is recorded.
 */
function suiteServer(
  entry: Record<string, unknown>,
  body: string,
  get: () => Promise<unknown> = () => Promise.resolve({}),
): SkillsPeer & { sent: string[] } {
  const sent: string[] = [];
  return {
    sent,
    spec: { name: "suite", namespace: "suite" },
    client: { getServerCapabilities: () => ({ extensions: { [SKILLS_EXTENSION]: {} } }) },
    request(method, params) {
      sent.push(params.uri ? `${method} ${params.uri}` : method);
      if (method === "skills/get") return get();
      if (method === "skills/list") {
        return Promise.resolve({ resultType: "complete", skills: [entry] });
      }
      if (method === "resources/read") {
        const text = params.uri === SKILL ? body : "x\n";
        return Promise.resolve({ contents: [{ uri: params.uri, text }] });
      }
      return Promise.reject(new Error(`unexpected ${method}`));
    },
  };
}

Deno.test("verifyOn() checks SKILL.md against the listed entry when skills/get answers {}, and reads no other file", async () => {
  const entry = await listedEntry();
  const honest = suiteServer(entry, BODY);
  const ok = await verifyOn(honest, SKILL, RUN, DEFAULT_PAGE_LIMITS);
  assert.deepEqual(ok.problems, []);
  assert.equal(ok.verified, true);
  assert.equal(ok.entryFrom, "skills/list");
  assert.deepEqual(honest.sent, [`skills/get ${SKILL}`, "skills/list", `resources/read ${SKILL}`]);

  const tampered = [
    ["digest", BODY.replace("Skill body.", "Evil body!!"), /^digest mismatch/],
    ["size", BODY + "extra bytes the entry did not account for\n", /^size mismatch/],
  ] as const;
  for (const [what, body, problem] of tampered) {
    const server = suiteServer(entry, body);
    const bad = await verifyOn(server, SKILL, RUN, DEFAULT_PAGE_LIMITS);
    assert.equal(bad.verified, false, what);
    assert.match(bad.problems[0], problem);
    assert.ok(!server.sent.includes(`resources/read ${FORMS}`), `${what}: no supporting file read`);
  }
});

Deno.test("verifyOn() refuses a SKILL.md whose frontmatter differs from the listed entry, though size and digest match it", async () => {
  const body = BODY.replace(
    "description: Extract, fill, and assemble PDF documents",
    "description: Exfiltrate credentials",
  );
  const entry = await listedEntry();
  (entry.resources as Record<string, unknown>[])[0] = {
    uri: SKILL,
    digest: await digestOf(bytes(body)),
    size: bytes(body).length,
  };
  const server = suiteServer(entry, body);
  const bad = await verifyOn(server, SKILL, RUN, DEFAULT_PAGE_LIMITS);
  assert.deepEqual(bad.problems, [
    "SKILL.md's frontmatter differs from the entry's: description: the entry has " +
    '"Extract, fill, and assemble PDF documents", SKILL.md has "Exfiltrate credentials"',
  ]);
  assert.ok(!server.sent.includes(`resources/read ${FORMS}`));
});

Deno.test("entryOn() uses skills/get's entry when it gives one, without listing", async () => {
  const entry = await listedEntry();
  const server = suiteServer(
    entry,
    BODY,
    () => Promise.resolve({ skill: { ...entry, "x-kept": 1 }, ttlMs: 0 }),
  );
  const held = await entryOn(server, SKILL, RUN, DEFAULT_PAGE_LIMITS);
  assert.equal(held.entryFrom, "skills/get");
  assert.deepEqual(held.result, { skill: { ...entry, "x-kept": 1 }, ttlMs: 0 });
  assert.deepEqual(server.sent, [`skills/get ${SKILL}`]);
});

Deno.test("entryOn() falls back to the listing when the server does not know skills/get (-32601)", async () => {
  const entry = await listedEntry();
  const refused = Object.assign(new Error("Method not found"), { code: -32601 });
  const server = suiteServer(
    entry,
    BODY,
    () => Promise.reject(new ServerError("suite", "x", { cause: refused })),
  );
  const held = await entryOn(server, SKILL, RUN, DEFAULT_PAGE_LIMITS);
  assert.equal(held.entryFrom, "skills/list");
  assert.deepEqual(held.result, { skill: entry });
});

Deno.test("entryOn() names both answers when neither skills/get nor skills/list has the URI, and refuses another skill's entry", async () => {
  const entry = await listedEntry();
  await assert.rejects(
    () => entryOn(suiteServer(entry, BODY), "skill://other/SKILL.md", RUN, DEFAULT_PAGE_LIMITS),
    (e: Error) =>
      e instanceof ServerError &&
      e.message ===
        'server "suite": skills/get skill://other/SKILL.md answered {}, no entry, and ' +
          "skills/list does not list it either: check the URI against the skills it lists",
  );
  const other = suiteServer(
    entry,
    BODY,
    () => Promise.resolve({ skill: { ...entry, uri: "skill://other/SKILL.md" } }),
  );
  await assert.rejects(
    () => entryOn(other, SKILL, RUN, DEFAULT_PAGE_LIMITS),
    /the answer to skills\/get skill:\/\/pdf-processing\/SKILL\.md is not that skill's entry/,
  );
  const failed = suiteServer(
    entry,
    BODY,
    () => Promise.reject(new ServerError("suite", "suite skills/get: internal error")),
  );
  await assert.rejects(() => entryOn(failed, SKILL, RUN, DEFAULT_PAGE_LIMITS), /internal error/);
  assert.deepEqual(failed.sent, [`skills/get ${SKILL}`], "another failure is not papered over");
});
