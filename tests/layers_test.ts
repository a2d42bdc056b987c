/**
 * The layers of docs/decisions/0021-operation-spine.md hold: no module imports
 * one from a layer above its own, `cli/` and `daemon/` (the two surfaces) do
 * not import each other. (File sizes: dev/file_sizes.ts.)
 *
 * Imports are read from the source text (static `import`/`export … from` and
 * literal `import("…")`), so a lazy import counts as much as a static one.
 */
import assert from "node:assert/strict";
import { join, relative } from "node:path";
import { ROOT } from "./_helpers.ts";

/** Layers from the bottom; a module may import its own layer or any below. */
const LAYERS: readonly string[][] = [
  ["core"],
  ["wire"],
  ["config"],
  ["apis"],
  ["discovery"],
  ["logs"],
  ["engine"],
  ["scripts"],
  ["ops"],
  ["daemon", "cli"],
];

/** Imports allowed across the rule, each with its reason. */
const ALLOWED: Record<string, string> = {
  // `mcpx daemon` runs the daemon in the CLI's own process: the one place the
  // command line starts the other surface, loaded only by that command.
  "cli/daemon_cmd.ts -> daemon/main.ts": "mcpx daemon runs in the foreground",
  // `--inline` (daemon.inline) runs the daemon's handler inside the command, for as long as it
  // runs (decision 0051); its types only, the module itself loaded by a computed specifier.
  "cli/context_daemon.ts -> daemon/inline.ts": "daemon.inline runs the daemon in the command",
};

function rank(dir: string): number {
  return LAYERS.findIndex((layer) => layer.includes(dir));
}

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of Deno.readDirSync(join(ROOT, dir))) {
    const path = join(dir, entry.name);
    if (entry.isDirectory) {
      if (entry.name !== "fixtures" && entry.name !== "results" && !entry.name.startsWith(".")) {
        out.push(...sourceFiles(path));
      }
    } else if (entry.name.endsWith(".ts")) out.push(path);
  }
  return out;
}

const IMPORT = /(?:import|export)[^'"]*?from\s*["'](\.[^"']+)["']|import\(\s*["'](\.[^"']+)["']/g;

function importsOf(file: string): string[] {
  const text = Deno.readTextFileSync(join(ROOT, file));
  const out: string[] = [];
  for (const m of text.matchAll(IMPORT)) {
    const spec = m[1] ?? m[2];
    out.push(relative(ROOT, join(ROOT, file, "..", spec)));
  }
  return out;
}

const layered = LAYERS.flat().flatMap((dir) => sourceFiles(dir));

Deno.test("no module imports a layer above its own, and the surfaces stay apart", () => {
  const wrong: string[] = [];
  for (const file of layered.filter((f) => !f.endsWith("_test.ts"))) {
    const own = rank(file.split("/")[0]);
    for (const target of importsOf(file)) {
      const dir = target.split("/")[0];
      const theirs = rank(dir);
      if (theirs < 0 || dir === file.split("/")[0]) continue;
      const edge = `${file} -> ${target}`;
      if ((theirs > own || (theirs === own && dir !== file.split("/")[0])) && !ALLOWED[edge]) {
        wrong.push(edge);
      }
    }
  }
  assert.deepEqual(wrong, []);
});

Deno.test("the layer rule can fail: an upward import is found", () => {
  // The rule's own check, on a made-up edge, so a broken matcher cannot pass silently.
  const file = "core/x.ts";
  const target = relative(ROOT, join(ROOT, file, "..", "../cli/main.ts"));
  assert.deepEqual(rank(target.split("/")[0]) > rank("core"), true);
  assert.deepEqual(
    [...`import { x } from "../cli/main.ts";`.matchAll(IMPORT)].map((m) => m[1]),
    ["../cli/main.ts"],
  );
});
