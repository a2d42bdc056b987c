import assert from "node:assert/strict";
import { compilePattern, compileToolFilter } from "./tool_filter.ts";

Deno.test("compilePattern() matches exact names, globs and regexps", () => {
  const cases: [string, string, boolean][] = [
    ["read_file", "read_file", true],
    ["read_file", "read_files", false],
    ["read.file", "read_file", false],
    ["delete_*", "delete_file", true],
    ["delete_*", "delete_", true],
    ["delete_*", "undelete_file", false],
    ["get_?", "get_a", true],
    ["get_?", "get_ab", false],
    ["*.list", "tools.list", true],
    ["*.list", "tools_list", false],
    ["/^browser_/", "browser_click", true],
    ["/click/", "browser_click", true],
    ["/CLICK/i", "browser_click", true],
    ["/CLICK/", "browser_click", false],
    ["/", "/", true],
  ];
  for (const [pattern, name, want] of cases) {
    assert.equal(compilePattern(pattern)(name), want, `${pattern} vs ${name}`);
  }
});

Deno.test("compilePattern() rejects an invalid regular expression", () => {
  assert.throws(() => compilePattern("/(/"), SyntaxError);
});

Deno.test("compilePattern() with the g flag matches on every call", () => {
  const m = compilePattern("/a/g");
  assert.equal(m("a"), true);
  assert.equal(m("a"), true);
});

Deno.test("compileToolFilter() combines include and exclude", async (t) => {
  const names = ["read_file", "write_file", "delete_file", "list_dir"];
  const cases: { name: string; include?: string[]; exclude: string[]; want: string[] }[] = [
    { name: "no lists shows everything", exclude: [], want: names },
    {
      name: "exclude glob hides",
      exclude: ["delete_*"],
      want: ["read_file", "write_file", "list_dir"],
    },
    {
      name: "include narrows",
      include: ["/_file$/"],
      exclude: [],
      want: ["read_file", "write_file", "delete_file"],
    },
    {
      name: "exclude wins over include",
      include: ["*_file"],
      exclude: ["write_file"],
      want: ["read_file", "delete_file"],
    },
    { name: "empty include hides everything", include: [], exclude: [], want: [] },
  ];
  for (const c of cases) {
    await t.step(c.name, () => {
      const visible = compileToolFilter({ include: c.include, exclude: c.exclude });
      assert.deepEqual(names.filter(visible), c.want);
    });
  }
});

Deno.test("compileToolFilter() matches a tool by its real name and by its identifier", async (t) => {
  const names = ["get-env", "get-sum", "echo", "list.items"];
  const cases: { name: string; include?: string[]; exclude: string[]; want: string[] }[] = [
    {
      name: "exclude by identifier",
      exclude: ["get_env"],
      want: ["get-sum", "echo", "list.items"],
    },
    { name: "exclude by real name", exclude: ["get-env"], want: ["get-sum", "echo", "list.items"] },
    {
      name: "include glob over identifiers",
      include: ["get_*"],
      exclude: [],
      want: ["get-env", "get-sum"],
    },
    {
      name: "include glob over real names",
      include: ["get-*"],
      exclude: [],
      want: ["get-env", "get-sum"],
    },
    { name: "regex over identifiers", include: ["/^list_/"], exclude: [], want: ["list.items"] },
  ];
  for (const c of cases) {
    await t.step(c.name, () => {
      assert.deepEqual(names.filter(compileToolFilter(c)), c.want);
    });
  }
});
