import assert from "node:assert/strict";
import { configRedactor, configSecrets, declarationSecrets } from "./secrets.ts";

const ENV = { API_TOKEN: "sk-live-123456", HOME: "/home/me", REGION: "eu-west-1", DEBUG: "1" };

Deno.test("configSecrets() names each variable's value by its variable and each literal by its place", () => {
  const secrets = configSecrets({
    mcpServers: {
      api: {
        url: "https://u:pa55word-x@api.test/mcp?key=lit-key-0001&region=${REGION}&page=2",
        headers: { Authorization: "Bearer ${API_TOKEN}", "X-Extra": "Token extra-token-77" },
        auth: { type: "bearer", token: "literal-auth-999" },
      },
      local: {
        command: "${HOME}/bin/server",
        args: ["--token=argtoken-1", "--api-key", "argkey-22", "--name", "plain-name-1"],
        env: {
          API_KEY: "env-literal-42",
          MODE: "production",
          FLAG: "${DEBUG}",
          PASSWORD: "hunter",
        },
        cwd: "${HOME}",
      },
    },
  }, ENV);
  const byValue = Object.fromEntries(secrets.map((s) => [s.value, s.reference]).reverse());
  assert.deepEqual(byValue, {
    "sk-live-123456": "${API_TOKEN}",
    "eu-west-1": "${REGION}",
    "Token extra-token-77": "${mcpServers.api.headers.X-Extra}",
    "extra-token-77": "${mcpServers.api.headers.X-Extra}",
    "literal-auth-999": "${mcpServers.api.auth.token}",
    "u:pa55word-x": "${mcpServers.api.url.userinfo}",
    "pa55word-x": "${mcpServers.api.url.password}",
    "lit-key-0001": "${mcpServers.api.url.query.key}",
    "argtoken-1": "${mcpServers.local.args[0]}",
    "argkey-22": "${mcpServers.local.args[2]}",
    "env-literal-42": "${mcpServers.local.env.API_KEY}",
    "hunter": "${mcpServers.local.env.PASSWORD}",
  });
});

Deno.test("configRedactor() shows a server's echo of its secrets as the references", () => {
  const r = configRedactor({
    document: {
      mcpServers: {
        api: { url: "https://api.test/mcp", headers: { Authorization: "Bearer ${API_TOKEN}" } },
        lit: { command: "x", env: { SERVICE_KEY: "k-9f8e7d6c5b" } },
      },
    },
  }, ENV);
  assert.equal(
    r.text("unauthorized: got Bearer sk-live-123456 (k-9f8e7d6c5b) in production at /home/me"),
    "unauthorized: got Bearer ${API_TOKEN} (${mcpServers.lit.env.SERVICE_KEY}) in production at /home/me",
  );
});

Deno.test("configSecrets() of a document without servers, or with odd entries, is empty", () => {
  assert.deepEqual(configSecrets({}, ENV), []);
  assert.deepEqual(configSecrets({ mcpServers: { a: 1, b: null, c: { env: [1] } } }, ENV), []);
});

Deno.test("configRedactor() shows a URL's credentials and a Basic header, as sent and as echoed, by their place", () => {
  const b64 = (text: string) => new TextEncoder().encode(text).toBase64();
  const r = configRedactor({
    document: {
      mcpServers: {
        remote: { url: "http://user:pa55word-xyz@h.test/mcp" },
        basic: {
          url: "http://h.test/mcp",
          headers: { Authorization: `Basic ${b64("me:b4sic-pw-99")}` },
        },
      },
    },
  }, ENV);
  assert.equal(
    r.text(`got Basic ${b64("user:pa55word-xyz")} for http://user:pa55word-xyz@h.test/mcp`),
    "got Basic ${mcpServers.remote.url.userinfo} for http://${mcpServers.remote.url.userinfo}@h.test/mcp",
  );
  assert.equal(r.text(`token ${b64("pa55word-xyz")}`), "token ${mcpServers.remote.url.password}");
  assert.equal(
    r.text("user me:b4sic-pw-99 refused; password b4sic-pw-99"),
    "user ${mcpServers.basic.headers.Authorization} refused; password ${mcpServers.basic.headers.Authorization}",
  );
});

Deno.test("an env auth block's variables are judged by their names, as env's are", () => {
  const secrets = configSecrets({
    mcpServers: {
      vars: {
        command: "srv",
        auth: { type: "env", vars: { LD_PRELOAD: "/tmp/evil.so", API_KEY: "sk-env-vars-1" } },
      },
      one: { command: "srv", auth: { type: "env", name: "MODE", value: "production" } },
    },
  }, {});
  const values = secrets.map((s) => s.value);
  // What a project's file injects stays visible where it is reviewed for trust.
  assert.ok(!values.includes("/tmp/evil.so"), JSON.stringify(secrets));
  assert.ok(!values.includes("production"), JSON.stringify(secrets));
  assert.ok(values.includes("sk-env-vars-1"), JSON.stringify(secrets));
});

Deno.test("declarationSecrets() finds a declared API's auth, headers and baseUrl secrets, variables as ${VAR}, literals by their place", () => {
  const item = {
    name: "pets",
    baseUrl: "https://pets.example/v1?api_key=literal-key-77",
    auth: { type: "header", name: "X-Api-Key", value: "${PET_KEY}" },
    headers: { "X-Extra": "Token plain-token-55" },
  };
  const secrets = declarationSecrets([{ kind: "apis", index: 2, item }], {
    PET_KEY: "sekrit123",
  });
  const by = Object.fromEntries(secrets.map((s) => [s.value, s.reference]));
  assert.equal(by["sekrit123"], "${PET_KEY}");
  assert.equal(by["plain-token-55"], "${apis[2].headers.X-Extra}");
  assert.equal(by["literal-key-77"], "${apis[2].url.query.api_key}");
});

Deno.test("configSecrets() makes a configured cookie's every pair and value a secret, so an echo of one is redacted", () => {
  const cookie = "sid=abc123def456; csrf=xyz789xyz789; theme=${THEME}";
  const r = configRedactor({
    document: { mcpServers: { s: { url: "https://s.test/mcp", headers: { Cookie: cookie } } } },
  }, { THEME: "dark" });
  for (
    const echoed of [
      `Cookie: ${cookie}`,
      "Set-Cookie: sid=abc123def456; Path=/; HttpOnly",
      "csrf mismatch: got xyz789xyz789",
      "no session abc123def456",
    ]
  ) {
    const out = r.text(echoed);
    assert.doesNotMatch(out, /abc123def456|xyz789xyz789/, `${echoed} -> ${out}`);
  }
  // A pair holding a variable is that variable's business, and its name stays readable.
  assert.equal(r.text("theme=light"), "theme=light");
});
