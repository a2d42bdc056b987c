/**
 * `mcpx scripts` through the real CLI, in a tree with scripts at two levels
 * and in the user's config directory.
 */

import { deepStrictEqual, equal, ok } from "node:assert/strict";
import { world } from "./_helpers.ts";

async function write(path: string, text: string): Promise<void> {
  await Deno.mkdir(path.slice(0, path.lastIndexOf("/")), { recursive: true });
  await Deno.writeTextFile(path, text);
}

Deno.test("mcpx scripts lists both levels nearest first and marks the farther copy shadowed", async () => {
  await using w = await world();
  const sub = `${w.dir}/repo/app`;
  const near = `${sub}/.mcpx/scripts`;
  const far = `${w.dir}/repo/.mcpx/scripts`;
  const user = `${w.dir}/.config/mcpx/scripts`;
  await write(`${near}/shot-flow.ts`, "// Screenshot the app\nexport default () => 1;\n");
  await write(`${near}/mcpx-client.ts`, "// generated client: not a script\n");
  await write(`${far}/shot-flow.ts`, "// Screenshot from the repo root\n");
  await write(`${far}/report.js`, "#!/usr/bin/env -S mcpx run\n/** Weekly report */\n");
  await write(`${far}/README.md`, "not a script\n");
  await write(`${user}/everywhere.ts`, "// Available in every directory\n");

  const doc = await w.json<{ dirs: string[]; scripts: Record<string, string>[] }>(["scripts"], {
    cwd: sub,
  });
  deepStrictEqual(doc.dirs.slice(0, 2), [near, far]);
  equal(doc.dirs.at(-1), user);
  deepStrictEqual(
    doc.scripts.filter((s) => s.path.startsWith(w.dir)),
    [
      {
        name: "everywhere",
        description: "Available in every directory",
        path: `${user}/everywhere.ts`,
      },
      { name: "report", description: "Weekly report", path: `${far}/report.js` },
      { name: "shot-flow", description: "Screenshot the app", path: `${near}/shot-flow.ts` },
      {
        name: "shot-flow",
        description: "Screenshot from the repo root",
        path: `${far}/shot-flow.ts`,
        shadowedBy: `${near}/shot-flow.ts`,
      },
    ],
  );

  const text = await w.mcpx(["scripts"], { cwd: sub });
  equal(text.code, 0, text.stderr);
  const lines = text.stdout.split("\n");
  ok(/^NAME\s+DESCRIPTION\s+PATH$/.test(lines[0]), text.stdout);
  ok(
    lines.some((l) => l.startsWith("shot-flow ") && l.endsWith(`${near}/shot-flow.ts`)),
    text.stdout,
  );
  ok(lines.some((l) => l.startsWith("shot-flow (shadowed)") && l.endsWith(`${far}/shot-flow.ts`)));

  // From the repo root only the farther copy is reachable, and it is not shadowed.
  const fromRoot = await w.json<{ scripts: Record<string, string>[] }>(["scripts"], {
    cwd: `${w.dir}/repo`,
  });
  deepStrictEqual(
    fromRoot.scripts.filter((s) => s.name === "shot-flow"),
    [{
      name: "shot-flow",
      description: "Screenshot from the repo root",
      path: `${far}/shot-flow.ts`,
    }],
  );
});

Deno.test("mcpx scripts follows paths.scripts, splicing the built-in places at an empty entry", async () => {
  await using w = await world();
  await write(`${w.dir}/mine/tool.ts`, "// Mine\n");
  await write(`${w.dir}/.mcpx/scripts/tool.ts`, "// Built in\n");
  const doc = await w.json<{ dirs: string[]; scripts: Record<string, string>[] }>(["scripts"], {
    env: { MCPX_PATHS_SCRIPTS: `${w.dir}/mine:` },
  });
  equal(doc.dirs[0], `${w.dir}/mine`);
  equal(doc.dirs[1], `${w.dir}/.mcpx/scripts`);
  deepStrictEqual(doc.scripts.filter((s) => s.name === "tool").map((s) => s.description), [
    "Mine",
    "Built in",
  ]);
});

Deno.test("mcpx scripts with nothing to list prints where to put scripts", async () => {
  await using w = await world();
  const result = await w.mcpx(["scripts"], { env: { MCPX_PATHS_SCRIPTS: `${w.dir}/none` } });
  equal(result.code, 0, result.stderr);
  ok(result.stdout.startsWith("No scripts found. Put one in "), result.stdout);
  equal(result.stdout.trim().split("\n").length, 1);
});
