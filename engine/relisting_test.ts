import assert from "node:assert/strict";
import { catalogDiff, Coalescer } from "./relisting.ts";

Deno.test("Coalescer runs a burst asked for during a run as one more run", async () => {
  const coalescer = new Coalescer<string>();
  let runs = 0;
  let release!: () => void;
  const job = async () => {
    runs++;
    if (runs === 1) await new Promise<void>((r) => release = r);
  };
  const first = coalescer.run("s", job);
  const burst = Array.from({ length: 50 }, () => coalescer.run("s", job));
  assert.equal(runs, 1);
  release();
  await Promise.all([first, ...burst]);
  assert.equal(runs, 2);
  await coalescer.run("s", job);
  assert.equal(runs, 3);
});

Deno.test("Coalescer runs different keys at once and survives a failing job", async () => {
  const coalescer = new Coalescer<string>();
  const seen: string[] = [];
  await Promise.all([
    coalescer.run("a", () => Promise.reject(new Error("boom"))),
    coalescer.run("b", () => {
      seen.push("b");
      return Promise.resolve();
    }),
  ]);
  await coalescer.run("a", () => {
    seen.push("a");
    return Promise.resolve();
  });
  assert.deepEqual(seen, ["b", "a"]);
});

Deno.test("catalogDiff names tools added, removed and changed", () => {
  const t = (name: string, description = "") => ({ name, description, inputSchema: {} });
  const diff = catalogDiff([t("a"), t("b"), t("c", "old")], [t("c", "new"), t("d"), t("a")]);
  assert.deepEqual(diff, { added: ["d"], removed: ["b"], changed: ["c"] });
  const same = catalogDiff([t("a")], [{ ...t("a"), declaration: "function a(): void;" }]);
  assert.deepEqual(same, { added: [], removed: [], changed: [] });
});
