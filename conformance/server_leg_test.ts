import assert from "node:assert/strict";
import { join } from "node:path";
import {
  keepServerSection,
  readRuns,
  renderServerSection,
  SERVER_HEADING,
  SERVER_RUNNERS,
  THROUGH_MCPX_CAUSES,
  versionOf,
  withServerSection,
} from "./server_leg.ts";

Deno.test("readRuns() reads one run per scenario folder, counting warnings as passed", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const write = async (folder: string, checks: unknown[]) => {
      await Deno.mkdir(join(dir, folder));
      await Deno.writeTextFile(join(dir, folder, "checks.json"), JSON.stringify(checks));
    };
    await write("server-ping-2026-12-01T20-09-05-182Z", [
      { id: "ping", status: "SUCCESS" },
      { id: "note", status: "INFO" },
    ]);
    await write("server-tools-call-with-logging-2026-12-01T20-09-05-200Z", [
      { id: "a", status: "WARNING" },
      { id: "b", status: "FAILURE", errorMessage: "no log" },
      { id: "b", status: "FAILURE", errorMessage: "no log" },
    ]);
    const runs = await readRuns(dir, "2025-11-25");
    assert.deepEqual(runs.map((r) => [r.scenario, r.passed, r.checksPassed, r.checksTotal]), [
      ["ping", true, 1, 1],
      ["tools-call-with-logging", false, 1, 3],
    ]);
    assert.deepEqual(runs[1].failures, ["b: no log"]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("renderServerSection() gives each runner its table: counts per revision and a row per scenario with its reason", () => {
  const run = (scenario: string, revision: string, passed: boolean) => ({
    scenario,
    revision,
    passed,
    checksPassed: passed ? 2 : 1,
    checksTotal: 2,
    failures: passed ? [] : ["x: failed"],
  });
  // A scenario the cause table names, when it names any (the table shrinks as scenarios pass).
  const [named, cause] = Object.entries(THROUGH_MCPX_CAUSES)[0] ?? ["logging-set-level", ""];
  const [newer, older] = SERVER_RUNNERS;
  const text = renderServerSection([
    {
      runner: newer,
      direct: [run("ping", "2025-11-25", true), run(named, "2025-11-25", true)],
      through: [run("ping", "2025-11-25", true), run(named, "2025-11-25", false)],
    },
    {
      runner: older,
      direct: [run("ping", "2025-11-25", true)],
      through: [run("ping", "2025-11-25", true)],
    },
  ]);
  const sections = text.split(/^### /m).slice(1);
  assert.deepEqual(
    sections.map((s) => s.split("\n")[0]),
    [`Runner ${versionOf(newer.spec)}`, `Runner ${versionOf(older.spec)}`],
  );
  assert.match(sections[0], /\| 2025-11-25 \| 2\/2 \| 1\/2 \|/);
  assert.match(sections[0], /\| 2026-07-28 \| 0\/0 \| 0\/0 \|/);
  const row = sections[0].split("\n").find((line) => line.startsWith(`| ${named} `)) ?? "";
  assert.match(row, /\| 2025-11-25 \| pass 2\/2 \| fail 1\/2 \| /);
  assert.ok(row.includes(`${cause ? `${cause}; ` : ""}x: failed`), row);
  // The older runner's table has its one revision, and says why it has no other.
  assert.match(sections[1], /\| 2025-11-25 \| 1\/1 \| 1\/1 \|/);
  assert.doesNotMatch(sections[1], /\| 2026-07-28 \|/);
  assert.ok(sections[1].includes(older.note!), sections[1]);
});

Deno.test("withServerSection() replaces the server section; keepServerSection() carries it over", () => {
  const section = `${SERVER_HEADING}\n\nnew\n`;
  assert.equal(
    withServerSection("# C\n\n## Client leg\n", section),
    `# C\n\n## Client leg\n\n${section}`,
  );
  assert.equal(
    withServerSection(`# C\n\n${SERVER_HEADING}\n\nold\n`, section),
    `# C\n\n${section}`,
  );
  assert.equal(
    keepServerSection("# C\n", `# Old\n\n${SERVER_HEADING}\n\nkept\n`),
    `# C\n\n${SERVER_HEADING}\n\nkept\n`,
  );
  assert.equal(keepServerSection("# C\n", "# Old\n"), "# C\n");
});
