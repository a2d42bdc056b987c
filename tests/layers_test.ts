/**
 * The layers of docs/decisions/0021-operation-spine.md hold: no module imports
 * one from a layer above its own, `cli/` and `daemon/` (the two surfaces) do
 * not import each other, and no modules of one folder import each other in a
 * cycle (a split that follows a concept leaves the shared piece in the module
 * that owns it, so both sides import it and it imports neither). File sizes
 * are dev/file_sizes.ts's rule. Nothing in `bench/` reaches `tests/` (issue 26):
 * what both need lives in `dev/`, so a bench cannot break when a test's helper
 * changes, and a test helper is never shaped by what a bench wants.
 *
 * Imports are read from the source text (static `import`/`export … from`,
 * side-effect `import "…"` and literal `import("…")`), so a lazy import counts
 * as much as a static one.
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
  // The script side (decision 0061): the client, the launcher and the listing of scripts
  // import none of each other; the runner, which starts a script, imports all three.
  ["client", "launcher", "scripts"],
  ["runner"],
  ["ops"],
  ["daemon", "cli"],
];

/** Imports allowed across the rule, each with its reason. */
const ALLOWED: Record<string, string> = {
  // `mcpx daemon` runs the daemon in the CLI's own process: the one place the
  // command line starts the other surface, loaded only by that command.
  "cli/daemon/daemon_cmd.ts -> daemon/main.ts": "mcpx daemon runs in the foreground",
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
      // client/package/ holds the generated generic client (client/generic_client.ts).
      if (
        entry.name !== "fixtures" && entry.name !== "results" && !entry.name.startsWith(".") &&
        path !== "client/package"
      ) {
        out.push(...sourceFiles(path));
      }
    } else if (entry.name.endsWith(".ts")) out.push(path);
  }
  return out;
}

/** A relative specifier in `… from "…"` (1), `import("…")` (2) or a side-effect `import "…"` (3). */
const IMPORT =
  /(?:import|export)[^'"]*?from\s*["'](\.[^"']+)["']|import\(\s*["'](\.[^"']+)["']|import\s*["'](\.[^"']+)["']/g;

/** A line of a comment: a docstring's example imports, which the module itself does not. */
const COMMENT_LINE = /^\s*(?:\*|\/\*|\/\/)/;

function importsOf(file: string): string[] {
  const text = Deno.readTextFileSync(join(ROOT, file)).split("\n")
    .filter((line) => !COMMENT_LINE.test(line)).join("\n");
  const out: string[] = [];
  for (const m of text.matchAll(IMPORT)) {
    const spec = m[1] ?? m[2] ?? m[3];
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

/**
 * Cycles within a folder allowed, each (its modules sorted, joined by spaces)
 * with its reason: none. A split that follows a concept creates none.
 */
const ALLOWED_CYCLES: Record<string, string> = {};

/**
 * The strongly connected components of more than one module (Tarjan), each
 * sorted: the modules that import each other, directly or round a loop.
 *
 * @param edges Module → the modules it imports.
 */
function cycles(edges: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string) => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of edges.get(v) ?? []) {
      if (!edges.has(w)) continue;
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      component.push(w);
    } while (w !== v);
    if (component.length > 1) found.push(component.sort());
  };
  for (const v of edges.keys()) if (!index.has(v)) visit(v);
  return found;
}

/** Each module's imports of modules in its own folder (not in a subfolder). */
function folderEdges(files: string[]): Map<string, string[]> {
  const folder = (f: string) => f.slice(0, f.lastIndexOf("/"));
  return new Map(files.map((f) => [f, importsOf(f).filter((t) => folder(t) === folder(f))]));
}

Deno.test("no modules of one folder import each other in a cycle", () => {
  const sources = [...layered, ...sourceFiles("bench"), ...sourceFiles("demo")]
    .filter((f) => !f.endsWith("_test.ts"));
  const found = cycles(folderEdges(sources)).map((c) => c.join(" "));
  assert.deepEqual(found.filter((c) => !ALLOWED_CYCLES[c]), []);
});

Deno.test("the cycle rule can fail: a loop of three modules is found, a chain is not", () => {
  const edges = new Map([
    ["a/x.ts", ["a/y.ts"]],
    ["a/y.ts", ["a/z.ts"]],
    ["a/z.ts", ["a/x.ts"]],
    ["a/w.ts", ["a/x.ts"]],
    ["b/p.ts", ["b/q.ts"]],
    ["b/q.ts", []],
  ]);
  assert.deepEqual(cycles(edges), [["a/x.ts", "a/y.ts", "a/z.ts"]]);
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

/**
 * The modules under `folder/` that `files` reach through relative imports,
 * directly or through the modules they import, each as `importer -> target`;
 * a module under `folder/` is reported and not followed further.
 *
 * @param files Paths relative to the checkout, where the walk starts.
 * @param folder A top-level folder, e.g. `tests`.
 */
function reachedUnder(files: string[], folder: string): string[] {
  const seen = new Set(files);
  const queue = [...files];
  const found: string[] = [];
  while (queue.length > 0) {
    const file = queue.shift()!;
    for (const target of importsOf(file)) {
      if (target.startsWith(`${folder}/`)) found.push(`${file} -> ${target}`);
      // A specifier in a string, not an import (ops/gen.ts writes one); type checks catch a real
      // import of a missing file.
      else if (!seen.has(target) && isFile(target)) {
        seen.add(target);
        queue.push(target);
      }
    }
  }
  return found;
}

Deno.test("no module in bench/ imports one in tests/, directly or through dev/ or any other", () => {
  assert.deepEqual(reachedUnder(sourceFiles("bench"), "tests"), []);
});

function isFile(path: string): boolean {
  try {
    return Deno.statSync(join(ROOT, path)).isFile;
  } catch {
    return false;
  }
}
