import assert from "node:assert/strict";
import { parseConfig } from "./parse.ts";
import { authEnv, authHeaders, authUrl, oauthOf, type ServerAuth } from "./auth.ts";
import { ConfigError } from "../core/errors.ts";
import { configSecrets } from "./secrets.ts";
import { runsOf } from "./runs_of.ts";
import { runnableHashes } from "./runnable_hash.ts";

const FILE = "/p/.mcp.json";
const ENV = { API_TOKEN: "sk-live-0123456789", OTHER_TOKEN: "sk-live-9876543210" };

/** The parsed servers of `servers` (an `mcpServers` object). */
function parse(servers: Record<string, unknown>, env: Record<string, string> = ENV) {
  return parseConfig(JSON.stringify({ mcpServers: servers }), FILE, env);
}

/** The message of the ConfigError parsing `servers` throws. */
function problem(servers: Record<string, unknown>): string {
  try {
    parse(servers);
  } catch (error) {
    if (error instanceof ConfigError) return error.message;
    throw error;
  }
  throw new Error("expected a ConfigError");
}

const remote = (auth: unknown, extra: Record<string, unknown> = {}) => ({
  url: "https://api.test/mcp",
  auth,
  ...extra,
});

Deno.test("parseConfig() reads each kind of auth block, expanding ${VAR}", () => {
  const cases: [unknown, ServerAuth][] = [
    [{ type: "bearer", token: "${API_TOKEN}" }, { type: "bearer", token: ENV.API_TOKEN }],
    [
      { type: "basic", username: "me", password: "${API_TOKEN}" },
      { type: "basic", username: "me", password: ENV.API_TOKEN },
    ],
    [
      { type: "header", name: "X-Api-Key", value: "${API_TOKEN}" },
      { type: "header", name: "X-Api-Key", value: ENV.API_TOKEN },
    ],
    [
      { type: "query", name: "key", value: "${API_TOKEN}" },
      { type: "query", name: "key", value: ENV.API_TOKEN },
    ],
    [
      { type: "oauth", clientId: "mcpx", clientSecret: "${API_TOKEN}", scopes: ["read", "write"] },
      { type: "oauth", clientId: "mcpx", clientSecret: ENV.API_TOKEN, scopes: ["read", "write"] },
    ],
    [{ type: "oauth" }, { type: "oauth" }],
  ];
  for (const [written, expected] of cases) {
    const [spec] = parse({ api: remote(written) }).servers;
    assert.deepEqual(spec.auth, expected, JSON.stringify(written));
  }
});

Deno.test("parseConfig() reads an env block written as one variable or as a map", () => {
  const one = parse({
    s: { command: "x", auth: { type: "env", name: "API_KEY", value: "${API_TOKEN}" } },
  });
  assert.deepEqual(one.servers[0].auth, { type: "env", vars: { API_KEY: ENV.API_TOKEN } });
  const map = parse({
    s: {
      command: "x",
      auth: { type: "env", vars: { A_KEY: "${API_TOKEN}", B: "${OTHER_TOKEN}" } },
    },
  });
  assert.deepEqual(map.servers[0].auth, {
    type: "env",
    vars: { A_KEY: ENV.API_TOKEN, B: ENV.OTHER_TOKEN },
  });
  // Same variables either way: the same process.
  const same = parse({
    s: { command: "x", auth: { type: "env", vars: { API_KEY: "${API_TOKEN}" } } },
  });
  assert.equal(same.servers[0].poolId, one.servers[0].poolId);
  assert.deepEqual(one.warnings, [], "auth is not an ignored key any more");
});

Deno.test("parseConfig() names an unset variable of an auth block with the server, the field and the fix", () => {
  const { servers } = parse({ api: remote({ type: "bearer", token: "${MISSING_TOKEN}" }) }, {});
  assert.equal(servers[0].unavailable?.code, "unset-variable");
  assert.deepEqual(servers[0].unavailable?.variables, ["MISSING_TOKEN"]);
  assert.match(
    servers[0].unavailable!.message,
    /^\$\{MISSING_TOKEN\} is not set \(server "api", at mcpServers\.api\.auth\.token\); export MISSING_TOKEN/,
  );
  const env = parse({ s: { command: "x", auth: { type: "env", vars: { K: "${NOPE}" } } } }, {});
  assert.match(env.servers[0].unavailable!.message, /at mcpServers\.s\.auth\.vars\.K/);
});

Deno.test("parseConfig() refuses wrong auth blocks with the path, the value and the fix", () => {
  const cases: [Record<string, unknown>, RegExp][] = [
    [{ api: remote("Bearer x") }, /mcpServers\.api\.auth: must be an object with a "type"/],
    [
      { api: remote({ type: "baerer", token: "x" }) },
      /auth\.type: must be one of .*did you mean `bearer`/,
    ],
    [{ api: remote({ type: "bearer" }) }, /a "bearer" block needs "token"/],
    [
      { api: remote({ type: "bearer", token: "x", tokne: 1 }) },
      /auth\.tokne: is not a field of a "bearer" block/,
    ],
    [{ api: remote({ type: "bearer", token: "" }) }, /auth\.token: must be a non-empty string/],
    [
      { api: remote({ type: "header", name: "X Api", value: "v" }) },
      /auth\.name: must be an HTTP header name/,
    ],
    [
      { api: remote({ type: "basic", username: "a:b", password: "p" }) },
      /auth\.username: must not contain ":"/,
    ],
    [
      { api: remote({ type: "oauth", clientSecret: "s" }) },
      /auth\.clientSecret: is set without "clientId"/,
    ],
    [
      { api: remote({ type: "oauth", scopes: ["read write"] }) },
      /auth\.scopes\[0\]: must be an array of scope names/,
    ],
    [
      { api: remote({ type: "oauth", metadataUrl: "ftp://x" }) },
      /auth\.metadataUrl: must be an http/,
    ],
    [
      { s: { command: "x", auth: { type: "env" } } },
      /an "env" block needs "name" and "value", or "vars"/,
    ],
    [
      { s: { command: "x", auth: { type: "env", name: "A", value: "1", vars: { B: "2" } } } },
      /has both "name"\/"value" and "vars"/,
    ],
    [
      { s: { command: "x", auth: { type: "env", vars: { "A-B": "1" } } } },
      /auth\.vars\.A-B: must be a variable name/,
    ],
  ];
  for (const [servers, expected] of cases) assert.match(problem(servers), expected);
});

Deno.test("parseConfig() refuses an auth kind the transport cannot carry", () => {
  assert.match(
    problem({ s: { command: "x", auth: { type: "bearer", token: "${API_TOKEN}" } } }),
    /mcpServers\.s\.auth\.type: is "bearer", which is sent with HTTP requests, but this is a stdio server; .*"type": "env"/,
  );
  assert.match(
    problem({ s: { command: "x", auth: { type: "query", name: "k", value: "v" } } }),
    /is "query", which is sent with HTTP requests/,
  );
  assert.match(
    problem({ s: { command: "x", auth: { type: "oauth" } } }),
    /is "oauth", which is for remote servers/,
  );
  assert.match(
    problem({ api: remote({ type: "env", name: "K", value: "v" }) }),
    /is "env", which sets variables of a child process, but this is a remote \(http\) server/,
  );
});

Deno.test("parseConfig() refuses an auth block that overlaps another key; URL credentials lose with a warning", () => {
  assert.match(
    problem({
      api: remote({ type: "bearer", token: "t" }, { headers: { authorization: "Bearer u" } }),
    }),
    /auth: sets the Authorization header, and so does mcpServers\.api\.headers\.authorization/,
  );
  assert.match(
    problem({
      api: remote({ type: "header", name: "X-Api-Key", value: "t" }, {
        headers: { "x-api-key": "u" },
      }),
    }),
    /sets the X-Api-Key header, and so does mcpServers\.api\.headers\.x-api-key/,
  );
  assert.match(
    problem({
      api: { url: "https://api.test/mcp?key=1", auth: { type: "query", name: "key", value: "2" } },
    }),
    /sets the query parameter "key", and so does mcpServers\.api\.url/,
  );
  assert.match(
    problem({
      s: {
        command: "x",
        env: { API_KEY: "1" },
        auth: { type: "env", name: "API_KEY", value: "2" },
      },
    }),
    /sets the variable API_KEY, and so does mcpServers\.s\.env\.API_KEY/,
  );
  const both = parse({
    api: { url: "https://u:p@api.test/mcp", auth: { type: "bearer", token: "${API_TOKEN}" } },
  });
  assert.equal(both.servers[0].auth?.type, "bearer");
  assert.match(
    both.warnings.join("\n"),
    /mcpServers\.api\.url: its user information \(user:password@\) is not sent, because mcpServers\.api\.auth sets the Authorization header/,
  );
});

Deno.test("poolId() and listingId: two servers differing only in their auth block are two pools", () => {
  const { servers } = parse({
    a: remote({ type: "bearer", token: "${API_TOKEN}" }),
    b: remote({ type: "bearer", token: "${OTHER_TOKEN}" }),
    c: remote({ type: "header", name: "X-Api-Key", value: "${API_TOKEN}" }),
    plain: { url: "https://api.test/mcp" },
  });
  const ids = new Set(servers.map((s) => s.poolId));
  assert.equal(ids.size, 4, "each credential is a pool of its own");
  assert.equal(new Set(servers.map((s) => s.listingId)).size, 4);
  // An entry without a block keeps the identities it had before auth existed.
  const { servers: [before] } = parse({ plain: { url: "https://api.test/mcp" } });
  assert.equal(servers[3].poolId, before.poolId);
  // No id holds the secret.
  for (const s of servers) assert.doesNotMatch(s.poolId + s.listingId, /sk-live/);
});

Deno.test("an alias uses its target's auth block and may not set its own", () => {
  const { servers } = parse({
    api: remote({ type: "bearer", token: "${API_TOKEN}" }),
    peek: { aliasOf: "api" },
  });
  assert.deepEqual(servers[1].auth, servers[0].auth);
  assert.match(
    problem({
      api: remote({ type: "bearer", token: "t" }),
      peek: { aliasOf: "api", auth: { type: "bearer", token: "u" } },
    }),
    /mcpServers\.peek\.auth: is not allowed on an alias/,
  );
});

Deno.test("authHeaders(), authUrl() and authEnv() apply each kind", () => {
  assert.deepEqual(authHeaders({ type: "bearer", token: "t0" }), { Authorization: "Bearer t0" });
  assert.deepEqual(authHeaders({ type: "header", name: "X-Api-Key", value: "k" }), {
    "X-Api-Key": "k",
  });
  assert.deepEqual(authHeaders({ type: "query", name: "k", value: "v" }), {});
  assert.deepEqual(authHeaders(undefined), {});
  assert.equal(
    authUrl("https://x.test/mcp?key=old", { type: "query", name: "key", value: "new" }),
    "https://x.test/mcp?key=new",
  );
  assert.equal(authUrl("https://x.test/mcp", { type: "bearer", token: "t" }), "https://x.test/mcp");
  assert.deepEqual(authEnv({ type: "env", vars: { A: "1" } }), { A: "1" });
  assert.deepEqual(authEnv({ type: "bearer", token: "t" }), {});
  assert.equal(oauthOf({ auth: { type: "bearer", token: "t" } }), undefined);
});

Deno.test("configSecrets() takes an auth block's values, not its names; runsOf() shows references", async () => {
  const document = {
    mcpServers: {
      api: remote({ type: "header", name: "X-Api-Key", value: "${API_TOKEN}" }),
      lit: remote({ type: "basic", username: "someone", password: "literal-pass-1234" }),
      o: remote({ type: "oauth", clientId: "${API_TOKEN}", scopes: ["repository:read"] }),
    },
  };
  const secrets = configSecrets(document, ENV);
  const values = secrets.map((s) => s.value);
  assert.ok(values.includes(ENV.API_TOKEN));
  assert.ok(values.includes("literal-pass-1234"));
  assert.ok(values.includes("someone:literal-pass-1234"));
  assert.ok(!values.includes("X-Api-Key"), "a header name is not a secret");
  assert.ok(!values.includes("repository:read"), "a scope is not a secret");
  assert.equal(
    runsOf(document, "api"),
    "https://api.test/mcp (auth header name=X-Api-Key value='${API_TOKEN}')",
  );
  assert.equal(
    runsOf(document, "lit"),
    "https://api.test/mcp (auth basic username='${mcpServers.lit.auth.username}' password='${mcpServers.lit.auth.password}')",
  );
  // The trust hash covers the block: a changed credential source asks again.
  const [one, two] = await Promise.all([
    runnableHashes(document),
    runnableHashes({
      mcpServers: {
        ...document.mcpServers,
        api: remote({ type: "header", name: "X-Api-Key", value: "${OTHER}" }),
      },
    }),
  ]);
  assert.notEqual(one.api, two.api);
});
