import { deepEqual, equal, match, throws } from "node:assert/strict";
import { UsageError } from "../core/errors.ts";
import {
  parsePlaceholderFile,
  placeholdersFromFiles,
  readPlaceholderFiles,
} from "./placeholder_file.ts";
import { withTmpDir } from "./_tmp_dir.ts";

Deno.test("parsePlaceholderFile() reads the three spellings of a declaration", () => {
  const table: Array<[string, string, string, string[] | undefined, string, string]> = [
    [
      "/p/x.ts",
      "// @mcpx:placeholder timed(body, label)\n{ @body }\n",
      "timed",
      ["body", "label"],
      "{ @body }\n",
      "comment",
    ],
    ["/p/x.ts", "//@mcpx:placeholder  bare \nrun();", "bare", undefined, "run();", "comment"],
    ["/p/x.ts", "// @mcpx:placeholder none()\nx", "none", [], "x", "comment"],
    [
      "/p/x.ts",
      'a();\nexport const MCPX_PLACEHOLDER = "wrap(inner)";\nb(@inner);\n',
      "wrap",
      ["inner"],
      "a();\nb(@inner);\n",
      "constant",
    ],
    ["/p/x.ts", "export const MCPX_PLACEHOLDER: string = 'k';\n", "k", undefined, "", "constant"],
    ["/p/timed.ts", "t();\n", "timed", undefined, "t();\n", "filename"],
    ["/p/log_start.fragment.js", "s();", "log_start", undefined, "s();", "filename"],
  ];
  for (const [path, text, name, params, body, by] of table) {
    const got = parsePlaceholderFile(path, text);
    deepEqual(
      { name: got.name, params: got.fill.params, body: got.fill.body, by: got.declaredBy },
      { name, params, body, by },
      text,
    );
  }
});

Deno.test("parsePlaceholderFile() refuses a declaration or file name that is not a name", () => {
  const table: Array<[string, string, RegExp]> = [
    ["/p/10-x.ts", "x", /its name "10-x" is not a placeholder name .*; rename the file/],
    [
      "/p/x.ts",
      "// @mcpx:placeholder 9lives\n",
      /declares "9lives", which is not a placeholder name/,
    ],
    ["/p/x.ts", "// @mcpx:placeholder f(a, a)\n", /names the parameter a twice/],
    ["/p/x.ts", "// @mcpx:placeholder f(a b)\n", /parameter "a b" is not a name/],
    ["/p/args.ts", "", /"args" is not a placeholder name/],
  ];
  for (const [path, text, message] of table) {
    throws(
      () => parsePlaceholderFile(path, text),
      (e: unknown) => e instanceof UsageError && message.test(e.message),
    );
  }
});

Deno.test("placeholdersFromFiles() refuses shadowing a built-in and two files claiming one name", () => {
  const { fills, problems } = placeholdersFromFiles(
    [
      { path: "/a/entry.ts", text: "x" },
      { path: "/a/timed.ts", text: "t1" },
      { path: "/b/other.ts", text: "// @mcpx:placeholder timed\nt2" },
      { path: "/b/ok.ts", text: "fine" },
      { path: "/b/1.ts", text: "" },
    ],
    ["entry", "prefix"],
  );
  deepEqual(fills, { ok: { body: "fine" } });
  equal(problems.length, 3);
  match(problems[0], /\/a\/entry\.ts declares @entry, which is built in/);
  match(problems[1], /"1" is not a placeholder name/);
  match(
    problems[2],
    /^@timed is declared by 2 files \(\/a\/timed\.ts, \/b\/other\.ts\); rename all but one$/,
  );
});

Deno.test("readPlaceholderFiles() reads files and directories in natural order, reporting missing paths", async () => {
  await using tmp = await withTmpDir();
  await tmp.write("ph/10-b.ts", "// @mcpx:placeholder b\n");
  await tmp.write("ph/9-a.ts", "// @mcpx:placeholder a\n");
  await tmp.write("ph/.swp", "");
  const single = await tmp.write("one.ts", "1");
  const { files, problems } = await readPlaceholderFiles(["ph", single, "nope"], { cwd: tmp.path });
  deepEqual(files.map((f) => f.path), [`${tmp.path}/ph/9-a.ts`, `${tmp.path}/ph/10-b.ts`, single]);
  deepEqual(problems, [
    `placeholder path ${tmp.path}/nope cannot be read: it does not exist; fix paths.placeholders`,
  ]);
});
