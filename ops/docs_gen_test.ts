import assert from "node:assert/strict";
import { BEGIN, cliDocument, END, renderReference, spliceReference } from "./docs_gen.ts";
import { OPS } from "./table.ts";
import { GLOBAL_FLAGS } from "./global_flags.ts";

Deno.test("docs/cli.md is what `deno task gen` writes from the table now", async () => {
  const current = await Deno.readTextFile(new URL("../docs/cli.md", import.meta.url));
  assert.equal(current, await cliDocument(current), "stale: run `deno task gen`");
});

Deno.test("renderReference() documents every command and flag, and no hidden command", () => {
  const reference = renderReference();
  for (const op of OPS) {
    if (!op.cli) continue;
    const heading = `### mcpx ${op.cli.command}\n`;
    if (op.cli.hidden) {
      assert.ok(!reference.includes(heading), `${op.name} is hidden but documented`);
      continue;
    }
    assert.ok(reference.includes(heading), `${op.name} has no section`);
    const section = reference.slice(reference.indexOf(heading)).split("\n### ")[0];
    assert.ok(section.includes(`\`${op.cli.usage}\``), `${op.name}: no usage line`);
    for (const [name, flag] of Object.entries(op.cli.flags ?? {})) {
      assert.ok(section.includes(`\`--${name}`), `${op.name}: --${name} missing`);
      if (flag.setting) assert.ok(section.includes(`\`${flag.setting}\``), `${op.name}: setting`);
    }
    for (const arg of op.cli.args ?? []) {
      assert.ok(section.includes(`\`<${arg.name}>\``), `${op.name}: <${arg.name}> missing`);
    }
  }
  for (const name of Object.keys(GLOBAL_FLAGS)) assert.ok(reference.includes(`\`--${name}`));
});

Deno.test("spliceReference() replaces the marked part only, or appends it", () => {
  const doc = `# Title\n\nprose\n\n${BEGIN}\nold\n${END}\n\n## After\n`;
  assert.equal(spliceReference(doc, `${BEGIN}\nnew\n${END}`), doc.replace("old", "new"));
  assert.equal(spliceReference("# Title\n", "REF"), "# Title\n\nREF\n");
  assert.throws(() => spliceReference(`${BEGIN}\n`, "REF"), SyntaxError);
});
