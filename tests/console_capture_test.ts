/**
 * What the console does under capture: every line a script's console writes
 * is the same, character for character and in the same order, as without
 * mcpx's launcher (spec 000, "What the console does and does not capture").
 * Only where it goes differs: console.log stays on stdout (and is recorded
 * file-only), the other members become records.
 */

import assert from "node:assert/strict";
import { world } from "./_helpers.ts";

const SCRIPT = `
console.log("to stdout %s", "still");
console.info("%s scored %d points (%i%%)", "ann", 41.5, 97.2);
console.warn({ a: 1, nested: { list: [1, 2, 3] } });
console.error("many", "values", 42, [1, "two"], null, undefined);
console.debug("%o and %O", { x: 1 }, { y: [2] });
console.info("%c styled", "color: red");
console.error(new Map([["k", 1]]), new Set([1]));
console.log({ out: true });
`;

Deno.test("captured console lines equal --no-launcher's (the runtime's own), line for line", async () => {
  await using w = await world();
  await w.writeConfig({ mcpServers: {} });
  await Deno.writeTextFile(`${w.dir}/console.ts`, SCRIPT);

  // The runtime alone, stdout and stderr on one pipe: the order the console wrote in.
  const bare = await new Deno.Command("sh", {
    args: ["-c", `"${Deno.execPath()}" run -A ./console.ts 2>&1`],
    env: w.env,
    clearEnv: true,
    cwd: w.dir,
    stdout: "piped",
  }).output();
  assert.equal(bare.code, 0);
  const bareText = new TextDecoder().decode(bare.stdout);

  // mcpx run --no-launcher hands the same streams on unchanged.
  const split = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "./console.ts"],
    env: w.env,
    clearEnv: true,
    cwd: w.dir,
  }).output();
  const noLauncher = await w.mcpx(["run", "--no-launcher", "./console.ts"]);
  assert.equal(noLauncher.code, 0, noLauncher.stderr);
  assert.equal(noLauncher.stdout, new TextDecoder().decode(split.stdout));
  assert.equal(noLauncher.stderr, new TextDecoder().decode(split.stderr));

  const captured = await w.mcpx(["--json", "run", "--log-level", "debug", "./console.ts"]);
  assert.equal(captured.code, 0, captured.stderr);
  const doc = JSON.parse(captured.stdout);
  assert.equal(doc.stderr, "", "nothing the console wrote bypassed capture");
  assert.equal(doc.stdout, "to stdout still\n{ out: true }\n", "console.log stays on stdout");
  assert.deepEqual(
    doc.logs.map((l: { level: string }) => l.level),
    ["info", "warn", "error", "debug", "info", "error"],
  );

  // The durable log has every console call in order, console.log as file-only.
  const records = (await w.json(["log", "--level", "debug", "-n", "100"])).records
    .filter((r: { span: string; event: string }) =>
      r.span === doc.run && !r.event.startsWith("run.")
    );
  const recordedText = records.map((r: { msg: string }) => r.msg + "\n").join("");
  assert.equal(recordedText, bareText);
  assert.deepEqual(
    records.filter((r: { attrs: { fileOnly?: boolean } }) => r.attrs.fileOnly).map((
      r: { msg: string },
    ) => r.msg),
    ["to stdout still", "{ out: true }"],
  );
});

Deno.test("console capture writes at most 3x what the script printed, and mcpx log reads it back line for line", async () => {
  await using w = await world();
  await w.writeConfig({ mcpServers: {} });
  // 20,000 short lines on stdout, then 2,000 console.info lines (records on stderr too).
  await Deno.writeTextFile(
    `${w.dir}/lines.ts`,
    `for (let i = 0; i < 20000; i++) console.log("line " + i);\n` +
      `for (let i = 0; i < 2000; i++) console.info("step", i);\n`,
  );
  const run = await w.mcpx(["--json", "run", "./lines.ts"]);
  assert.equal(run.code, 0, run.stderr);
  const doc = JSON.parse(run.stdout);
  const printed = new TextEncoder().encode(doc.stdout).length +
    doc.logs.reduce((n: number, l: { msg: string }) => n + l.msg.length + 1, 0);
  const logs = `${w.dir}/.state/mcpx/logs`;
  let recorded = 0;
  for (const entry of Deno.readDirSync(logs)) {
    if (entry.name.includes("_run-")) recorded += Deno.statSync(`${logs}/${entry.name}`).size;
  }
  console.log(
    `  printed ${printed} bytes, recorded ${recorded} (${(recorded / printed).toFixed(2)}x)`,
  );
  assert.ok(recorded <= 3 * printed, `recorded ${recorded} bytes for ${printed} printed`);

  const records = (await w.json(["log", "-n", "100000"])).records
    .filter((r: { span: string; event: string }) =>
      r.span === doc.run && !r.event.startsWith("run.")
    );
  const text = records.map((r: { msg: string }) => r.msg + "\n").join("");
  const expected = Array.from({ length: 20000 }, (_, i) => `line ${i}\n`).join("") +
    Array.from({ length: 2000 }, (_, i) => `step ${i}\n`).join("");
  assert.equal(text, expected, "every line, in order");
});
