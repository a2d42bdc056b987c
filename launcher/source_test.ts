import { deepEqual, equal, match, ok, rejects } from "node:assert/strict";
import { UsageError } from "../core/errors.ts";
import { resolveSource, resolveSources } from "./source.ts";
import { withTmpDir } from "./_tmp_dir.ts";

Deno.test("resolveSource() keeps a value that names nothing on disk as inline source", async () => {
  await using tmp = await withTmpDir();
  for (
    const value of ["log.info('x');", "a / b", "", "x\ny", "x".repeat(5000), "no/such/file.ts"]
  ) {
    deepEqual(await resolveSource(value, { cwd: tmp.path }), { text: value, origin: "inline" });
  }
});

Deno.test("resolveSource() reads a file named by a relative or absolute path", async () => {
  await using tmp = await withTmpDir();
  const file = await tmp.write("hooks/pre.ts", "globalThis.x = 1;\n");
  deepEqual(await resolveSource("hooks/pre.ts", { cwd: tmp.path }), {
    text: "globalThis.x = 1;\n",
    origin: file,
  });
  deepEqual(await resolveSource(file, { cwd: "/" }), { text: "globalThis.x = 1;\n", origin: file });
});

Deno.test("resolveSource() joins a directory's files in natural order, each under its name", async () => {
  await using tmp = await withTmpDir();
  await tmp.write("d/10-y.ts", "ten();");
  await tmp.write("d/9-x.ts", "nine();\n");
  await tmp.write("d/1-a.ts", "one();");
  await tmp.write("d/.hidden.swp", "junk");
  await tmp.write("d/sub/2-b.ts", "nested();");
  await Deno.symlink(`${tmp.path}/d/1-a.ts`, `${tmp.path}/d/20-link.ts`);
  const { text, origin } = await resolveSource("d", { cwd: tmp.path });
  equal(origin, `${tmp.path}/d`);
  equal(
    text,
    [
      `// ${tmp.path}/d/1-a.ts`,
      "one();",
      `// ${tmp.path}/d/9-x.ts`,
      "nine();",
      `// ${tmp.path}/d/10-y.ts`,
      "ten();",
      `// ${tmp.path}/d/20-link.ts`,
      "one();",
      "",
    ].join("\n"),
  );
});

Deno.test("resolveSource() reads @text: as source and @file: as a path, whatever the probe says", async () => {
  await using tmp = await withTmpDir();
  await tmp.write("hook.ts", "fromFile();");
  deepEqual(await resolveSource("@text:hook.ts", { cwd: tmp.path }), {
    text: "hook.ts",
    origin: "inline",
  });
  equal(
    (await resolveSource("@file:hook.ts", { cwd: tmp.path, probe: false })).text,
    "fromFile();",
  );
  deepEqual(await resolveSource("hook.ts", { cwd: tmp.path, probe: false }), {
    text: "hook.ts",
    origin: "inline",
  });
});

Deno.test("resolveSource() refuses a missing @file: path, naming the path and the fix", async () => {
  await using tmp = await withTmpDir();
  await rejects(
    resolveSource("@file:missing.ts", { cwd: tmp.path, label: "--prefix" }),
    (error: unknown) => {
      ok(error instanceof UsageError);
      match(
        error.message,
        /^--prefix: cannot read .*\/missing\.ts: it does not exist; fix the path/,
      );
      return true;
    },
  );
  await rejects(resolveSource("@file:", { cwd: tmp.path }), /needs a path/);
});

Deno.test("resolveSource() refuses what cannot be read: not UTF-8, not a file, a symlink loop", async () => {
  await using tmp = await withTmpDir();
  await tmp.write("bin.ts", new Uint8Array([0x66, 0xff, 0xfe, 0x00]));
  await rejects(resolveSource("bin.ts", { cwd: tmp.path }), /bin\.ts: it is not UTF-8 text/);
  await new Deno.Command("mkfifo", { args: [`${tmp.path}/pipe`] }).output();
  await rejects(
    resolveSource("pipe", { cwd: tmp.path }),
    /pipe: it is neither a file nor a directory/,
  );
  await Deno.symlink(`${tmp.path}/loop`, `${tmp.path}/loop`);
  await rejects(
    resolveSource("loop", { cwd: tmp.path }),
    /cannot tell whether .*\/loop is a file: .*@text:/,
  );
});

Deno.test({
  name: "resolveSource() refuses an unreadable file, naming the path and the reason",
  ignore: Deno.uid() === 0, // root reads everything
  async fn() {
    await using tmp = await withTmpDir();
    const file = await tmp.write("secret.ts", "x");
    await Deno.chmod(file, 0o000);
    await rejects(resolveSource("secret.ts", { cwd: tmp.path }), /secret\.ts: permission denied/);
  },
});

Deno.test("resolveSource() stops at an aborted signal", async () => {
  await rejects(
    resolveSource("x", { cwd: "/", signal: AbortSignal.abort(new Error("stop")) }),
    /stop/,
  );
});

Deno.test("resolveSources() reports every bad value in one pass, in order", async () => {
  await using tmp = await withTmpDir();
  await tmp.write("ok.ts", "fine();");
  const { sources, problems } = await resolveSources(
    ["@file:a.ts", "inline();", "ok.ts", "@file:b.ts"],
    { cwd: tmp.path, label: "--suffix" },
  );
  deepEqual(sources.map((s) => s.text), ["inline();", "fine();"]);
  equal(problems.length, 2);
  match(problems[0], /^--suffix: cannot read .*\/a\.ts/);
  match(problems[1], /^--suffix: cannot read .*\/b\.ts/);
});
