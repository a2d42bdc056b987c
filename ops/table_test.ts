import assert from "node:assert/strict";
import { inputJsonSchema, tableModule } from "./gen.ts";
import { OPS } from "./table.ts";

Deno.test("ops/_table.gen.ts is what `deno task gen` writes from the table now", async () => {
  const written = await Deno.readTextFile(new URL("./_table.gen.ts", import.meta.url));
  assert.equal(written, tableModule(), "stale: run `deno task gen`");
});

Deno.test("op names and commands are unique, and each positional names an input field", () => {
  const names = OPS.map((op) => op.name);
  assert.deepEqual(names.length, new Set(names).size);
  const commands = OPS.flatMap((op) => op.cli ? [op.cli.command] : []);
  assert.deepEqual(commands.length, new Set(commands).size);
  for (const op of OPS) {
    const shape = (op.input as unknown as { shape?: Record<string, unknown> }).shape ?? {};
    for (const arg of op.cli?.args ?? []) {
      assert.ok(arg.field in shape, `${op.name}: <${arg.name}> fills no input field`);
    }
    for (const [flag, spec] of Object.entries(op.cli?.flags ?? {})) {
      if (spec.field !== undefined) {
        assert.ok(spec.field in shape, `${op.name}: --${flag} fills no input field`);
      } else assert.ok(spec.setting, `${op.name}: --${flag} fills nothing and sets nothing`);
    }
  }
});

Deno.test("every flag and positional with an input field is described by that field alone", () => {
  for (const op of OPS) {
    if (!op.cli) continue;
    // As every surface reads it: the JSON Schema's (a shared field made optional keeps its words).
    const properties = (inputJsonSchema(op).properties ?? {}) as Record<
      string,
      { description?: string }
    >;
    for (const [field, schema] of Object.entries(properties)) {
      assert.ok(schema.description, `${op.name}: input field "${field}" has no description`);
    }
    for (const [flag, spec] of Object.entries(op.cli.flags ?? {})) {
      assert.ok(
        spec.field === undefined || spec.help === undefined,
        `${op.name}: --${flag} carries its own help; its field "${spec.field}"'s description is its help`,
      );
      assert.ok(
        spec.setting === undefined || spec.field !== undefined || spec.help === undefined,
        `${op.name}: --${flag} carries its own help; its setting "${spec.setting}"'s help is its help`,
      );
    }
  }
});
