import assert from "node:assert/strict";
import {
  DAMAGED_COPIES_KEPT,
  isDamagedCopyName,
  keepDamagedCopy,
  moveDamagedAside,
  parseSalvaging,
} from "./damaged_json.ts";
import { takePosted } from "./notice_queue.ts";

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

Deno.test("moveDamagedAside() renames the file with its journal, warns once, and keeps the newest copies", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const path = `${dir}/q.db`;
    const fact = { path, what: "the store", why: "not a database", lost: "its rows are lost" };
    const names = () => [...Deno.readDirSync(dir)].map((e) => e.name).sort();
    takePosted();
    Deno.writeTextFileSync(path, "x");
    Deno.writeTextFileSync(`${path}-journal`, "j");
    const moved = moveDamagedAside(fact, { now: Date.UTC(2026, 0, 1) });
    assert.equal(moved?.movedTo, `${path}.damaged-2026-01-01T00-00-00-000Z`);
    assert.deepEqual(names(), [
      "q.db.damaged-2026-01-01T00-00-00-000Z",
      "q.db.damaged-2026-01-01T00-00-00-000Z-journal",
    ]);
    assert.ok(isDamagedCopyName(names()[0]));
    assert.deepEqual(takePosted().map((n) => n.message), [
      `the store ${path} was damaged (not a database); it is moved aside as ${moved.movedTo} and ` +
      "started again empty: its rows are lost",
    ]);
    // Gone, or holding other bytes than were found damaged (rewritten meanwhile): left alone.
    assert.equal(moveDamagedAside(fact), undefined);
    Deno.writeTextFileSync(path, "good");
    assert.equal(moveDamagedAside(fact, { expect: new TextEncoder().encode("bad") }), undefined);
    assert.equal(Deno.readTextFileSync(path), "good");
    assert.deepEqual(takePosted(), []);
    for (let day = 2; day <= 6; day++) {
      Deno.writeTextFileSync(path, `x${day}`);
      moveDamagedAside(fact, { now: Date.UTC(2026, 0, day) });
    }
    const kept = names().filter((n) => !n.endsWith("-journal"));
    assert.equal(kept.length, DAMAGED_COPIES_KEPT);
    assert.equal(kept[0], "q.db.damaged-2026-01-04T00-00-00-000Z");
    assert.ok(
      !names().some((n) => n.startsWith("q.db.damaged-2026-01-01")),
      "its journal went too",
    );
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
