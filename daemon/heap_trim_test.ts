import assert from "node:assert/strict";
import { glibcTrim, HeapTrimmer } from "./heap_trim.ts";

Deno.test("heap trim: once per stage of a quiet spell, never while a request is in flight", () => {
  let trims = 0;
  const trimmer = new HeapTrimmer(() => (trims++, true), [5_000, 45_000]);
  const t0 = 1_000_000;
  assert.equal(trimmer.tick(t0, 0, t0 + 4_999), false);
  assert.equal(trimmer.tick(t0, 1, t0 + 6_000), false, "a request in flight");
  assert.equal(trimmer.tick(t0, 0, t0 + 6_000), true);
  assert.equal(trimmer.tick(t0, 0, t0 + 8_000), false, "the first stage ran already");
  assert.equal(trimmer.tick(t0, 0, t0 + 46_000), true);
  assert.equal(trimmer.tick(t0, 0, t0 + 600_000), false, "every stage ran");
  assert.equal(trims, 2);
  // A new request starts a new spell.
  const t1 = t0 + 700_000;
  assert.equal(trimmer.tick(t1, 0, t1 + 5_000), true);
  // A tick late past both stages trims once.
  const t2 = t1 + 10_000;
  assert.equal(trimmer.tick(t2, 0, t2 + 50_000), true);
  assert.equal(trimmer.tick(t2, 0, t2 + 52_000), false);
  assert.equal(trims, 4);
});

Deno.test({
  name:
    "heap trim: glibc's malloc_trim loads and runs on Linux with glibc (as CI and users' daemons)",
  ignore: Deno.build.os !== "linux",
  fn() {
    const trim = glibcTrim();
    assert.equal(typeof trim, "function");
    assert.equal(typeof trim!(), "boolean");
  },
});
