import assert from "node:assert/strict";
import {
  buildBundle,
  bundledModules,
  bundleProblems,
  readableBundle,
  THIN_BUNDLE,
} from "../bundle.ts";

const ROOT = new URL("../../", import.meta.url);

Deno.test("cli/relay/thin.bundle.js is what `deno task gen` builds from the sources now", async () => {
  const written = await Deno.readTextFile(new URL(THIN_BUNDLE.path, ROOT));
  assert.ok(
    written === await buildBundle(ROOT, THIN_BUNDLE),
    "cli/relay/thin.bundle.js is stale: run `deno task gen`",
  );
});

Deno.test("the thin client's bundle holds only the small modules it needs, and no package", async () => {
  const shipped = await Deno.readTextFile(new URL(THIN_BUNDLE.path, ROOT));
  assert.deepEqual(bundleProblems(shipped, THIN_BUNDLE), []);
  assert.doesNotMatch(shipped, /import\(/, "it loads nothing more when it runs");
  const modules = [...bundledModules(await readableBundle(ROOT, THIN_BUNDLE)).keys()];
  assert.ok(modules.includes("cli/relay/thin.ts"), modules.join(", "));
  // Not the command line, the settings or the wire to the daemon: that is the front's.
  for (const heavy of ["cli/command_line.ts", "config/settings.ts", "wire/wire.ts"]) {
    assert.ok(!modules.includes(heavy), `${heavy} is in the thin client`);
  }
});

Deno.test("the launcher runs the thin client's bundle", async () => {
  const launcher = await Deno.readTextFile(new URL("cli/mcpx", ROOT));
  assert.match(launcher, /--no-config "\$root\/cli\/relay\/thin\.bundle\.js"/);
});
