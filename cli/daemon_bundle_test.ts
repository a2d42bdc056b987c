import assert from "node:assert/strict";
import {
  buildBundle,
  bundledModules,
  bundleProblems,
  DAEMON_BUNDLE,
  readableBundle,
} from "./bundle.ts";
import { DAEMON_MODULE, DAEMON_RUN_FLAGS } from "./daemon_connect.ts";

const ROOT = new URL("../", import.meta.url);

Deno.test("daemon/daemon.bundle.js is what `deno task gen` builds from the sources now", async () => {
  const written = await Deno.readTextFile(new URL(DAEMON_BUNDLE.path, ROOT));
  // Not assert.equal: a diff of two 240 KB texts helps no one.
  assert.ok(
    written === await buildBundle(ROOT, DAEMON_BUNDLE),
    "daemon/daemon.bundle.js is stale: run `deno task gen`",
  );
});

Deno.test("daemon/daemon.bundle.js imports nothing statically and no specifier literally", async () => {
  const shipped = await Deno.readTextFile(new URL(DAEMON_BUNDLE.path, ROOT));
  assert.deepEqual(bundleProblems(shipped, DAEMON_BUNDLE), []);
  // Its packages are inside (decision 0057): what it imports by specifier is `node:` modules
  // and the one package it keeps outside.
  const specifiers = new Set(
    [...shipped.matchAll(/import\(String\("([^"]+)"\)\)/g)].map((m) => m[1]),
  );
  assert.ok(specifiers.has("node:module"), "the require prelude");
  // …named by their pinned specifiers, so the daemon runs with --no-config.
  const { imports } = JSON.parse(await Deno.readTextFile(new URL("deno.json", ROOT)));
  const outside = DAEMON_BUNDLE.packagesOutside as readonly string[];
  assert.deepEqual(
    [...specifiers].filter((name) => !name.startsWith("node:")),
    outside.map((name) => imports[name]),
  );
  assert.ok(outside.every((name) => imports[name].startsWith("npm:")));
  const text = await readableBundle(ROOT, DAEMON_BUNDLE);
  assert.deepEqual(bundleProblems(text, DAEMON_BUNDLE), []);
  const modules = bundledModules(text);
  // The module comments the import.meta rule reads are there, so it cannot pass vacuously.
  assert.match(modules.get("core/root.ts") ?? "", /import\.meta\.url/);
  assert.match(modules.get("daemon/main.ts") ?? "", /import\.meta\.main/);
  // No CLI module: the daemon is the other surface (tests/layers_test.ts).
  assert.deepEqual([...modules.keys()].filter((path) => path.startsWith("cli/")), []);
});

Deno.test("cli/daemon_connect.ts starts the daemon bundle", () => {
  assert.equal(DAEMON_MODULE, DAEMON_BUNDLE.path);
});

Deno.test("daemon/daemon.bundle.js evaluates whole, its inlined CommonJS packages' require()s included", async () => {
  // An unknown option is refused by main() after every module of the bundle has run.
  const out = await new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "-A",
      "--no-config",
      new URL(DAEMON_BUNDLE.path, ROOT).pathname,
      "--no-such-option",
    ],
    stdout: "piped",
    stderr: "piped",
  }).output();
  const stderr = new TextDecoder().decode(out.stderr);
  assert.equal(out.code, 1, stderr);
  assert.match(stderr, /Unknown option '--no-such-option'/);
  assert.doesNotMatch(stderr, /Dynamic require/);
});

Deno.test("the daemon runs without deno.json, given its unstable features as flags", async () => {
  const { unstable } = JSON.parse(await Deno.readTextFile(new URL("deno.json", ROOT)));
  assert.ok(DAEMON_RUN_FLAGS.includes("--no-config"));
  assert.deepEqual(
    DAEMON_RUN_FLAGS.filter((flag) => flag.startsWith("--unstable-")),
    (unstable as string[]).map((feature) => `--unstable-${feature}`),
  );
});
