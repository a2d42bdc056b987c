import { deepStrictEqual, equal, ok, throws } from "node:assert/strict";
import { resolveScript, scriptDirs, scriptsIn } from "./resolve.ts";
import { McpxError, NotFoundError } from "../core/errors.ts";

/** A temporary tree of files (`path → content`), removed on dispose. */
async function tree(files: Record<string, string>) {
  const root = await Deno.realPath(await Deno.makeTempDir({ prefix: "mcpx-resolve-" }));
  for (const [path, content] of Object.entries(files)) {
    const full = `${root}/${path}`;
    await Deno.mkdir(full.slice(0, full.lastIndexOf("/")), { recursive: true });
    if (path.endsWith("/")) continue;
    await Deno.writeTextFile(full, content);
  }
  return {
    root,
    async [Symbol.asyncDispose]() {
      await Deno.remove(root, { recursive: true });
    },
  };
}

Deno.test("scriptDirs() walks cwd up to the root, then XDG_CONFIG_HOME, then ~/.config", () => {
  deepStrictEqual(scriptDirs({ cwd: "/a/b", env: { XDG_CONFIG_HOME: "/x" }, home: "/h" }), [
    "/a/b/.mcpx/scripts",
    "/a/.mcpx/scripts",
    "/.mcpx/scripts",
    "/x/mcpx/scripts",
    "/h/.config/mcpx/scripts",
  ]);
});

Deno.test("scriptDirs() drops repeats (XDG_CONFIG_HOME is ~/.config) and a relative XDG", () => {
  deepStrictEqual(scriptDirs({ cwd: "/", env: { XDG_CONFIG_HOME: "/h/.config" }, home: "/h" }), [
    "/.mcpx/scripts",
    "/h/.config/mcpx/scripts",
  ]);
  deepStrictEqual(scriptDirs({ cwd: "/", env: { XDG_CONFIG_HOME: "rel" } }), ["/.mcpx/scripts"]);
});

Deno.test("scriptDirs() with paths.scripts: replaces, or splices the built-ins at an empty entry", () => {
  const base = { cwd: "/p", env: {}, home: "/h" };
  const builtIn = ["/p/.mcpx/scripts", "/.mcpx/scripts", "/h/.config/mcpx/scripts"];
  const cases: [string, string[]][] = [
    ["", builtIn],
    ["/mine", ["/mine"]],
    ["/mine:", ["/mine", ...builtIn]],
    [":/last", [...builtIn, "/last"]],
    ["rel:~/s:/one.ts", ["/p/rel", "/h/s", "/one.ts"]],
    ["/a::/a", ["/a", ...builtIn]],
  ];
  for (const [setting, want] of cases) {
    deepStrictEqual(scriptDirs({ ...base, setting }), want, `setting "${setting}"`);
  }
});

Deno.test("resolveScript() takes the nearest place holding the name", async () => {
  await using t = await tree({
    "p/.mcpx/scripts/near.ts": "",
    "p/sub/.mcpx/scripts/near.ts": "",
    "p/.mcpx/scripts/parent-only.js": "",
  });
  const dirs = scriptDirs({ cwd: `${t.root}/p/sub`, env: {}, setting: "" });
  deepStrictEqual(resolveScript("near", { cwd: `${t.root}/p/sub`, dirs }), {
    path: `${t.root}/p/sub/.mcpx/scripts/near.ts`,
    name: "near",
  });
  equal(
    resolveScript("parent-only", { cwd: `${t.root}/p/sub`, dirs }).path,
    `${t.root}/p/.mcpx/scripts/parent-only.js`,
  );
});

Deno.test("resolveScript() looks in XDG_CONFIG_HOME before ~/.config", async () => {
  await using t = await tree({
    "xdg/mcpx/scripts/both.ts": "",
    "home/.config/mcpx/scripts/both.ts": "",
    "home/.config/mcpx/scripts/home-only.ts": "",
    "cwd/": "",
  });
  const cwd = `${t.root}/cwd`;
  const dirs = scriptDirs({
    cwd,
    env: { XDG_CONFIG_HOME: `${t.root}/xdg` },
    home: `${t.root}/home`,
  });
  equal(resolveScript("both", { cwd, dirs }).path, `${t.root}/xdg/mcpx/scripts/both.ts`);
  equal(
    resolveScript("home-only", { cwd, dirs }).path,
    `${t.root}/home/.config/mcpx/scripts/home-only.ts`,
  );
});

Deno.test("resolveScript() uses path-shaped input verbatim, from cwd", async () => {
  await using t = await tree({
    "w/local.ts": "",
    "w/tool/run.mjs": "",
    "w/.mcpx/scripts/local.ts": "",
  });
  const cwd = `${t.root}/w`;
  const dirs = [`${cwd}/.mcpx/scripts`];
  deepStrictEqual(resolveScript("./local.ts", { cwd, dirs }), {
    path: `${cwd}/local.ts`,
    name: "local",
  });
  deepStrictEqual(resolveScript("local.ts", { cwd, dirs }), {
    path: `${cwd}/local.ts`,
    name: "local",
  });
  equal(resolveScript(`${cwd}/tool/run.mjs`, { cwd: "/", dirs }).name, "run");
  throws(() => resolveScript("./gone.ts", { cwd, dirs }), NotFoundError);
  throws(
    () => resolveScript("./tool/", { cwd, dirs }),
    (e) => e instanceof McpxError && e.code === "not-a-file",
  );
});

Deno.test("resolveScript() follows links to the real path", async () => {
  await using t = await tree({ "real/x.ts": "", "dir/": "" });
  await Deno.symlink(`${t.root}/real/x.ts`, `${t.root}/dir/x.ts`);
  equal(resolveScript("x", { cwd: "/", dirs: [`${t.root}/dir`] }).path, `${t.root}/real/x.ts`);
});

Deno.test("resolveScript() refuses <name>.ts beside <name>.js, naming both", async () => {
  await using t = await tree({ "s/dup.ts": "", "s/dup.js": "" });
  const dirs = [`${t.root}/s`];
  let message = "";
  try {
    resolveScript("dup", { cwd: "/", dirs });
  } catch (error) {
    ok(error instanceof McpxError && error.code === "script-conflict");
    message = error.message;
  }
  ok(message.includes(`${t.root}/s/dup.ts`) && message.includes(`${t.root}/s/dup.js`), message);
  equal(
    resolveScript("dup", { cwd: "/", dirs, allowTsJsOverlap: true }).path,
    `${t.root}/s/dup.ts`,
  );
});

Deno.test("resolveScript() accepts a place that is the script file itself", async () => {
  await using t = await tree({ "odd/place/solo.ts": "" });
  const dirs = [`${t.root}/nowhere`, `${t.root}/odd/place/solo.ts`];
  equal(resolveScript("solo", { cwd: "/", dirs }).path, `${t.root}/odd/place/solo.ts`);
});

Deno.test("resolveScript() not found: lists every place and what was there, suggests near names", async () => {
  await using t = await tree({
    "a/shot-flow.ts": "",
    "b/report.ts/": "",
    "file.ts": "",
  });
  const dirs = [`${t.root}/a`, `${t.root}/b`, `${t.root}/missing`, `${t.root}/file.ts`];
  let error: unknown;
  try {
    resolveScript("report", { cwd: "/", dirs });
  } catch (e) {
    error = e;
  }
  ok(error instanceof NotFoundError);
  const lines = error.message.split("\n");
  equal(lines[0], 'no script named "report"; searched, nearest first:');
  deepStrictEqual(lines.slice(1, 5), [
    `  ${t.root}/a/report.{ts,js}  no such script`,
    `  ${t.root}/b/report.{ts,js}  report.ts is a directory`,
    `  ${t.root}/missing/report.{ts,js}  missing`,
    `  ${t.root}/file.ts  a file with another name`,
  ]);
  try {
    resolveScript("shot-flwo", { cwd: "/", dirs });
  } catch (e) {
    error = e;
  }
  ok(error instanceof NotFoundError);
  deepStrictEqual(error.suggestions, ["shot-flow"]);
  ok(error.message.includes("did you mean: shot-flow?"), error.message);
});

Deno.test("resolveScript() rejects an empty name", () => {
  throws(() => resolveScript("", { cwd: "/", dirs: [] }), TypeError);
});

Deno.test("scriptsIn() lists .ts and .js scripts, skipping mcpx's files and non-scripts", async () => {
  await using t = await tree({
    "s/a.ts": "",
    "s/a.js": "",
    "s/b.js": "",
    "s/mcpx-client.ts": "",
    "s/mcpx-globals.d.ts": "",
    "s/types.d.ts": "",
    "s/.hidden.ts": "",
    "s/notes.md": "",
    "s/data.json": "",
    "s/dir.ts/": "",
  });
  deepStrictEqual(scriptsIn(`${t.root}/s`).map((s) => s.path.slice(t.root.length + 3)), [
    "a.ts",
    "a.js",
    "b.js",
  ]);
  deepStrictEqual(scriptsIn(`${t.root}/none`), []);
  deepStrictEqual(scriptsIn(`${t.root}/s/b.js`), [{ name: "b", path: `${t.root}/s/b.js` }]);
});
