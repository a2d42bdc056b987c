import assert from "node:assert/strict";
import { scriptOutcome } from "./script_outcome.ts";
import { memoryIo } from "../../core/io.ts";

const DOCUMENT = { ok: false, exitCode: 0, result: 2, logs: [], stdout: "", stderr: "" };

Deno.test("scriptOutcome() answers the run's document by the script's exit code, and a terminal run's code", async (t) => {
  const cases: [string, number, boolean, unknown, string][] = [
    ["exit 0 under --json: ok", 0, true, { kind: "ok", value: DOCUMENT }, ""],
    ["exit 1 under --json: failed", 1, true, { kind: "failed", value: DOCUMENT }, ""],
    [
      "exit 3 under --json: the document is the stream, the code the process's",
      3,
      true,
      { kind: "exit", code: 3 },
      JSON.stringify(DOCUMENT) + "\n",
    ],
    ["a terminal run: its code", 0, false, { kind: "exit", code: 0 }, ""],
    ["a terminal run that failed: its code", 130, false, { kind: "exit", code: 130 }, ""],
  ];
  for (const [name, exitCode, json, outcome, printed] of cases) {
    await t.step(name, () => {
      const io = memoryIo();
      const end = { exitCode, document: json ? DOCUMENT : undefined };
      assert.deepEqual(scriptOutcome(io, end), outcome);
      assert.equal(io.stdout, printed);
      assert.equal(io.stderr, "");
    });
  }
});
