import assert from "node:assert/strict";
import { cellText, columnWidths, detailLines, filterRows, gridOf, rowLine } from "./grid.ts";

Deno.test("gridOf() makes a column of every field, numbers right-aligned", () => {
  const grid = gridOf([{ tool: "echo", calls: 3 }, { tool: "sum", calls: 10, note: "x" }]);
  assert.deepEqual(grid.columns, [{ key: "tool" }, { key: "calls", align: "right" }, {
    key: "note",
  }]);
  const widths = columnWidths(grid, 30);
  assert.deepEqual(widths, [4, 5, 17]);
  assert.equal(rowLine(grid, grid.rows[0], widths), "echo      3");
});

Deno.test("cellText() keeps a cell on one line and a server's text from driving the terminal", () => {
  assert.equal(cellText("a\nb"), "a ⏎ b");
  assert.equal(cellText(["x", "y"]), "x,y");
  assert.equal(cellText({ a: 1 }), '{"a":1}');
  assert.equal(cellText(undefined), "");
  assert.equal(cellText("\x1b[2Jgone"), "\\u001b[2Jgone");
});

Deno.test("filterRows() keeps rows holding every word, in any cell", () => {
  const grid = gridOf([{ server: "fs", msg: "read failed" }, { server: "mem", msg: "ok" }]);
  assert.deepEqual(filterRows(grid, "FAILED fs"), [grid.rows[0]]);
  assert.deepEqual(filterRows(grid, ""), grid.rows);
  assert.deepEqual(filterRows(grid, "nothing"), []);
});

Deno.test("detailLines() indents multi-line strings and shows structures as JSON", () => {
  assert.deepEqual(detailLines({ msg: "one\ntwo", tools: ["a"], absent: undefined }), [
    "msg:",
    "  one",
    "  two",
    "tools:",
    "  [",
    '    "a"',
    "  ]",
  ]);
});
