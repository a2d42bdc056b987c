import assert from "node:assert/strict";
import { referenceSecrets } from "./import_secrets.ts";

Deno.test("referenceSecrets() writes each literal secret as a ${VAR} and names the variable", () => {
  const r = referenceSecrets("github", {
    url: "https://api.test/mcp",
    headers: { Authorization: "Bearer ghp_abcdefghijklmnop123456", Accept: "application/json" },
  });
  assert.deepEqual(r.entry.headers, {
    Authorization: "Bearer ${GITHUB_AUTHORIZATION}",
    Accept: "application/json",
  });
  assert.deepEqual(r.variables, [
    { variable: "GITHUB_AUTHORIZATION", place: "headers Authorization" },
  ]);
  assert.doesNotMatch(JSON.stringify(r.entry), /ghp_/);

  const env = referenceSecrets("brave", {
    command: "npx",
    args: ["-y", "brave-server", "--api-key", "BSA-literal-key-123"],
    env: { BRAVE_API_KEY: "BSA-literal-key-123", DEBUG: "1" },
  });
  // One value in two places is one variable, the one the server's env names.
  assert.deepEqual(env.entry.env, { BRAVE_API_KEY: "${BRAVE_API_KEY}", DEBUG: "1" });
  assert.deepEqual(env.entry.args, ["-y", "brave-server", "--api-key", "${BRAVE_API_KEY}"]);
  assert.deepEqual(env.variables.map((v) => v.variable), ["BRAVE_API_KEY"]);

  // References and ordinary values stay; nothing to do leaves the entry as it was.
  const plain = { command: "npx", env: { TOKEN: "${TOKEN}", MODE: "fast" } };
  assert.equal(referenceSecrets("p", plain).entry, plain);
});
