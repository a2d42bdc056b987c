/**
 * The browser walk on real parts: the pinned `chrome-devtools-mcp` from npm
 * driving Debian's headless `chromium` behind mcpx, against two pages served
 * on loopback (tests/fixtures/browser/). Findings about the pinned server's
 * tools are in docs/browser-walk.md.
 *
 * Every test is skipped when /usr/bin/chromium is absent.
 *
 * @module
 */

import assert from "node:assert/strict";
import { browserConfig } from "./fixtures/browser/config.ts";
import { CHROMIUM } from "../dev/real_servers.ts";
import { servePages } from "./fixtures/browser/pages.ts";
import { eventually, ROOT, type RunResult, type World, world } from "./_helpers.ts";

const FIXTURE_MCPX = `${ROOT}tests/fixtures/browser/.mcpx`;

/** How long one `mcpx` command of these tests may take (a cold npx + chromium start included). */
const COMMAND_MS = 120_000;

const chromium = await Deno.stat(CHROMIUM).then((s) => s.isFile, () => false);
if (!chromium) {
  console.warn(
    `browser walk tests skipped: ${CHROMIUM} is absent (apt-get install -y chromium)`,
  );
}

Deno.test({
  name: "chrome_devtools under mcpx: new_page then take_screenshot returns a PNG in the envelope",
  ignore: !chromium,
  async fn() {
    await using w = await browserWorld();
    await using pages = servePages();
    const session = ["--session", "call-walk"];

    const opened = await mcpxWithin(w, [
      ...session,
      "call",
      "chrome_devtools.new_page",
      JSON.stringify({ url: pages.url }),
    ]);
    assert.equal(opened.code, 0, opened.stderr);
    // new_page answers with the page list: "<id>: <title> (<url>)" per page.
    const row = opened.stdout.split("\n").find((line) => line.includes(`(${pages.url})`));
    assert.ok(row, `no row for ${pages.url} in:\n${opened.stdout}`);
    const pageId = Number(row.split(":")[0]);

    const shot = await mcpxWithin(w, [
      ...session,
      "call",
      "--raw",
      "chrome_devtools.take_screenshot",
      JSON.stringify({ pageId }),
    ]);
    assert.equal(shot.code, 0, shot.stderr);
    const envelope = JSON.parse(shot.stdout);
    const image = envelope.content.find((c: { type: string }) => c.type === "image");
    assert.ok(image, `no image content in:\n${shot.stdout.slice(0, 500)}`);
    assert.equal(image.mimeType, "image/png");
    assert.deepEqual(pngSize(decodeBase64(image.data)), { width: 800, height: 600 });

    await assertBrowsersGone(w);
  },
});

Deno.test({
  name: "mcpx run shot-flow prints one JSON document and writes two different PNGs",
  ignore: !chromium,
  async fn() {
    await using w = await browserWorld();
    await using pages = servePages();
    const out = `${w.dir}/shots`;

    const run = await mcpxWithin(w, ["run", "shot-flow", pages.url, out]);
    assert.equal(run.code, 0, `stdout:\n${run.stdout}\nstderr:\n${run.stderr}`);
    const result = parseOneJson(run);
    assert.equal(result.url, pages.url);
    assert.match(result.clicked, /^\d+_\d+$/);
    await assertTwoDifferentPngs(result.before, result.after);

    await assertBrowsersGone(w);
  },
});

Deno.test({
  name: "mcpx run shot-flow twice at once: each run drives a browser of its own",
  ignore: !chromium,
  async fn() {
    await using w = await browserWorld();
    await using pages = servePages();

    // One run names a session, the other has none (the run mints its own).
    const [named, unnamed] = await Promise.all([
      mcpxWithin(w, ["--session", "walk-a", "run", "shot-flow", pages.url, `${w.dir}/a`]),
      mcpxWithin(w, ["run", "shot-flow", pages.url, `${w.dir}/b`]),
    ]);
    for (const run of [named, unnamed]) {
      assert.equal(run.code, 0, `stdout:\n${run.stdout}\nstderr:\n${run.stderr}`);
      const result = parseOneJson(run);
      await assertTwoDifferentPngs(result.before, result.after);
    }

    // The durable log says which instance served each call: every key
    // (one per run) must have had exactly one instance, and no instance or
    // server process may have served both runs.
    const log = await w.json<{ records: LogRecord[] }>(
      ["log", "--event", "call.start,server.start", "--server", "chrome-devtools", "-n", "1000"],
    );
    const calls = log.records.filter((r) => r.event === "call.start");
    const byKey = new Map<string, Set<string>>();
    for (const call of calls) {
      const key = String(call.attrs.key);
      byKey.set(key, (byKey.get(key) ?? new Set()).add(String(call.attrs.instance)));
    }
    assert.equal(byKey.size, 2, `expected two keys, got ${[...byKey.keys()].join(", ")}`);
    assert.ok(byKey.has("session:walk-a"), [...byKey.keys()].join(", "));
    const [first, second] = [...byKey.values()];
    assert.equal(first.size, 1, `one run's calls went to ${[...first].join(", ")}`);
    assert.equal(second.size, 1, `one run's calls went to ${[...second].join(", ")}`);
    assert.notEqual([...first][0], [...second][0]);
    const starts = log.records.filter((r) => r.event === "server.start");
    const pids = new Set(
      starts.filter((r) => r.span === [...first][0] || r.span === [...second][0])
        .map((r) => r.attrs.pid),
    );
    assert.equal(pids.size, 2, `server processes: ${[...pids].join(", ")}`);
    // Seven tool calls per run (new_page, list_pages, 2×take_screenshot,
    // take_snapshot, click, wait_for).
    assert.equal(calls.length, 14, calls.map((c) => c.msg).join("\n"));

    await assertBrowsersGone(w);
  },
});

Deno.test({
  name:
    "the walk as AGENTS.md tells it (ls, search, its types line, run) costs at most 2,500 tokens",
  ignore: !chromium,
  async fn() {
    await using w = await browserWorld();
    await using pages = servePages();
    // The agent works in a project below the configuration's directory, as a user's agent does.
    const project = `${w.dir}/project`;
    await Deno.mkdir(project);
    // Every byte of mcpx output the agent reads, step by step (docs/browser-walk.md).
    const read: [string, number][] = [];
    const size = (text: string) => new TextEncoder().encode(text).length;
    const step = async (args: string[]) => {
      const run = await mcpxWithin(w, args, COMMAND_MS, project);
      assert.equal(run.code, 0, `mcpx ${args.join(" ")}:\n${run.stdout}${run.stderr}`);
      read.push([`mcpx ${args.join(" ")}`, size(run.stdout) + size(run.stderr)]);
      return run;
    };
    await step(["ls"]);
    // The agent loads the signatures each search's last line names (read here as JSON).
    const refs = new Set<string>();
    for (const words of [["screenshot", "click"], ["open", "page"], ["wait"]]) {
      await step(["search", ...words]);
      const hint = (await w.json(["search", ...words])).types as { refs: string[] };
      for (const ref of hint.refs) refs.add(ref);
    }
    const used = [
      "new_page",
      "list_pages",
      "take_screenshot",
      "take_snapshot",
      "click",
      "wait_for",
    ];
    for (const fn of used) assert.ok(refs.has(`chrome_devtools.${fn}`), `${fn} not found`);
    await step(["types", ...refs]);
    // `./shots`, as README and AGENTS.md write it: the files land in the agent's directory,
    // and the script says where.
    const run = await step(["run", "shot-flow", pages.url, "./shots"]);
    const result = parseOneJson(run);
    assert.equal(result.before, `${project}/shots/1-before.png`);
    assert.equal(result.after, `${project}/shots/2-after.png`);
    await assertTwoDifferentPngs(result.before, result.after);

    const total = read.reduce((sum, [, bytes]) => sum + bytes, 0);
    const table = read.map(([what, bytes]) => `${String(bytes).padStart(6)}  ${what}`).join("\n");
    assert.ok(total / 4 <= 2_500, `${Math.ceil(total / 4)} tokens:\n${table}`);
    await assertBrowsersGone(w);
  },
});

/** One durable-log record as `mcpx log --json` prints it (docs/logs.md). */
interface LogRecord {
  event: string;
  msg: string;
  span: string;
  attrs: Record<string, unknown>;
}

/**
 * A world with the browser configuration as `.mcp.json` and the fixture's
 * `.mcpx/` (its scripts) beside it. The server's `TMPDIR` is inside the
 * world, so its throw-away Chromium profiles (and so every Chromium process's
 * command line) name the world's folder.
 */
async function browserWorld(): Promise<World> {
  const w = await world();
  const tmpDir = `${w.dir}/tmp`;
  await Deno.mkdir(tmpDir);
  await copyTree(FIXTURE_MCPX, `${w.dir}/.mcpx`);
  await w.writeConfig(browserConfig({ tmpDir }));
  return w;
}

async function copyTree(from: string, to: string): Promise<void> {
  await Deno.mkdir(to, { recursive: true });
  for await (const entry of Deno.readDir(from)) {
    if (entry.isDirectory) await copyTree(`${from}/${entry.name}`, `${to}/${entry.name}`);
    else if (entry.isFile) await Deno.copyFile(`${from}/${entry.name}`, `${to}/${entry.name}`);
  }
}

/**
 * Runs `mcpx <args>` in world `w` like `w.mcpx`, but kills it after
 * {@link COMMAND_MS} so a wedged browser fails the test instead of hanging
 * the suite (what it left behind carries the world's mark and goes with the
 * world).
 */
function mcpxWithin(
  w: World,
  args: string[],
  ms = COMMAND_MS,
  cwd?: string,
): Promise<RunResult> {
  return w.mcpx(args, { timeoutMs: ms, ...(cwd ? { cwd } : {}) });
}

/** Parses stdout as exactly one JSON document: nothing before or after it. */
function parseOneJson(run: RunResult): Record<string, string> {
  try {
    return JSON.parse(run.stdout);
  } catch (error) {
    throw new Error(`stdout is not one JSON document (${error}):\n${run.stdout}`);
  }
}

async function assertTwoDifferentPngs(before: string, after: string): Promise<void> {
  const a = await Deno.readFile(before);
  const b = await Deno.readFile(after);
  assert.ok(pngSize(a).width > 0, before);
  assert.ok(pngSize(b).width > 0, after);
  assert.notDeepEqual(a, b, `${before} and ${after} are the same image`);
}

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/** Width and height from a PNG's IHDR; throws when the bytes are not a PNG. */
function pngSize(bytes: Uint8Array): { width: number; height: number } {
  assert.deepEqual([...bytes.subarray(0, 8)], PNG_SIGNATURE, "PNG signature");
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  assert.equal(view.getUint32(8), 13, "IHDR length");
  assert.equal(new TextDecoder().decode(bytes.subarray(12, 16)), "IHDR");
  return { width: view.getUint32(16), height: view.getUint32(20) };
}

function decodeBase64(data: string): Uint8Array {
  return Uint8Array.from(atob(data), (c) => c.charCodeAt(0));
}

/**
 * Stops the world's daemons and waits until no process names the world's
 * folder: Chromium's zygote and renderers do not inherit the test mark (the
 * zygote starts with a cleared environment) but do carry the profile path,
 * and they outlive the browser process by a few seconds.
 */
async function assertBrowsersGone(w: World): Promise<void> {
  await w.mcpx(["stop", "--all"]);
  const left = () => [...processesNaming(w.dir), ...w.processes()];
  const gone = await eventually(() => left().length === 0, 20_000);
  assert.ok(gone, `still running:\n${left().map(describe).join("\n")}`);
}

/** Pids whose command line mentions `text` (reads /proc). */
function processesNaming(text: string): number[] {
  const pids: number[] = [];
  for (const entry of Deno.readDirSync("/proc")) {
    if (!/^\d+$/.test(entry.name) || Number(entry.name) === Deno.pid) continue;
    try {
      if (/\) Z /.test(Deno.readTextFileSync(`/proc/${entry.name}/stat`))) continue;
      if (Deno.readTextFileSync(`/proc/${entry.name}/cmdline`).includes(text)) {
        pids.push(Number(entry.name));
      }
    } catch { /* gone */ }
  }
  return [...new Set(pids)];
}

function describe(pid: number): string {
  try {
    return `${pid} ${Deno.readTextFileSync(`/proc/${pid}/cmdline`).replaceAll("\0", " ")}`;
  } catch {
    return `${pid} (gone)`;
  }
}
