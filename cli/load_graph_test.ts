/**
 * A command loads what it uses (issue 24: a first `mcpx stop` downloaded
 * json-schema-to-typescript). Before it runs a module, Deno fetches the npm
 * packages of every import in its graph that it can read, literal dynamic
 * imports included and type-only imports excepted; `deno info --json` prints
 * that graph. The non-warm commands start at cli/main.ts, so its graph is
 * what every one of them pays for before its own module loads.
 */
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";

/** One module of `deno info --json`'s graph: its imports, resolved. */
interface InfoModule {
  specifier: string;
  dependencies?: { code?: { specifier?: string } }[];
}

/**
 * The npm packages (`npm:name@version`) Deno fetches before running `entry`:
 * the graph of its code imports, literal dynamic ones included.
 */
async function packagesBeforeRun(entry: string): Promise<string[]> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["info", "--json", fileURLToPath(new URL(entry, import.meta.url))],
    stderr: "null",
  }).output();
  assert.equal(out.code, 0, `deno info ${entry} failed`);
  const info = JSON.parse(new TextDecoder().decode(out.stdout)) as {
    roots: string[];
    modules: InfoModule[];
    redirects: Record<string, string>;
  };
  const modules = new Map(info.modules.map((m) => [m.specifier, m]));
  const seen = new Set(info.roots);
  const queue = [...info.roots];
  const packages = new Set<string>();
  while (queue.length) {
    const specifier = queue.pop()!;
    if (specifier.startsWith("npm:")) {
      packages.add(specifier);
      continue;
    }
    const module = modules.get(info.redirects[specifier] ?? specifier);
    for (const dependency of module?.dependencies ?? []) {
      const next = dependency.code?.specifier;
      if (next && !seen.has(next)) {
        seen.add(next);
        queue.push(next);
      }
    }
  }
  return [...packages].sort();
}

Deno.test("cli/main.ts reaches no command's packages before the command runs", async () => {
  const packages = await packagesBeforeRun("./main.ts");
  const heavy = packages.filter((p) =>
    /^npm:(json-schema-to-typescript|@modelcontextprotocol\/|zod|ajv|ink|react)@?/.test(p)
  );
  assert.deepEqual(heavy, [], `cli/main.ts fetches ${packages.join(", ")}`);
});

Deno.test("mcpx stop fetches no npm package: no type generator, no MCP SDK", async () => {
  assert.deepEqual(await packagesBeforeRun("./stop.ts"), []);
});

Deno.test("only mcpx tui reaches ink and React, and it does, so `deno task install` fetches them", async () => {
  const tui = await packagesBeforeRun("./tui/tui.ts");
  assert.ok(tui.some((p) => p.startsWith("npm:ink@")), tui.join(", "));
  assert.ok(tui.some((p) => p.startsWith("npm:react@")), tui.join(", "));
  const ls = await packagesBeforeRun("./discovery/ls.ts");
  assert.deepEqual(ls.filter((p) => /^npm:(ink|react)@/.test(p)), []);
});
