import assert from "node:assert/strict";
import { progressLine, withStartProgress } from "./start_progress.ts";
import type { StartingRow } from "../../engine/starting.ts";

const row = (namespace: string, extra: Partial<StartingRow> = {}): StartingRow => ({
  server: namespace,
  namespace,
  key: "global",
  elapsedMs: 12_400,
  allowanceMs: 300_000,
  bound: "firstStartTimeout",
  phase: "starting",
  ...extra,
});

Deno.test("withStartProgress() draws nothing when the answer comes before the delay", async () => {
  let written = "";
  let polls = 0;
  const answer = await withStartProgress(Promise.resolve(42), {
    poll: () => {
      polls++;
      return Promise.resolve([row("a")]);
    },
    write: (text) => written += text,
    delayMs: 50,
  });
  assert.equal(answer, 42);
  assert.equal(written, "");
  assert.equal(polls, 0);
});

Deno.test("withStartProgress() rewrites one line while waiting and erases it after", async () => {
  let written = "";
  let finish!: (v: string) => void;
  const work = new Promise<string>((resolve) => finish = resolve);
  const drawn = new Promise<void>((resolve) => {
    const result = withStartProgress(work, {
      poll: () => Promise.resolve([row("everything", { phase: "installing", runner: "npx" })]),
      write: (text) => {
        written += text;
        if (text.includes("starting")) resolve();
      },
      delayMs: 1,
      intervalMs: 5,
    });
    result.then((v) => assert.equal(v, "done"));
  });
  await drawn;
  finish("done");
  await work;
  await new Promise((r) => setTimeout(r, 20));
  const erase = `\r${String.fromCharCode(27)}[K`;
  assert.ok(
    written.startsWith(`${erase}starting everything: 12s of 5m, npx is installing…`),
    JSON.stringify(written),
  );
  assert.ok(written.endsWith(erase), JSON.stringify(written));
});

Deno.test("withStartProgress() passes a failure through and ignores a failing poll", async () => {
  await assert.rejects(
    () =>
      withStartProgress(Promise.reject(new Error("boom")), {
        poll: () => Promise.reject(new Error("no daemon")),
        write: () => {},
        delayMs: 1,
      }),
    /boom/,
  );
});

Deno.test("progressLine() names who installs when only some servers do, and fits the width", () => {
  const rows = [
    row("everything", { phase: "installing", runner: "npx" }),
    row("fs"),
    row("memory", { phase: "installing", runner: "npx" }),
  ];
  assert.equal(
    progressLine(rows, 200),
    "starting everything, fs, memory: 12s of 5m, npx is installing everything, memory…",
  );
  assert.equal(progressLine(rows, 30).length, 30);
  assert.equal(
    progressLine([row("a", { phase: "starting", elapsedMs: 2_000 })], 80),
    "starting a: 2s of 5m…",
  );
});
