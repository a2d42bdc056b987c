/**
 * Argv words read as their fields' types from the generated table: a value
 * outside a field's allowed ones is a usage error naming them, for a
 * repeatable flag's each value too (`mcpx import --from claude` crashed in
 * the handler with a TypeError before).
 */

import assert from "node:assert/strict";
import { inputOf } from "./argv_input.ts";
import { OP_ROWS } from "../ops/_table.gen.ts";
import { UsageError } from "../core/errors.ts";

const importRow = OP_ROWS.find((row) => row.name === "import")!;

Deno.test("inputOf() refuses a repeatable flag's value outside its allowed ones, naming them", () => {
  assert.deepEqual(inputOf(importRow, [], { from: ["cursor", "vscode"] }).from, [
    "cursor",
    "vscode",
  ]);
  assert.throws(
    () => inputOf(importRow, [], { from: ["cursor", "claude"] }),
    (e: unknown) =>
      e instanceof UsageError &&
      /from must be one of claude-code, claude-desktop, .*got "claude"/.test(e.message),
  );
});
