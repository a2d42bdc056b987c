/**
 * Discovery never waits silently (issue 24, decision 0010): with one server
 * hanging on its first start and the others cached, `ls`, `search` and
 * `types` answer from what is known, show that server as starting (how long,
 * and the command that waits for it) in text and `--json`, on a terminal or
 * not; `status` says starting; waiting is what `--wait` asks for.
 *
 * The world's MCPX_DISCOVERY_WAIT (tests/_helpers.ts) is set back to the
 * default here, so these commands run as a user's would.
 */
import assert from "node:assert/strict";
import {
  eventually,
  fixtureServer,
  hangingServer,
  mcpxArgv,
  SERVERS,
  SHIPPED_DISCOVERY_WAIT,
  world,
} from "./_helpers.ts";

const DEFAULT = SHIPPED_DISCOVERY_WAIT;

Deno.test("ls, search and types answer while a server hangs on its first start, and show it starting; status says starting; --wait waits, bounded", async () => {
  await using w = await world();
  const [command, ...args] = SERVERS.everything;
  await w.writeConfig({
    mcpServers: {
      everything: { command, args },
      // Never answers initialize (before this fix, what waited for it failed at its 40s bound).
      hang: hangingServer(),
    },
  });
  // everything is cached; hang was never listed.
  const refreshed = await w.mcpx(["refresh", "everything"]);
  assert.equal(refreshed.code, 0, refreshed.stderr);

  const started = performance.now();
  const ls = await w.json(["ls"], { env: DEFAULT });
  const firstLsMs = Math.round(performance.now() - started);
  const row = (doc: typeof ls, ns: string) => doc.namespaces.find((r: any) => r.namespace === ns);
  assert.equal(row(ls, "everything").state, "ready");
  assert.ok(row(ls, "everything").tools > 0);
  const hang = row(ls, "hang");
  assert.equal(hang.state, "starting", JSON.stringify(hang));
  assert.equal(hang.starting.bound, "firstStartTimeout");
  assert.equal(hang.starting.allowanceMs, 40_000);
  assert.equal(hang.starting.wait, "mcpx ls --wait");
  assert.equal(typeof hang.starting.elapsedMs, "number");
  // It answered while the start was still in progress: the daemon says so after the answer.
  const status = await w.json(["status"]);
  const hangStatus = status.servers.find((r: any) => r.namespace === "hang");
  assert.equal(hangStatus.state, "starting", JSON.stringify(hangStatus));
  assert.equal(hangStatus.starting.bound, "firstStartTimeout");
  const statusText = await w.mcpx(["status"]);
  assert.match(statusText.stdout, /^hang\s.*starting \d+s of 40s/m, statusText.stdout);

  // Two more at once, in text and JSON, off a terminal (a pipe): each answers with what is known.
  const times: number[] = [];
  const timed = async <T>(run: () => Promise<T>) => {
    const t = performance.now();
    const out = await run();
    times.push(Math.round(performance.now() - t));
    return out;
  };
  const [text, again] = await Promise.all([
    timed(() => w.mcpx(["ls"], { env: DEFAULT })),
    timed(() => w.json(["ls"], { env: DEFAULT })),
  ]);
  assert.equal(text.code, 0, text.stderr);
  assert.match(text.stdout, /^everything\s+\d+\s.*ready/m, text.stdout);
  assert.match(text.stdout, /^hang\s+0\s.*starting\s+starting \d+s of 40s/m, text.stdout);
  assert.match(
    text.stdout,
    /hang is starting \(\d+s so far; a first start may take up to 40s[^)]*\): `mcpx ls --wait` waits for it\./,
    text.stdout,
  );
  assert.equal(row(again, "hang").state, "starting");
  assert.equal(row(again, "everything").state, "ready");
  // On a terminal (`script` gives the CLI one, as a user's shell would) it says the same.
  const line = mcpxArgv(["ls"]).map((a) => `'${a}'`).join(" ");
  const tty = await new Deno.Command("script", {
    args: ["-qec", line, "/dev/null"],
    env: { ...w.env, ...DEFAULT, TERM: "xterm" },
    clearEnv: true,
    cwd: w.dir,
    stdin: "null",
    stdout: "piped",
  }).output();
  const onTty = new TextDecoder().decode(tty.stdout);
  assert.equal(tty.code, 0, onTty);
  assert.match(onTty, /hang is starting \(\d+s so far.*`mcpx ls --wait` waits for it\./, onTty);

  // search finds the cached server's tools and names the one not searched yet.
  const search = await w.json(["search", "echo"], { env: DEFAULT });
  assert.ok(search.hits.some((h: any) => h.namespace === "everything"), JSON.stringify(search));
  assert.deepEqual(search.starting.map((s: any) => [s.namespace, s.wait]), [
    ["hang", "mcpx search echo --wait"],
  ]);
  const searchText = await w.mcpx(["search", "echo"], { env: DEFAULT });
  assert.match(searchText.stdout, /Not searched yet: hang is starting .*`mcpx search echo --wait`/);

  // types of the namespace still starting says so, with the command that waits for it.
  const types = await w.mcpx(["types", "hang"], { env: DEFAULT });
  assert.equal(types.code, 1, types.stdout);
  assert.match(types.stderr, /hang is starting .*`mcpx types hang --wait` waits for it/);

  // Asked to wait a bounded time, ls waits, then still says starting (the start goes on).
  const waited = await w.json(["ls", "--wait=1s"], { env: DEFAULT });
  assert.equal(row(waited, "hang").state, "starting");
  const bad = await w.mcpx(["ls", "--wait=soon"], { env: DEFAULT });
  assert.equal(bad.code, 2, bad.stderr);
  assert.match(bad.stderr, /--wait: .*"soon".*--wait=30s/);

  console.log(
    `ls latency with one server hanging on its first start: first ${firstLsMs} ms ` +
      `(starts its listing, waits the 1s grace), concurrent ${times.join(" ms, ")} ms`,
  );
});

Deno.test("a fresh configuration: ls shows a slow first start as starting, and ls --wait waits for it to be listed", async () => {
  await using w = await world();
  await w.writeConfig({
    mcpServers: { slow: fixtureServer({ env: { MISBEHAVE_START_DELAY_MS: "3000" } }) },
  });
  // No grace: the first listing is started and not waited for.
  const first = await w.json(["ls"], { env: { MCPX_DISCOVERY_WAIT: "0s" } });
  assert.equal(first.namespaces[0].state, "starting", JSON.stringify(first.namespaces[0]));
  assert.equal(first.namespaces[0].starting.wait, "mcpx ls --wait");
  // The command it names waits for the listing (bounded by firstStartTimeout) and lists it.
  const waited = await w.json(["ls", "--wait"], { env: DEFAULT });
  assert.equal(waited.namespaces[0].state, "ready", JSON.stringify(waited.namespaces[0]));
  assert.equal(waited.namespaces[0].tools, 5);
  // Once listed, status has nothing starting.
  assert.ok(
    await eventually(async () => (await w.json(["status"])).servers[0].state !== "starting"),
  );
});
