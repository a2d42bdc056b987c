import assert from "node:assert/strict";
import { fileURLToPath as fromFileUrl } from "node:url";

Deno.test("deno task demo exits 1 and names the failed steps when a step fails", async () => {
  const root = fromFileUrl(new URL("..", import.meta.url));
  const home = await Deno.makeTempDir({ prefix: "mcpx-demo-test-" });
  try {
    // No npx on PATH: every server fails to start, so the calls fail.
    const env: Record<string, string> = {
      ...Deno.env.toObject(),
      PATH: "/nonexistent",
      HOME: home,
    };
    for (const name of Object.keys(env)) if (name.startsWith("MCPX_")) delete env[name];
    env.DENO_DIR ??= `${Deno.env.get("XDG_CACHE_HOME") || `${Deno.env.get("HOME")}/.cache`}/deno`;
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", `${root}demo/run.ts`],
      env,
      clearEnv: true,
      stdout: "piped",
      stderr: "piped",
    }).output();
    const stderr = new TextDecoder().decode(out.stderr);
    assert.equal(out.code, 1, stderr);
    assert.match(stderr, /demo failed: \d+ step\(s\) did not exit 0/);
    assert.match(stderr, /mcpx call everything\.echo .* \(exit 1\)/);
  } finally {
    await Deno.remove(home, { recursive: true });
  }
});
