import assert from "node:assert/strict";
import { toolEntry } from "./_fixtures.ts";
import { FIELD_SCORES, matchTerm, searchTools, toolTerms } from "./search.ts";
import type { ToolEntry } from "./types.ts";

const cd = (fn: string, description: string, tags: string[] = []): ToolEntry =>
  toolEntry("chrome_devtools", fn, description, { server: "chrome-devtools", tags });

const entries: ToolEntry[] = [
  cd("click", "Clicks on the provided element"),
  cd("take_screenshot", "Take a screenshot of the page or element."),
  cd("take_snapshot", "Take a text snapshot of the target page based on the a11y tree."),
  cd("fill_form", "Fill out multiple form elements at once."),
  cd("list_pages", "Get a list of pages open in the browser.", ["browser"]),
  toolEntry("everything", "echo", "Echoes back the input", { tags: ["demo"] }),
  toolEntry("everything", "add", "Adds two numbers", { tags: ["demo", "math"] }),
  toolEntry("fff", "grep", "Search file contents"),
  toolEntry("fff", "find_files", "Find files; results can be piped to grep"),
];

const fns = (hits: { entry: ToolEntry }[]) => hits.map((h) => `${h.entry.namespace}.${h.entry.fn}`);

Deno.test("searchTools() finds take_screenshot for screenshots", () => {
  const { mode, hits } = searchTools(entries, "screenshots");
  assert.equal(mode, "all");
  assert.deepEqual(fns(hits), ["chrome_devtools.take_screenshot"]);
  assert.equal(hits[0].score, FIELD_SCORES["name-word"]);
});

Deno.test("searchTools() falls back to any-term when all-term finds nothing", () => {
  const { mode, hits } = searchTools(entries, ["screenshot", "click"]);
  assert.equal(mode, "any");
  assert.deepEqual(fns(hits).slice(0, 2), [
    "chrome_devtools.click",
    "chrome_devtools.take_screenshot",
  ]);
});

Deno.test("searchTools() keeps all-term mode when one tool matches every term", () => {
  const { mode, hits } = searchTools(entries, "take page");
  assert.equal(mode, "all");
  assert.deepEqual(fns(hits), ["chrome_devtools.take_screenshot", "chrome_devtools.take_snapshot"]);
});

Deno.test("searchTools() ranks exact over prefix over description", () => {
  const { hits } = searchTools(entries, "grep");
  assert.deepEqual(fns(hits), ["fff.grep", "fff.find_files"]);
  assert.deepEqual(hits.map((h) => h.score), [100, 10]);
  const prefix = searchTools(entries, "take");
  assert.deepEqual(prefix.hits.map((h) => h.score), [60, 60, 10].slice(0, prefix.hits.length));
  assert.ok(searchTools(entries, "cli").hits[0].score === 60);
});

Deno.test("matchTerm() scores each field as the spec says", async (t) => {
  const entry = toolEntry("chrome_devtools", "take_screenshot", "Capture pixels of a page", {
    server: "chrome-devtools",
    tool: "take-screenshot",
    tags: ["Browser"],
  });
  const cases: [string, string | null, number][] = [
    ["take_screenshot", "name", 100],
    ["TAKE-SCREENSHOT", "name", 100],
    ["take_scr", "name-prefix", 60],
    ["browser", "tag", 50],
    ["screensh", "name-substring", 40],
    ["screenshots", "name-word", 40],
    ["takeScreenshots", "name-word", 40],
    ["chrome_devtools.take", "path", 30],
    ["chrome", "namespace", 20],
    ["devtool", "namespace", 20],
    ["pixel", "description", 10],
    ["nothing", null, 0],
  ];
  for (const [term, field, score] of cases) {
    await t.step(term, () => {
      const m = matchTerm(entry, term);
      assert.equal(m?.field ?? null, field);
      assert.equal(m?.score ?? 0, score);
    });
  }
});

Deno.test("searchTools() filters on tags exactly", () => {
  assert.deepEqual(fns(searchTools(entries, [], { tag: "demo" }).hits), [
    "everything.add",
    "everything.echo",
  ]);
  assert.deepEqual(fns(searchTools(entries, "add", { tag: "math" }).hits), ["everything.add"]);
  assert.deepEqual(searchTools(entries, [], { tag: "dem" }).hits, []);
  assert.deepEqual(searchTools(entries, [], { tag: "Demo" }).hits, []);
});

Deno.test("searchTools() explains each term's best field", () => {
  const { hits } = searchTools(entries, "take screenshots", { explain: true });
  assert.deepEqual(hits[0].explain, [
    { term: "take", field: "name-prefix", score: 60 },
    { term: "screenshots", field: "name-word", score: 40 },
  ]);
  assert.equal(hits[0].score, 100);
  assert.equal(searchTools(entries, "take").hits[0].explain, undefined);
});

Deno.test("searchTools() orders ties by namespace then function", () => {
  const { hits } = searchTools(entries, "list");
  assert.deepEqual(fns(hits), ["chrome_devtools.list_pages"]);
  const ties = searchTools(entries, "e", { limit: 100 }).hits;
  assert.ok(ties.length > 3);
  for (let i = 1; i < ties.length; i++) {
    const [a, b] = [ties[i - 1], ties[i]];
    const key = (h: typeof a) => `${h.entry.namespace}\u0000${h.entry.fn}`;
    assert.ok(a.score > b.score || (a.score === b.score && key(a) < key(b)), `${key(a)} ${key(b)}`);
  }
});

Deno.test("searchTools() with no words lists every tool up to the limit", async (t) => {
  await t.step("sorted by namespace then function", () => {
    const { mode, hits } = searchTools(entries, "");
    assert.equal(mode, "all");
    assert.equal(hits.length, entries.length);
    assert.deepEqual(fns(hits).slice(0, 2), ["chrome_devtools.click", "chrome_devtools.fill_form"]);
  });
  await t.step("capped by limit", () => {
    assert.equal(searchTools(entries, [], { limit: 3 }).hits.length, 3);
  });
  await t.step("default limit is 20", () => {
    const many = Array.from({ length: 30 }, (_, i) => toolEntry("ns", `tool_${i}`));
    assert.equal(searchTools(many, []).hits.length, 20);
  });
  await t.step("negative limit is refused", () => {
    assert.throws(() => searchTools(entries, [], { limit: -1 }), RangeError);
  });
});

Deno.test("searchTools() folds case and diacritics the same on both sides", async (t) => {
  const tools = [
    toolEntry("greet", "say", "Say héllo to someone"),
    toolEntry("greet", "café_menu", "The menu", { tool: "Café-Menu" }),
    toolEntry("greet", "plain", "Say hello plainly", { tags: ["Grüße"] }),
  ];
  const cases: [string, string[]][] = [
    ["hello", ["greet.plain", "greet.say"]],
    ["HÉLLO", ["greet.plain", "greet.say"]],
    ["he\u0301llo", ["greet.plain", "greet.say"]],
    ["cafe", ["greet.café_menu"]],
    ["CAFÉ_MENU", ["greet.café_menu"]],
    ["grüße", ["greet.plain"]],
  ];
  for (const [query, want] of cases) {
    await t.step(query, () => {
      assert.deepEqual(fns(searchTools(tools, query).hits).sort(), want);
    });
  }
});

Deno.test("searchTools() ranks alike with the index's search words and without them", () => {
  const indexed = entries.map((e) => ({
    ...e,
    terms: toolTerms({ name: e.tool, description: e.description }),
  }));
  const queries = ["screenshots", "take page", "grep", "files piped", "demo", "chrome", "héllo"];
  for (const query of queries) {
    const a = searchTools(entries, query, { explain: true });
    const b = searchTools(indexed, query, { explain: true });
    assert.equal(b.mode, a.mode, query);
    assert.deepEqual(
      b.hits.map((h) => [fns([h])[0], h.score, h.explain]),
      a.hits.map((h) => [fns([h])[0], h.score, h.explain]),
      query,
    );
  }
});

Deno.test("searchTools() matches on the index's words, not on words worked out again", () => {
  // Words a listing stored are what a search matches (they are dropped when another version wrote them).
  const stored = { ...entries[0], terms: { name: ["tap"], description: ["press"] } };
  assert.deepEqual(fns(searchTools([stored], "press").hits), ["chrome_devtools.click"]);
  assert.deepEqual(fns(searchTools([stored], "element").hits), []);
});
