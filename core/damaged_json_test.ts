import assert from "node:assert/strict";
import { keepDamagedCopy, parseSalvaging } from "./damaged_json.ts";

Deno.test("parseSalvaging() reads a whole document as it is", () => {
  assert.deepEqual(parseSalvaging('{"a":[1,2]}'), { value: { a: [1, 2] }, damaged: false });
});

Deno.test("parseSalvaging() keeps what comes before the damage", async (t) => {
  const whole = JSON.stringify(
    { configPath: "/p", sessions: [{ name: "a", x: "}]" }, { name: "b" }, { name: "c" }] },
    null,
    1,
  );
  const cases: [string, string, unknown][] = [
    ["cut inside the third entry", whole.slice(0, whole.indexOf('"c"')), ["a", "b"]],
    ["bytes overwritten in the second entry", whole.replace('"b"', "\0\0\0"), ["a"]],
    ["trailing zero bytes after the whole document", whole + "\0\0\0\0", ["a", "b", "c"]],
  ];
  for (const [what, text, names] of cases) {
    await t.step(what, () => {
      const { value, damaged } = parseSalvaging(text);
      assert.equal(damaged, true);
      const sessions = (value as { sessions?: { name: string }[] }).sessions ?? [];
      assert.deepEqual(sessions.map((s) => s.name), names);
      assert.equal((value as { configPath: string }).configPath, "/p");
    });
  }
  await t.step("brackets inside a string are not ends", () => {
    const cut = whole.slice(0, whole.indexOf("}]") + 2);
    assert.deepEqual(parseSalvaging(cut), { value: undefined, damaged: true });
  });
  await t.step("nothing readable", () => {
    assert.deepEqual(parseSalvaging("\0\0{"), { value: undefined, damaged: true });
  });
});

Deno.test("keepDamagedCopy() keeps the bytes beside the file once, mode 0600", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const path = `${dir}/s.json`;
    const bytes = new TextEncoder().encode('{"sessions":[');
    const copy = keepDamagedCopy(path, bytes, Date.parse("2026-10-01T12:00:00Z"));
    assert.equal(copy, `${dir}/s.json.damaged-2026-10-01T12-00-00-000Z`);
    assert.deepEqual(Deno.readFileSync(copy), bytes);
    assert.equal(Deno.statSync(copy).mode! & 0o777, 0o600);
    assert.equal(keepDamagedCopy(path, bytes), copy, "the same bytes are not copied twice");
    assert.notEqual(keepDamagedCopy(path, new Uint8Array([1])), copy);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
