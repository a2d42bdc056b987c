import assert from "node:assert/strict";
import { authRunsOf, parseScenarioList, runsOf, runsOf01 } from "./client_leg.ts";
import { renderAuthSection, renderDocument } from "./client_doc.ts";
import { resultOf } from "./run_checks.ts";

const LIST = `Client scenarios (test against a client):
  - initialize [2025-06-18,2025-11-25]
  - tools_call [2025-06-18,2025-11-25,2026-07-28]
  - elicitation-sep1034-client-defaults [2025-11-25]
  - elicitation-url-mode [2025-11-25]
  - auth/basic-cimd [2025-11-25,2026-07-28]
  - request-metadata [2026-07-28]
  - auth/2025-03-26-oauth-metadata-backcompat [2025-03-26]
  - auth/dpop [extension]
  - sep-2640-client-no-prefetch [extension]
`;

const at = (scenario: string, revision: string, ...more: string[]) => ({
  scenario,
  revision,
  flags: ["--spec-version", revision, ...more],
});

Deno.test("runsOf() keeps each scenario at each measured revision, without auth and elicitation but client defaults, then the extensions at 2026-07-28 with --force", () => {
  assert.deepEqual(runsOf(parseScenarioList(LIST)), [
    at("initialize", "2025-11-25"),
    at("tools_call", "2025-11-25"),
    at("tools_call", "2026-07-28"),
    at("elicitation-sep1034-client-defaults", "2025-11-25"),
    at("request-metadata", "2026-07-28"),
    at("sep-2640-client-no-prefetch", "2026-07-28", "--force"),
  ]);
});

Deno.test("authRunsOf() runs auth scenarios at the measured revisions and 2025-03-26, never the extensions", () => {
  assert.deepEqual(authRunsOf(parseScenarioList(LIST)), [
    at("auth/basic-cimd", "2025-11-25"),
    at("auth/basic-cimd", "2026-07-28"),
    at("auth/2025-03-26-oauth-metadata-backcompat", "2025-03-26"),
  ]);
});

Deno.test("runsOf01() runs each scenario of 0.1.16 once with no flags, named by its tags, without extensions", () => {
  const { plain, auth } = runsOf01(parseScenarioList(LIST));
  assert.deepEqual(plain.map((r) => [r.scenario, r.revision, r.flags]), [
    ["initialize", "2025-06-18, 2025-11-25", []],
    ["tools_call", "2025-06-18, 2025-11-25, 2026-07-28", []],
    ["elicitation-sep1034-client-defaults", "2025-11-25", []],
    ["request-metadata", "2026-07-28", []],
  ]);
  assert.deepEqual(auth.map((r) => r.scenario), [
    "auth/basic-cimd",
    "auth/2025-03-26-oauth-metadata-backcompat",
  ]);
});

Deno.test("resultOf() counts success against failure, not INFO or SKIPPED, and says each reason once", () => {
  const run = { scenario: "s", revision: "2026-07-28" };
  const r = resultOf(
    run,
    [
      { name: "A", status: "SUCCESS" },
      { name: "B", status: "FAILURE", errorMessage: "no header" },
      { name: "B", status: "FAILURE", errorMessage: "no header" },
      { name: "C", status: "INFO" },
      { name: "D", status: "SKIPPED" },
    ],
    false,
    "",
  );
  assert.deepEqual(r, {
    ...run,
    passed: false,
    checksPassed: 1,
    checksTotal: 3,
    failures: ["B: no header"],
  });
  const none = resultOf(run, undefined, false, "one\ntwo\nboom");
  assert.equal(none.passed, false);
  assert.match(none.failures[0], /the runner gave no checks: one \/ two \/ boom/);
  const skipped = resultOf(
    run,
    [{ name: "S", status: "SKIPPED", errorMessage: "never listed" }],
    true,
    "",
  );
  assert.equal(skipped.passed, false, "a run that counted nothing measured nothing");
  assert.deepEqual(skipped.failures, ["skipped, S: never listed"]);
});

Deno.test("renderDocument() writes a table per runner, one row per run, with every failure's reason and its known cause", () => {
  const row = (scenario: string, revision: string, passed: boolean, failures: string[] = []) => ({
    scenario,
    revision,
    passed,
    checksPassed: passed ? 2 : 1,
    checksTotal: 2,
    failures,
  });
  const results = [
    {
      runner: "npm:runner@0.2.0",
      about: "the new one.",
      plain: [
        row("tools_call", "2025-11-25", true),
        row("tools_call", "2026-07-28", false, ["X: a|b"]),
      ],
      auth: [row("auth/basic-cimd", "2026-07-28", false, ["cimd: no"])],
    },
    {
      runner: "npm:runner@0.1.16",
      about: "the old one.",
      plain: [row("initialize", "2025-06-18, 2025-11-25", true)],
      auth: [row("auth/2025-03-26-oauth-metadata-backcompat", "2025-03-26", false, ["m: x"])],
    },
  ];
  const doc = renderDocument(results);
  assert.match(
    doc,
    /### Runner 0\.2\.0\n\n`npm:runner@0\.2\.0`: the new one\.\n\n1 of 2 runs pass/,
  );
  assert.match(doc, /\| tools_call \| 2025-11-25 \| pass \| 2\/2 \| {2}\|/);
  assert.match(doc, /\| tools_call \| 2026-07-28 \| fail \| 1\/2 \| X: a\\\|b \|/);
  assert.match(doc, /### Runner 0\.1\.16[\s\S]*\| initialize \| 2025-06-18, 2025-11-25 \| pass/);
  assert.match(
    doc,
    /under default settings: no setting is given, whatever the revision or the runner/,
  );
  const auth = renderAuthSection(results);
  assert.match(auth, /\| auth\/basic-cimd \| 2026-07-28 \| fail \| 1\/2 \| CIMD: .*; cimd: no \|/);
  assert.match(
    auth,
    /\| auth\/2025-03-26-oauth-metadata-backcompat \| 2025-03-26 \| fail \| 1\/2 \| the runner's fault/,
    "a cause known for one runner version is said in that version's row",
  );
  assert.match(auth, /- auth\/cross-app-access-complete-flow: /);
});

Deno.test("the client leg does not import the server leg, which imports it: a cycle under its top-level await never resolves", async () => {
  const source = await Deno.readTextFile(new URL("./client_leg.ts", import.meta.url));
  assert.doesNotMatch(
    source,
    /import\(?\s*["']\.\/server_leg\.ts["']|from\s+["']\.\/server_leg\.ts["']/,
  );
});
