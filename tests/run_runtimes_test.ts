/**
 * The generated client under deno, bun and node (spec 000, "Runtime
 * portability"): a script run with `--runtime` reaches the daemon, gets its
 * result unwrapped, and keeps session isolation — a runtime that lost
 * MCPX_SESSION would quietly share one instance between sessions.
 */

import assert from "node:assert/strict";
import { fixtureServer, world } from "./_helpers.ts";
import { runtimeBinary } from "./_runtimes.ts";

const SCRIPT = `// Remembers its argument in a session-scoped server.
export default async function main(args: string[]) {
  const before = String(await stateful.remember({ text: args[0] }));
  const pid = Number(String(await stateful.whoami({})));
  return { before, pid, runtime: typeof Deno === "object" ? "deno" : typeof Bun === "object" ? "bun" : "node" };
}
`;

for (const runtime of ["deno", "bun", "node"] as const) {
  Deno.test(`a script under ${runtime} calls tools and keeps sessions apart`, async () => {
    const binary = runtime === "deno" ? Deno.execPath() : await runtimeBinary(runtime);
    assert.ok(binary, `no ${runtime} could be found or installed (tests/_runtimes.ts)`);
    await using w = await world();
    await w.writeConfig({
      mcpServers: {
        stateful: fixtureServer({ fixture: "stateful", mcpx: { scope: "session" } }),
      },
    });
    await Deno.writeTextFile(`${w.dir}/state.ts`, SCRIPT);
    const dir = binary.slice(0, binary.lastIndexOf("/"));
    const env = { PATH: `${dir}:${w.env.PATH}` };
    const run = async (session: string | null, word: string) => {
      const r = await w.mcpx(
        [
          "run",
          "--runtime",
          runtime,
          ...(session ? ["--session", session] : []),
          "./state.ts",
          word,
        ],
        { env },
      );
      assert.equal(r.code, 0, `${runtime}: ${r.stderr}`);
      return JSON.parse(r.stdout) as { before: string; pid: number; runtime: string };
    };
    const a1 = await run("a", "first");
    assert.equal(a1.runtime, runtime);
    assert.equal(a1.before, "");
    const a2 = await run("a", "second");
    assert.equal(a2.before, "first", "the same session reaches the same instance");
    assert.equal(a2.pid, a1.pid);
    const b = await run("b", "other");
    assert.equal(b.before, "", "another session has its own instance");
    assert.notEqual(b.pid, a1.pid);
    const alone = await run(null, "alone");
    assert.equal(alone.before, "", "a run without a session gets an instance of its own");
    assert.ok(![a1.pid, b.pid].includes(alone.pid));
  });
}
