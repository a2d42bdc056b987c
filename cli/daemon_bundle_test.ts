import assert from "node:assert/strict";
import {
  buildBundle,
  bundledModules,
  bundleProblems,
  DAEMON_BUNDLE,
  readableBundle,
} from "./bundle.ts";
import { DAEMON_MODULE } from "./daemon_connect.ts";

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
  // The packages the daemon needs at start are loaded at its top, by computed specifiers.
  assert.match(
    shipped,
    /^const \{[^}]*\} = await import\(String\("@modelcontextprotocol\/client"\)\);$/m,
  );
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
