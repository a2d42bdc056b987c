import assert from "node:assert/strict";
import { Browser } from "./browser.ts";
import { handleInput } from "./browser_input.ts";
import { fakeData, namespaceItems, toolItems } from "./_fake_data.ts";
import { parseInput } from "./keys.ts";
import { gridOf } from "./grid.ts";
import { headerOf, layoutOf } from "./layout.ts";
import { selectedNamespace, visibleNamespaces } from "./model.ts";

/** Lets every reply already given reach the browser (its callbacks are microtasks). */
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

/** Types `text` (keys, escape sequences, SGR mouse reports) into the browser. */
function type(browser: Browser, text: string): void {
  for (const event of parseInput(text)) handleInput(browser, event);
}

/** A browser on a 140×40 screen whose namespaces `names` have loaded. */
async function opened(...names: string[]) {
  const data = fakeData();
  const browser = new Browser(data, { columns: 140, rows: 40 });
  browser.start();
  data.waiting("namespaces").reply(namespaceItems(...names));
  await settle();
  return { data, browser };
}

/** The names of the tools shown (a function: assertions must not narrow the state's type). */
const toolNames = (browser: Browser): string[] => browser.state.tools.items.map((t) => t.name);
/** The row opened, if any. */
const detailOf = (browser: Browser) => browser.state.detail;

const DOWN = "\x1b[B";
const UP = "\x1b[A";
/** An SGR mouse press of the left button at 0-based cell (x, y). */
const click = (x: number, y: number) => `\x1b[<0;${x + 1};${y + 1}M\x1b[<0;${x + 1};${y + 1}m`;

Deno.test("Browser: moving the cursor loads the namespace under it, with nothing pressed", async () => {
  const { data, browser } = await opened("alpha", "beta", "gamma");
  // The first namespace's tools are asked for as soon as the list arrives.
  data.waiting("tools:alpha").reply(toolItems("a1", "a2"));
  await settle();
  assert.deepEqual(toolNames(browser), ["a1", "a2"]);
  type(browser, DOWN);
  assert.equal(browser.state.tools.namespace, "beta");
  assert.equal(browser.state.tools.loading, true);
  data.waiting("tools:beta").reply(toolItems("b1"));
  await settle();
  assert.deepEqual(toolNames(browser), ["b1"]);
  type(browser, DOWN + UP);
  assert.deepEqual(
    data.requests.map((r) => r.what),
    ["namespaces", "tools:alpha", "tools:beta", "tools:gamma", "tools:beta"],
  );
});

Deno.test("Browser: a late reply for a namespace the cursor has left is dropped", async () => {
  const { data, browser } = await opened("alpha", "beta");
  const alpha = data.waiting("tools:alpha");
  type(browser, DOWN);
  // The request the cursor left is aborted, and its reply, arriving anyway, is not shown.
  assert.equal(alpha.signal.aborted, true);
  alpha.reply(toolItems("late"));
  await settle();
  assert.equal(browser.state.tools.namespace, "beta");
  assert.deepEqual(browser.state.tools.items, []);
  assert.equal(browser.state.tools.loading, true);
  assert.equal(browser.state.dropped, 1);
  data.waiting("tools:beta").reply(toolItems("b1"));
  await settle();
  assert.deepEqual(toolNames(browser), ["b1"]);
  // Back and forth: only the newest request for the namespace is taken.
  type(browser, UP + DOWN + UP);
  const [first, second] = data.requests.filter((r) => r.what === "tools:alpha").slice(1);
  second.reply(toolItems("new"));
  first.reply(toolItems("old"));
  await settle();
  assert.deepEqual(toolNames(browser), ["new"]);
});

Deno.test("Browser: keys go to the filter while it is open, so a q typed there does not quit", async () => {
  const { data, browser } = await opened("alpha", "quux", "squid");
  type(browser, "/quu");
  assert.equal(browser.state.quit, false);
  assert.equal(browser.state.namespaces.filter, "quu");
  assert.deepEqual(visibleNamespaces(browser.state).map((n) => n.namespace), ["quux"]);
  // The namespace the filter leaves under the cursor is loaded.
  assert.equal(selectedNamespace(browser.state)?.namespace, "quux");
  assert.ok(data.requests.some((r) => r.what === "tools:quux"));
  // `]`, `r` and `L` are text in the filter too; Backspace edits it.
  type(browser, "]rL\x7f\x7f\x7f");
  assert.equal(browser.state.view, "tools");
  assert.equal(browser.state.namespaces.filter, "quu");
  // Enter closes the filter and keeps it; now q quits.
  type(browser, "\r");
  assert.equal(browser.state.filtering, false);
  assert.equal(browser.state.namespaces.filter, "quu");
  type(browser, "q");
  assert.equal(browser.state.quit, true);
});

Deno.test("Browser: Escape in the filter clears it; Control-C quits even there", async () => {
  const { browser } = await opened("alpha", "beta");
  type(browser, "/bet\x1b");
  assert.equal(browser.state.filtering, false);
  assert.equal(browser.state.namespaces.filter, "");
  type(browser, "/x\x03");
  assert.equal(browser.state.quit, true);
});

Deno.test("Browser: ] and [ cycle the six views, and the header marks the current one", async () => {
  const { data, browser } = await opened("alpha");
  const seen: string[] = [];
  for (let i = 0; i < 6; i++) {
    seen.push(browser.state.view);
    assert.match(headerOf(browser.state.view).text, new RegExp(`\\[${browser.state.view}\\]`));
    type(browser, "]");
  }
  assert.deepEqual(seen, ["tools", "log", "stats", "servers", "sessions", "storage"]);
  assert.equal(browser.state.view, "tools");
  type(browser, "[");
  assert.equal(browser.state.view, "storage");
  // Each grid was asked for once, when first shown.
  assert.deepEqual(
    data.requests.filter((r) => r.what.startsWith("grid:")).map((r) => r.what),
    ["grid:log", "grid:stats", "grid:servers", "grid:sessions", "grid:storage"],
  );
  type(browser, "L");
  assert.equal(browser.state.view, "log");
});

Deno.test("Browser: Enter opens a grid row in full, a multi-line string indented", async () => {
  const { data, browser } = await opened("alpha");
  type(browser, "L");
  data.waiting("grid:log").reply(gridOf([
    { time: "10:00:00", msg: "first" },
    { time: "10:00:01", msg: "failed:\n  at frame one\n  at frame two" },
  ]));
  await settle();
  // The log reads newest last: the cursor starts on the last row.
  assert.equal(browser.state.grids.log.cursor, 1);
  type(browser, "\r");
  assert.deepEqual(browser.state.detail?.lines, [
    "time: 10:00:01",
    "msg:",
    "  failed:",
    "    at frame one",
    "    at frame two",
  ]);
  type(browser, "\x1b");
  assert.equal(browser.state.detail, undefined);
});

Deno.test("Browser: a click selects a namespace, loads it, and opens a grid row", async () => {
  const { data, browser } = await opened("alpha", "beta", "gamma");
  const { listTop, panes } = layoutOf(140, 40);
  type(browser, click(panes[0].x + 2, listTop + 2));
  assert.equal(selectedNamespace(browser.state)?.namespace, "gamma");
  data.waiting("tools:gamma").reply(toolItems("g1", "g2"));
  await settle();
  // A click on a tool selects it; a second click on it opens it.
  type(browser, click(panes[1].x + 2, listTop + 1));
  assert.equal(browser.state.focus, "tools");
  assert.equal(browser.state.tools.cursor, 1);
  assert.equal(browser.state.detail, undefined);
  type(browser, click(panes[1].x + 2, listTop + 1));
  assert.equal(detailOf(browser)?.title, "gamma.g2");
  // A click on a view's name in the header shows it; a click on a grid row opens it.
  type(browser, "\x1b");
  const servers = headerOf("tools").tabs.find((t) => t.view === "servers")!;
  type(browser, click(servers.x + 1, 0));
  assert.equal(browser.state.view, "servers");
  data.waiting("grid:servers").reply(gridOf([{ server: "a", pid: 1 }, { server: "b", pid: 2 }]));
  await settle();
  type(browser, click(10, listTop + 1));
  assert.equal(browser.state.grids.servers.cursor, 1);
  assert.deepEqual(detailOf(browser)?.lines, ["server: b", "pid: 2"]);
  // The wheel scrolls the list under the pointer.
  type(browser, "\x1b\x1b[<64;10;5M");
  assert.equal(browser.state.grids.servers.cursor, 0);
});

Deno.test("Browser: d cycles the stats dimension, each asked for by name", async () => {
  const { data, browser } = await opened("alpha");
  type(browser, "]]");
  assert.equal(data.waiting("grid:stats").query?.dimension, "calls");
  data.waiting("grid:stats").reply(gridOf([]));
  await settle();
  type(browser, "dd");
  assert.equal(browser.state.dimension, "servers");
  // The reply for `slowest` arrives after `servers` was asked for: dropped.
  const [slowest, servers] = data.requests.filter((r) => r.what === "grid:stats").slice(1);
  assert.equal(slowest.query?.dimension, "slowest");
  assert.equal(servers.query?.dimension, "servers");
  slowest.reply(gridOf([{ tool: "x" }]));
  await settle();
  assert.equal(browser.state.grids.stats.grid?.rows.length, 0);
  assert.equal(browser.state.dropped, 1);
  servers.reply(gridOf([{ server: "alpha" }]));
  await settle();
  assert.deepEqual(browser.state.grids.stats.grid?.rows, [{ server: "alpha" }]);
});

Deno.test("Browser: a live event reloads the log when shown, and marks it stale when not", async () => {
  const { data, browser } = await opened("alpha");
  type(browser, "L");
  data.waiting("grid:log").reply(gridOf([{ msg: "one" }]));
  await settle();
  data.mode("events");
  assert.equal(browser.state.live, "events");
  data.emit({ kind: "server.crashed", server: "alpha" });
  data.waiting("grid:log").reply(gridOf([{ msg: "one" }, { msg: "two" }]));
  await settle();
  assert.equal(browser.state.grids.log.grid?.rows.length, 2);
  assert.equal(browser.state.grids.log.cursor, 1, "newest last: the cursor follows the end");
  // Shown elsewhere, the log is read again only when it is shown next.
  type(browser, "]");
  data.waiting("grid:stats").reply(gridOf([]));
  await settle();
  data.emit({ kind: "call.finished" });
  assert.throws(() => data.waiting("grid:log"));
  type(browser, "[");
  data.waiting("grid:log").reply(gridOf([{ msg: "three" }]));
});

Deno.test("Browser: a failed load is shown in mcpx's words, and r asks again", async () => {
  const { data, browser } = await opened("alpha");
  data.waiting("tools:alpha").fail(new Error("alpha is starting"));
  await settle();
  assert.equal(browser.state.tools.error, "alpha is starting");
  type(browser, "r");
  data.waiting("namespaces").reply(namespaceItems("alpha"));
  await settle();
  data.waiting("tools:alpha").reply(toolItems("a1"));
  await settle();
  assert.equal(browser.state.tools.error, undefined);
  assert.equal(browser.state.tools.items.length, 1);
});
