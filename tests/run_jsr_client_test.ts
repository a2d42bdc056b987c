/**
 * `import … from "jsr:@mcpx/client"` in a script under `mcpx run` is the
 * run's own generated client, on deno (an import map), bun (a resolver
 * plugin) and node (a module hook), and offline: JSR is never asked (decision
 * 0061; runner/client_resolver.ts). The run's environment points every proxy
 * at a closed port, so a fetch of the package would fail the run.
 */

import assert from "node:assert/strict";
import { stdioServer, world } from "./_helpers.ts";
import { runtimeBinary } from "./_runtimes.ts";

const SCRIPT = `import { tools } from "jsr:@mcpx/client";
import client from "jsr:@mcpx/client";

export default async function main() {
  const echoed = String(await tools.everything.echo({ message: "through jsr" }));
  return {
    echoed,
    // The same module the launcher imported: one client, one set of globals.
    same: tools === (globalThis as { tools?: unknown }).tools && client === tools,
    runtime: typeof Deno === "object" ? "deno" : typeof Bun === "object" ? "bun" : "node",
  };
}
`;

/** Proxies no request can pass: a fetch of jsr.io fails at once instead of reaching it. */
const NO_NETWORK = {
  HTTP_PROXY: "http://127.0.0.1:9",
  HTTPS_PROXY: "http://127.0.0.1:9",
  http_proxy: "http://127.0.0.1:9",
  https_proxy: "http://127.0.0.1:9",
  NO_PROXY: "",
};

Deno.test("jsr:@mcpx/client is the run's generated client on deno, bun and node, offline", async (t) => {
  await using w = await world();
  await w.writeConfig({ mcpServers: { everything: stdioServer("everything") } });
  // The server is listed first, with the network as the suite has it (npx may need it).
  const listed = await w.mcpx(["ls", "--wait"]);
  assert.equal(listed.code, 0, listed.stderr);
  await Deno.writeTextFile(`${w.dir}/via_jsr.ts`, SCRIPT);
  for (const runtime of ["deno", "bun", "node"] as const) {
    await t.step(runtime, async () => {
      const binary = runtime === "deno" ? Deno.execPath() : await runtimeBinary(runtime);
      assert.ok(binary, `no ${runtime} could be found or installed (tests/_runtimes.ts)`);
      const dir = binary.slice(0, binary.lastIndexOf("/"));
      const r = await w.mcpx(["run", "--runtime", runtime, "./via_jsr.ts"], {
        env: { PATH: `${dir}:${w.env.PATH}`, ...NO_NETWORK },
      });
      assert.equal(r.code, 0, `${runtime}: ${r.stderr}`);
      assert.deepEqual(JSON.parse(r.stdout), { echoed: "Echo: through jsr", same: true, runtime });
    });
  }
});

Deno.test("without the resolver the import fails: the test above cannot pass by fetching", async () => {
  // Deno asked for jsr:@mcpx/client with no import map, behind the same dead proxies, fails.
  const dir = await Deno.makeTempDir({ prefix: "mcpx-jsr-" });
  try {
    await Deno.writeTextFile(`${dir}/s.ts`, 'import "jsr:@mcpx/client";\n');
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["run", "--no-check", "--no-config", `${dir}/s.ts`],
      env: { ...NO_NETWORK, DENO_DIR: `${dir}/deno_dir` },
      stdout: "null",
      stderr: "piped",
    }).output();
    assert.equal(out.success, false);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
