/**
 * `script.permissions` narrower than `all` means what it says (issue 9, "The
 * script sandbox means what it says"; decision 0016): every way a script used
 * to reach past its level — a static import, a computed dynamic import, a
 * JSON import (the schema cache), a text import, a symlink in its folder —
 * fails inside the sandbox under deno, node and bun, while the same script at
 * `all` reaches it (so each escape is real); the script still reaches the
 * daemon and starts in the working directory; bun and node refuse a level they
 * cannot enforce; no sandbox means a refusal, never a silent `all`.
 */

import assert from "node:assert/strict";
import { fixtureServer, type RunResult, type World, world } from "./_helpers.ts";
import { runtimeBinary } from "./_runtimes.ts";

const SECRETS = { ts: "SECRET-TS-41", json: "SECRET-JSON-42", text: "SECRET-TXT-43" };

interface Escape {
  file: string;
  args: string[];
  /** What the script prints when it got through. */
  secret: string;
}

/** The outside folder, the script folder with a symlink out of it, and one script per escape. */
async function escapes(w: World): Promise<Record<string, Escape>> {
  await Deno.mkdir(`${w.dir}/outside`);
  await Deno.mkdir(`${w.dir}/jobs`);
  await Deno.writeTextFile(
    `${w.dir}/outside/secret.ts`,
    `export const secret = "${SECRETS.ts}";\n`,
  );
  await Deno.writeTextFile(`${w.dir}/outside/secret.json`, JSON.stringify({ s: SECRETS.json }));
  await Deno.writeTextFile(`${w.dir}/outside/secret.txt`, SECRETS.text);
  await Deno.symlink("../outside", `${w.dir}/jobs/link`);
  const schemaCache = [...Deno.readDirSync(`${w.dir}/.cache/mcpx`)]
    .find((e) => e.isFile && /^schemas-[0-9a-f]+\.json$/.test(e.name))!.name;
  const scripts: Record<string, { source: string; args: string[]; secret: string }> = {
    "static import": {
      source: 'import { secret } from "../outside/secret.ts";\nexport default () => secret;\n',
      args: [],
      secret: SECRETS.ts,
    },
    // Deno 2.9 checks a computed path against --allow-read, but not where its symlinks lead.
    "computed dynamic import": {
      source: "export default async (args: string[]) => (await import(args[0])).secret;\n",
      args: [`${w.dir}/jobs/link/secret.ts`],
      secret: SECRETS.ts,
    },
    "computed dynamic import of a path outside": {
      source: "export default async (args: string[]) => (await import(args[0])).secret;\n",
      args: [`${w.dir}/outside/secret.ts`],
      secret: SECRETS.ts,
    },
    "JSON import": {
      source: 'import data from "../outside/secret.json" with { type: "json" };\n' +
        "export default () => data.s;\n",
      args: [],
      secret: SECRETS.json,
    },
    "text import": {
      source: 'import text from "../outside/secret.txt" with { type: "text" };\n' +
        "export default () => text;\n",
      args: [],
      secret: SECRETS.text,
    },
    "symlink out of the script's folder": {
      source: 'import { secret } from "./link/secret.ts";\nexport default () => secret;\n',
      args: [],
      secret: SECRETS.ts,
    },
    "the schema cache, imported as JSON": {
      source: `import cache from ${
        JSON.stringify(`${w.dir}/.cache/mcpx/${schemaCache}`)
      } with { type: "json" };\nexport default () => Object.keys(cache.servers).join(",") + "|" + cache.mcpxVersion;\n`,
      args: [],
      secret: "fx|",
    },
  };
  const out: Record<string, Escape> = {};
  let i = 0;
  for (const [name, s] of Object.entries(scripts)) {
    const file = `${w.dir}/jobs/escape${i++}.ts`;
    await Deno.writeTextFile(file, s.source);
    out[name] = { file, args: s.args, secret: s.secret };
  }
  return out;
}

function shows(r: RunResult, secret: string): boolean {
  return r.stdout.includes(secret) || r.stderr.includes(secret);
}

async function listed(w: World): Promise<void> {
  await w.writeConfig({ mcpServers: { fx: fixtureServer() } });
  const ls = await w.mcpx(["ls"]);
  assert.equal(ls.code, 0, ls.stderr);
}

Deno.test("script.permissions none: no import or symlink reaches past the script's folder (deno)", async (t) => {
  await using w = await world();
  await listed(w);
  const cases = await escapes(w);
  for (const [name, c] of Object.entries(cases)) {
    await t.step(name, async () => {
      const open = await w.mcpx(["run", c.file, ...c.args]);
      assert.equal(open.code, 0, `at all the ${name} works: ${open.stderr}`);
      assert.ok(open.stdout.includes(c.secret), open.stdout);
      const shut = await w.mcpx(["run", "--script-permissions", "none", c.file, ...c.args]);
      assert.notEqual(shut.code, 0, `${name} under none: ${shut.stdout}`);
      assert.ok(!shows(shut, c.secret), shut.stdout + shut.stderr);
      assert.match(shut.stderr, /Module not found|Requires read access/);
    });
  }
});

Deno.test("a sandboxed script reaches the daemon and its working directory as the level allows", async (t) => {
  await using w = await world();
  await listed(w);
  await Deno.mkdir(`${w.dir}/work`);
  await Deno.writeTextFile(`${w.dir}/work/here.txt`, "in the working directory");
  // The script's own folder is readable at every level: keep it apart from the working directory.
  await Deno.mkdir(`${w.dir}/probes`);
  await Deno.writeTextFile(
    `${w.dir}/probes/probe.ts`,
    `export default async (args: string[]) => {
  const out: Record<string, unknown> = { echo: String(await fx.echo({ text: "through" })) };
  const name = (e: unknown) => (e as Error).name;
  try { out.read = Deno.readTextFileSync("here.txt"); } catch (e) { out.read = name(e); }
  try { Deno.writeTextFileSync("new.txt", "w"); out.wrote = true; } catch (e) { out.wrote = name(e); }
  try {
    out.imported = (await import(args[0] + "/here.txt", { with: { type: "text" } })).default;
  } catch (e) { out.imported = name(e); }
  return out;
};
`,
  );
  const run = async (level: string) => {
    const r = await w.mcpx([
      "run",
      "--script-permissions",
      level,
      `${w.dir}/probes/probe.ts`,
      `${w.dir}/work`,
    ], {
      cwd: `${w.dir}/work`,
    });
    assert.equal(r.code, 0, `${level}: ${r.stderr}`);
    return JSON.parse(r.stdout) as Record<string, unknown>;
  };
  await t.step("none: the daemon yes, the working directory's files no", async () => {
    const out = await run("none");
    assert.equal(out.echo, "through");
    assert.equal(out.read, "NotCapable");
    assert.equal(out.imported, "TypeError", "the sandbox shows an empty working directory");
    assert.equal(out.wrote, "NotCapable");
  });
  await t.step("read: its files read-only", async () => {
    const out = await run("read");
    assert.equal(out.read, "in the working directory");
    assert.equal(out.imported, "in the working directory");
    assert.equal(out.wrote, "NotCapable");
    assert.equal(await Deno.stat(`${w.dir}/work/new.txt`).catch(() => null), null);
  });
  await t.step("read,write: written where it was started", async () => {
    const out = await run("read,write");
    assert.equal(out.wrote, true);
    assert.equal(await Deno.readTextFile(`${w.dir}/work/new.txt`), "w");
  });
});

Deno.test("a sandboxed script gets --timeout's SIGTERM itself and can clean up", async () => {
  await using w = await world();
  await listed(w);
  await Deno.writeTextFile(
    `${w.dir}/slow.ts`,
    `Deno.addSignalListener("SIGTERM", () => { console.log("cleaned up"); Deno.exit(7); });
console.log("waiting");
await new Promise((resolve) => setTimeout(resolve, 60_000));
`,
  );
  const r = await w.mcpx(["run", "--timeout", "3s", "--script-permissions", "none", "./slow.ts"]);
  assert.equal(r.code, 7, r.stderr);
  assert.match(r.stdout, /waiting\ncleaned up/);
});

Deno.test("node and bun refuse a level they cannot enforce, naming it, and enforce the rest", async (t) => {
  await using w = await world();
  await listed(w);
  const cases = await escapes(w);
  await Deno.writeTextFile(
    `${w.dir}/mark.ts`,
    `import { writeFileSync } from "node:fs";\nwriteFileSync(${
      JSON.stringify(`${w.dir}/ran`)
    }, "1");\n`,
  );
  const listener = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    () => new Response("reached"),
  );
  await Deno.writeTextFile(
    `${w.dir}/jobs/fetch.ts`,
    "export default async (args: string[]) => {\n" +
      '  try { return await (await fetch(args[0])).text(); } catch { return "unreachable"; }\n};\n',
  );
  const url = `http://127.0.0.1:${listener.addr.port}/`;
  try {
    for (const runtime of ["node", "bun"] as const) {
      const binary = await runtimeBinary(runtime);
      assert.ok(binary, `no ${runtime} could be found or installed (tests/_runtimes.ts)`);
      const env = { PATH: `${binary.slice(0, binary.lastIndexOf("/"))}:${w.env.PATH}` };
      const mcpx = (level: string, file: string, ...args: string[]) =>
        w.mcpx(["run", "--runtime", runtime, "--script-permissions", level, file, ...args], {
          env,
        });
      await t.step(
        `${runtime}: a level withholding env is refused before anything runs`,
        async () => {
          const r = await mcpx("read", `${w.dir}/mark.ts`);
          assert.equal(r.code, 2, r.stderr);
          assert.match(
            r.stderr,
            new RegExp(
              `script\\.permissions "read" cannot be enforced under --runtime ${runtime}: ${runtime} cannot withhold env \\(environment variables\\)`,
            ),
          );
          assert.match(
            r.stderr,
            /run the script under deno \(--runtime deno\), or set script\.permissions to all/,
          );
          assert.equal(await Deno.stat(`${w.dir}/ran`).catch(() => null), null, "nothing ran");
        },
      );
      const enforced = runtime === "node" ? "env,sys" : "env,sys,run,ffi";
      if (runtime === "bun") {
        await t.step("bun: a level withholding run or ffi is refused", async () => {
          const r = await mcpx("env,sys", `${w.dir}/mark.ts`);
          assert.equal(r.code, 2, r.stderr);
          assert.match(
            r.stderr,
            /bun cannot withhold run \(starting programs\), ffi \(native code\); grant them \(script\.permissions env,sys,run,ffi\)/,
          );
        });
      }
      for (const [name, c] of Object.entries(cases)) {
        if (name === "text import") continue; // neither node nor bun has text imports
        await t.step(`${runtime} at ${enforced}: ${name} fails`, async () => {
          const r = await mcpx(enforced, c.file, ...c.args);
          assert.notEqual(r.code, 0, r.stdout);
          assert.ok(!shows(r, c.secret), r.stdout + r.stderr);
        });
      }
      await t.step(`${runtime}: no network without net, the network with it`, async () => {
        const shut = await mcpx(enforced, `${w.dir}/jobs/fetch.ts`, url);
        assert.equal(shut.code, 0, shut.stderr);
        assert.equal(shut.stdout.trim(), "unreachable");
        const open = await mcpx(`${enforced},net,import`, `${w.dir}/jobs/fetch.ts`, url);
        assert.equal(open.code, 0, open.stderr);
        assert.equal(open.stdout.trim(), "reached");
      });
    }
  } finally {
    await listener.shutdown();
  }
});

Deno.test("a narrowed level without a sandbox is refused, and a sandbox that cannot start is named", async (t) => {
  await using w = await world();
  await listed(w);
  await Deno.writeTextFile(`${w.dir}/job.ts`, "export default () => 'ran';\n");
  await t.step("no bwrap on PATH: refused before anything runs", async () => {
    const empty = await Deno.makeTempDir({ dir: w.dir });
    const r = await w.mcpx(["run", "--script-permissions", "read", "./job.ts"], {
      env: { PATH: empty },
    });
    assert.equal(r.code, 2, r.stderr);
    assert.doesNotMatch(r.stdout, /ran/);
    assert.match(
      r.stderr,
      /script\.permissions "read" runs the script in an OS sandbox \(bubblewrap\)/,
    );
    assert.match(
      r.stderr,
      /no bwrap is on PATH; install it \(apt-get install bubblewrap, .*or set script\.permissions to all/,
    );
  });
  await t.step("bwrap that cannot make a sandbox: the run fails saying so", async () => {
    const bin = `${w.dir}/fakebin`;
    await Deno.mkdir(bin);
    await Deno.writeTextFile(
      `${bin}/bwrap`,
      "#!/bin/sh\necho 'bwrap: No permissions to creating new namespace' >&2\nexit 1\n",
    );
    await Deno.chmod(`${bin}/bwrap`, 0o755);
    const r = await w.mcpx(["run", "--script-permissions", "none", "./job.ts"], {
      env: { PATH: `${bin}:${w.env.PATH}` },
    });
    assert.equal(r.code, 1, r.stderr);
    assert.doesNotMatch(r.stdout, /ran/);
    assert.match(
      r.stderr,
      /the script's sandbox could not start \(.*fakebin\/bwrap: bwrap: No permissions to creating new namespace\)/,
    );
    assert.match(r.stderr, /or set script\.permissions to all/);
  });
  await t.step("all needs no sandbox", async () => {
    const r = await w.mcpx(["run", "./job.ts"], { env: { PATH: `${w.dir}/fakebin` } });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout.trim(), "ran");
  });
});
