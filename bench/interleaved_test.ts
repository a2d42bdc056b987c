import assert from "node:assert/strict";
import { against, interleave, noVerdict, RunFailed } from "./interleaved.ts";

Deno.test("interleave() runs every contender once per round, in order, and keeps the timed rounds", async () => {
  const dir = await Deno.makeTempDir({ prefix: "mcpx-interleave-" });
  try {
    const mark = (name: string) => ({
      label: name,
      argv: ["sh", "-c", `echo ${name} >> order; echo ran ${name}`],
      env: { PATH: Deno.env.get("PATH") ?? "" },
      cwd: dir,
      expect: new RegExp(`^ran ${name}\\n$`),
    });
    const rounds = await interleave([mark("floor"), mark("a"), mark("b")], { runs: 3, warmup: 1 });
    const order = (await Deno.readTextFile(`${dir}/order`)).trim().split("\n");
    assert.deepEqual(order, Array(4).fill(["floor", "a", "b"]).flat(), "A B C, round after round");
    assert.equal(rounds.length, 3, "the warm-up round is not kept");
    for (const round of rounds) {
      assert.equal(round.length, 3);
      for (const s of round) assert.ok(s.wallMs > 0);
    }
    // Where the C library answers (Linux, macOS), each run has its own CPU time.
    if (rounds[0][0].cpuMs !== undefined) assert.ok(rounds.flat().every((s) => s.cpuMs! >= 0));
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("a run that fails its check stops the bench, naming the contender and what it printed", async () => {
  const base = { env: { PATH: Deno.env.get("PATH") ?? "" }, cwd: "/" };
  await assert.rejects(
    interleave([{ ...base, label: "exits 3", argv: ["sh", "-c", "exit 3"] }], {
      runs: 1,
      warmup: 0,
    }),
    (e: unknown) => e instanceof RunFailed && /^exits 3: exit 3/.test(e.message),
  );
  await assert.rejects(
    interleave([{ ...base, label: "wrong", argv: ["echo", "nope"], expect: /^yes/ }], {
      runs: 1,
      warmup: 0,
    }),
    (e: unknown) => e instanceof RunFailed && /stdout "nope\\n"/.test(e.message),
  );
});

Deno.test("against() divides each round by its own floor; noVerdict() withholds on a shaky floor or a busy machine", () => {
  // The floor doubles in round 2 (a slow moment): each round's ratio is still 1.5.
  const rounds = [
    [{ wallMs: 10 }, { wallMs: 15 }],
    [{ wallMs: 20 }, { wallMs: 30 }],
    [{ wallMs: 10 }, { wallMs: 15 }],
  ];
  const a = against(rounds, 1, 0);
  assert.equal(a.wallRatio, 1.5);
  assert.equal(a.cpuRatio, undefined, "no CPU times, no CPU ratio");
  assert.equal(noVerdict(1.2, [0.3, 0.5], 2), undefined);
  assert.match(noVerdict(1.6, [0.3, 0.5], 2)!, /floor's p90 is 1\.60× its median/);
  assert.match(noVerdict(1.2, [0.3, 1.2], 2)!, /load average reached 1\.20 on 2 cores/);
});
