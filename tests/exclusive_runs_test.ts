/**
 * Exclusive means one caller, and a run is one caller (issue 8): a `mcpx run`
 * keeps each exclusive instance it uses from its first call until it ends,
 * so a second run in the same session waits its turn (saying on stderr what
 * it waits for), bounded by `leaseTimeout`, and two runs that would wait for
 * each other are told so instead of hanging.
 *
 * @module
 */

import assert from "node:assert/strict";
import { backgroundMcpx, eventually, fixtureServer, type World, world } from "./_helpers.ts";
import { browserConfig } from "./fixtures/browser/config.ts";
import { CHROMIUM } from "../dev/real_servers.ts";
import { servePages } from "./fixtures/browser/pages.ts";

/** Script lines that wait, up to 90 s, until file `path` (a variable of the script) exists. */
const waitForFile = (path: string) =>
  `  for (const until = Date.now() + 90_000; Date.now() < until;) {
    try {
      await Deno.stat(${path});
      break;
    } catch {
      await new Promise((r) => setTimeout(r, 50));
    }
  }`;

/** Calls `slow.echo`, says so in file `held`, waits for file `gate`, calls again. */
const HOLD = `export default async function main([tag, held, gate]: string[]) {
  await slow.echo({ text: tag + "-first" });
  await Deno.writeTextFile(held, "");
${waitForFile("gate")}
  await slow.echo({ text: tag + "-second" });
  return "done";
}
`;

/** One call, then file `after` records that it returned. */
const ONCE = `export default async function main([after]: string[]) {
  await slow.echo({ text: "other run" });
  await Deno.writeTextFile(after, "");
  return "done";
}
`;

/** Calls \`first\`, says so in file \`mine\`, waits for file \`theirs\`, then calls \`second\`. */
const CROSS = `export default async function main([first, second, mine, theirs]: string[]) {
  await tools[first].echo({ text: "hold " + first });
  await Deno.writeTextFile(mine, "");
${waitForFile("theirs")}
  await tools[second].echo({ text: "then " + second });
  return "done";
}
`;

const exists = (path: string) => Deno.stat(path).then(() => true, () => false);

async function scriptsWorld(mcpx: Record<string, unknown>): Promise<World> {
  const w = await world();
  await w.writeConfig({ mcpServers: { slow: fixtureServer({ mcpx }) } });
  await Deno.writeTextFile(`${w.dir}/hold.ts`, HOLD);
  await Deno.writeTextFile(`${w.dir}/once.ts`, ONCE);
  return w;
}

/** What a waiting run prints: the run and pid holding the instance. */
const NOTICE =
  /waiting: slow \(session:s1\) is exclusive and held by run (\S+) \(pid (\d+)\) since \d{4}-\S+; waiting up to (\d+) ms \(leaseTimeout\)/;

Deno.test("mcpx run: a second run in the session waits for the first to end, and says for what", async () => {
  await using w = await scriptsWorld({ sharing: "exclusive", scope: "session" });
  const [held, gate, after] = ["held", "gate", "after"].map((f) => `${w.dir}/${f}`);
  await using first = backgroundMcpx(w, ["run", "--session", "s1", "./hold.ts", "r1", held, gate]);
  assert.ok(await eventually(() => exists(held), 90_000), first.output());

  await using second = backgroundMcpx(w, ["run", "--session", "s1", "./once.ts", after]);
  assert.ok(
    await eventually(() => NOTICE.test(second.output()), 60_000),
    `no wait notice:\n${second.output()}`,
  );
  const [, , pid, limit] = NOTICE.exec(second.output())!;
  assert.equal(Number(pid), first.pid, "the notice names the first run's mcpx process");
  assert.equal(Number(limit), 30_000);
  // Between the first run's two calls the instance stays the first run's.
  assert.equal(await exists(after), false, "the second run's call waited");
  assert.equal(second.exited(), false);

  await Deno.writeTextFile(gate, "");
  assert.equal((await first.status).code, 0, first.output());
  assert.equal((await second.status).code, 0, second.output());
  assert.ok(await exists(after));
});

Deno.test("mcpx run: a run that waits longer than leaseTimeout fails naming the holding run", async () => {
  await using w = await scriptsWorld({
    sharing: "exclusive",
    scope: "session",
    leaseTimeout: "2s",
  });
  const [held, gate, after] = ["held", "gate", "after"].map((f) => `${w.dir}/${f}`);
  await using first = backgroundMcpx(w, ["run", "--session", "s1", "./hold.ts", "r1", held, gate]);
  assert.ok(await eventually(() => exists(held), 90_000), first.output());

  const second = await w.mcpx(["run", "--session", "s1", "./once.ts", after], {
    timeoutMs: 60_000,
  });
  assert.notEqual(second.code, 0, second.stderr);
  assert.match(second.stderr, /no instance for key session:s1 became free within 2000 ms/);
  assert.match(second.stderr, new RegExp(`held by run \\S+ \\(pid ${first.pid}\\) since`));
  assert.match(second.stderr, /raise leaseTimeout/);
  assert.equal(await exists(after), false);

  await Deno.writeTextFile(gate, "");
  assert.equal((await first.status).code, 0, first.output());
});

Deno.test("mcpx run: two runs each holding what the other waits for end with an error naming both, not a hang", async () => {
  await using w = await world();
  // Two servers (their env differs, so they are two pools), both exclusive per session.
  const mcpx = { sharing: "exclusive", scope: "session" };
  await w.writeConfig({
    mcpServers: {
      x: fixtureServer({ mcpx, env: { WHICH: "x" } }),
      y: fixtureServer({ mcpx, env: { WHICH: "y" } }),
    },
  });
  await Deno.writeTextFile(`${w.dir}/cross.ts`, CROSS);
  const [a, b] = [`${w.dir}/a-holds-x`, `${w.dir}/b-holds-y`];
  const run = (args: string[]) =>
    backgroundMcpx(w, ["run", "--session", "s1", "./cross.ts", ...args]);
  await using runA = run(["x", "y", a, b]);
  await using runB = run(["y", "x", b, a]);

  // Both end well before the 30 s leaseTimeout would have ended the wait.
  const ended = await eventually(() => runA.exited() && runB.exited(), 25_000);
  assert.ok(ended, `still running:\nA: ${runA.output()}\nB: ${runB.output()}`);
  const codes = [(await runA.status).code, (await runB.status).code];
  assert.deepEqual([...codes].sort(), [0, 1], `A: ${runA.output()}\nB: ${runB.output()}`);
  const failed = codes[0] === 1 ? runA : runB;
  assert.match(failed.output(), /would wait forever/);
  assert.match(failed.output(), /waits for y \(session:s1\), held by run \S+ \(pid \d+\)/);
  assert.match(failed.output(), /waits for x \(session:s1\), held by run \S+ \(pid \d+\)/);
});

const chromium = await Deno.stat(CHROMIUM).then((s) => s.isFile, () => false);

/** Opens `url`, says so in file `held`, waits for file `gate`, then prints the page list. */
const BROWSE = `export default async function main([url, held, gate]: string[]) {
  await chrome_devtools.new_page({ url });
  await Deno.writeTextFile(held, "");
${waitForFile("gate")}
  return String(await chrome_devtools.list_pages({}));
}
`;

/** Opens `url` in the session's browser, then file `after` records that it did. */
const INTRUDE = `export default async function main([url, after]: string[]) {
  await chrome_devtools.new_page({ url });
  await Deno.writeTextFile(after, "");
  return "opened";
}
`;

Deno.test({
  name: "mcpx run: two runs in one session of a session-scoped exclusive browser take turns",
  ignore: !chromium,
  async fn() {
    await using w = await world();
    await Deno.mkdir(`${w.dir}/tmp`);
    await w.writeConfig(browserConfig({ tmpDir: `${w.dir}/tmp` }));
    await Deno.writeTextFile(`${w.dir}/browse.ts`, BROWSE);
    await Deno.writeTextFile(`${w.dir}/intrude.ts`, INTRUDE);
    await using pages = servePages();
    const [held, gate, after] = ["held", "gate", "after"].map((f) => `${w.dir}/${f}`);
    await using first = backgroundMcpx(w, [
      "run",
      "--session",
      "s1",
      "./browse.ts",
      pages.url,
      held,
      gate,
    ]);
    assert.ok(await eventually(() => exists(held), 120_000), first.output());

    await using second = backgroundMcpx(w, [
      "run",
      "--session",
      "s1",
      "./intrude.ts",
      `${pages.url}two`,
      after,
    ]);
    const notice = new RegExp(
      `waiting: chrome_devtools \\(session:s1\\) is exclusive and held by run \\S+ \\(pid ${first.pid}\\)`,
    );
    assert.ok(
      await eventually(() => notice.test(second.output()), 60_000),
      `no wait notice:\n${second.output()}`,
    );
    assert.equal(await exists(after), false, "the second run did not open its page meanwhile");

    await Deno.writeTextFile(gate, "");
    assert.equal((await first.status).code, 0, first.output());
    assert.match(first.output(), new RegExp(`\\(${pages.url}\\)`));
    assert.doesNotMatch(first.output(), /\/two\)/, "the first run's browser saw only its own page");
    assert.equal((await second.status).code, 0, second.output());
    assert.ok(await exists(after));
  },
});
