import assert from "node:assert/strict";
import { parseScenarioList, renderDocument, resultOf, runsOf } from "./client_leg.ts";

const LIST = `Client scenarios (test against a client):
  - initialize [2025-06-18,2025-11-25]
  - tools_call [2025-06-18,2025-11-25,2026-07-28]
  - elicitation-sep1034-client-defaults [2025-11-25]
  - elicitation-url-mode [2025-11-25]
  - auth/basic-cimd [2025-11-25,2026-07-28]
  - request-metadata [2026-07-28]
  - sep-2640-client-no-prefetch [extension]
`;

Deno.test("runsOf() keeps each scenario at each measured revision, without auth, extensions and elicitation but client defaults", () => {
  assert.deepEqual(runsOf(parseScenarioList(LIST)), [
    { scenario: "initialize", revision: "2025-11-25" },
    { scenario: "tools_call", revision: "2025-11-25" },
    { scenario: "tools_call", revision: "2026-07-28" },
    { scenario: "elicitation-sep1034-client-defaults", revision: "2025-11-25" },
    { scenario: "request-metadata", revision: "2026-07-28" },
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
});

Deno.test("renderDocument() writes one row per run, with every failure's reason", () => {
  const doc = renderDocument([
    {
      scenario: "tools_call",
      revision: "2025-11-25",
      passed: true,
      checksPassed: 2,
      checksTotal: 2,
      failures: [],
    },
    {
      scenario: "tools_call",
      revision: "2026-07-28",
      passed: false,
      checksPassed: 1,
      checksTotal: 2,
      failures: ["X: a|b"],
    },
  ], "npm:runner@1");
  assert.match(doc, /\| tools_call \| 2025-11-25 \| pass \| 2\/2 \| {2}\|/);
  assert.match(doc, /\| tools_call \| 2026-07-28 \| fail \| 1\/2 \| X: a\\\|b \|/);
  assert.match(doc, /1 of 2 runs pass; 3 of 4 checks/);
  assert.match(doc, /under default settings \(no setting is given, whatever the revision\)/);
});

Deno.test("the client leg does not import the server leg, which imports it: a cycle under its top-level await never resolves", async () => {
  const source = await Deno.readTextFile(new URL("./client_leg.ts", import.meta.url));
  assert.doesNotMatch(
    source,
    /import\(?\s*["']\.\/server_leg\.ts["']|from\s+["']\.\/server_leg\.ts["']/,
  );
});
