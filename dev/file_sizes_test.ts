import assert from "node:assert/strict";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { checkedFiles, lineCount, sizeFindings, sizeVerdict } from "./file_sizes.ts";

Deno.test("sizeVerdict() fails a long source file and only warns about tests", () => {
  const cases: [string, number, string][] = [
    ["engine/pool.ts", 400, "ok"],
    ["engine/pool.ts", 450, "warn"],
    ["engine/pool.ts", 600, "warn"],
    ["engine/pool.ts", 601, "fail"],
    ["mod.ts", 601, "fail"],
    ["engine/pool_test.ts", 700, "warn"],
    ["tests/_helpers.ts", 700, "warn"],
    ["tests/fixtures/servers/big.ts", 900, "warn"],
    ["bench/run.ts", 650, "warn"],
    ["engine/pool_test.ts", 300, "ok"],
  ];
  for (const [file, lines, verdict] of cases) {
    assert.equal(sizeVerdict(file, lines), verdict, `${file} at ${lines} lines`);
  }
});

Deno.test("sizeFindings() lists a checkout's long files and leaves out generated ones", () => {
  const root = Deno.makeTempDirSync();
  try {
    const lines = (n: number) => "x\n".repeat(n);
    Deno.mkdirSync(join(root, "core"));
    Deno.mkdirSync(join(root, "cli"));
    Deno.writeTextFileSync(join(root, "core", "long.ts"), lines(601));
    Deno.writeTextFileSync(join(root, "core", "mid.ts"), lines(450));
    Deno.writeTextFileSync(join(root, "core", "short.ts"), lines(10));
    Deno.writeTextFileSync(join(root, "core", "long_test.ts"), lines(700));
    Deno.writeTextFileSync(join(root, "cli", "mcpx.bundle.js"), lines(5000));
    assert.deepEqual(checkedFiles(root), [
      "core/long.ts",
      "core/long_test.ts",
      "core/mid.ts",
      "core/short.ts",
    ]);
    assert.deepEqual(sizeFindings(root), [
      { file: "core/long_test.ts", lines: 700, verdict: "warn" },
      { file: "core/long.ts", lines: 601, verdict: "fail" },
      { file: "core/mid.ts", lines: 450, verdict: "warn" },
    ]);
  } finally {
    Deno.removeSync(root, { recursive: true });
  }
});

Deno.test("lineCount() counts a last line without a newline", () => {
  assert.equal(lineCount("a\nb\n"), 2);
  assert.equal(lineCount("a\nb"), 2);
  assert.equal(lineCount(""), 0);
});

Deno.test("the checkout has no source file over the failing length", () => {
  const root = fileURLToPath(new URL("../", import.meta.url));
  assert.deepEqual(sizeFindings(root).filter((f) => f.verdict === "fail"), []);
});
