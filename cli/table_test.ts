import assert from "node:assert/strict";
import { renderTable } from "./table.ts";

Deno.test("renderTable() pads columns to the widest cell", () => {
  assert.equal(
    renderTable(["A", "LONG"], [["xx", "1"], ["y", "22"]]),
    "A   LONG\nxx  1\ny   22\n",
  );
});

Deno.test("renderTable() renders 200,000 rows (a configuration of that many servers)", () => {
  // Widths were Math.max(...cells): spreading 200,000 cells overflowed the call stack.
  const rows = Array.from({ length: 200_000 }, (_, i) => [`server-${i}`, "ready"]);
  const table = renderTable(["NAMESPACE", "STATE"], rows);
  assert.equal(table.split("\n").length, 200_002);
  // The widest cell is "server-199999", 13 characters.
  assert.ok(
    table.startsWith(`${"NAMESPACE".padEnd(13)}  STATE\n${"server-0".padEnd(13)}  ready\n`),
  );
});

Deno.test("renderTable() measures cells as they are shown, so columns stay aligned", () => {
  const table = renderTable(["A", "B"], [["x\x1b[2Jy", "#1"], ["long-enough-cell", "#2"]]);
  const lines = table.trimEnd().split("\n");
  assert.equal(lines[1], "x\\u001b[2Jy       #1");
  assert.equal(lines[1].indexOf("#"), lines[2].indexOf("#"));
});
