/**
 * OAuth 2.1 end to end (issue 13; decision 0042): a local authorization
 * server from npm (`oauth2-mock-server`) in front of an SDK-built protected
 * MCP server (tests/fixtures/servers/oauth_protected.ts). A call first fails
 * naming `mcpx auth`; the test plays the browser for `mcpx auth --no-browser`
 * and completes it with `--code`/`--state`; then the call works. Two
 * processes racing a refresh spend the refresh token once.
 */

import {
  deepEqual as assertEquals,
  match as assertMatch,
  notEqual as assertNotEquals,
  ok as assert,
} from "node:assert/strict";
import { authorize } from "./_oauth_sign_in.ts";
import { OAuth2Server } from "oauth2-mock-server";
import { eventually, ROOT, world } from "./_helpers.ts";
import { protectedServer } from "./fixtures/servers/oauth_protected.ts";
import { entryPath, readEntry, writeEntry } from "../engine/oauth_store.ts";

/** The authorization server: refresh grants counted, a refresh token used twice refused. */
async function authorizationServer() {
  const server = new OAuth2Server();
  await server.issuer.keys.generate("RS256");
  await server.start(0, "127.0.0.1");
  const refreshes: string[] = [];
  /** The client secret each code exchange carried (in its body or its Basic header). */
  const exchangeSecrets: (string | undefined)[] = [];
  server.service.on("beforeResponse", (response: { statusCode: number; body: unknown }, req) => {
    const body = (req as unknown as { body: Record<string, string> }).body;
    if (body.grant_type === "authorization_code") {
      const basic = req.headers.authorization?.match(/^Basic (.+)$/)?.[1];
      exchangeSecrets.push(
        body.client_secret ?? (basic ? decodeURIComponent(atob(basic).split(":")[1]) : undefined),
      );
    }
    if (body.grant_type !== "refresh_token") return;
    if (refreshes.includes(body.refresh_token)) {
      response.statusCode = 400;
      response.body = { error: "invalid_grant", error_description: "refresh token already used" };
    }
    refreshes.push(body.refresh_token);
  });
  return {
    issuer: server.issuer.url!,
    refreshes,
    exchangeSecrets,
    async [Symbol.asyncDispose]() {
      await server.stop();
    },
  };
}

Deno.test("mcpx call names `mcpx auth`, and after it the call works", async () => {
  await using as = await authorizationServer();
  await using mcp = await protectedServer(as.issuer);
  await using w = await world();
  await w.writeConfig({ mcpServers: { prot: { url: mcp.url } } });

  const refused = await w.mcpx(["call", "prot.echo", '{"text":"hi"}']);
  assertEquals(refused.code, 1);
  assertMatch(refused.stderr, /server "prot" needs authorization .*run `mcpx auth prot`/);
  // Machines read the kind from the code, not the sentence: a call, and the listing of the namespace.
  const asJson = await w.mcpx(["--json", "call", "prot.echo", '{"text":"hi"}']);
  assertEquals(asJson.code, 1);
  assertEquals(JSON.parse(asJson.stdout || asJson.stderr).error.code, "auth-required");

  // A wrong state is refused, and nothing is stored.
  await w.json(["auth", "prot", "--no-browser", "--client-id", "mcpx-test"]);
  const wrong = await w.mcpx(["auth", "prot", "--code", "x", "--state", "not-it"]);
  assertEquals(wrong.code, 1);
  assertMatch(wrong.stderr, /state "not-it" is not the one/);

  await authorize(w, "prot", ["--client-id", "mcpx-test"]);
  const called = await w.mcpx(["call", "prot.echo", '{"text":"hi"}']);
  assertEquals(called.code, 0, called.stderr);
  assertMatch(called.stdout, /hi/);
  assertEquals(mcp.accepted.length > 0, true);

  // `auth ls` says it has tokens, never what they are; the store is private.
  const listed = await w.mcpx(["--json", "auth", "ls"]);
  const rows = JSON.parse(listed.stdout).servers;
  assertEquals(rows.map((r: { server: string; tokens: boolean }) => [r.server, r.tokens]), [
    ["prot", true],
  ]);
  assert(!listed.stdout.includes(mcp.accepted[0]));
  const path = await entryPath(`${w.dir}/.state/mcpx`, {
    configPath: `${w.dir}/.mcp.json`,
    server: "prot",
    url: mcp.url,
  });
  assertEquals((await Deno.stat(path)).mode! & 0o777, 0o600);

  // Logout forgets them: the next call names `mcpx auth` again.
  const out = await w.mcpx(["auth", "logout", "prot"]);
  assertEquals(out.code, 0, out.stderr);
  assertMatch(
    out.stdout,
    /forgot what mcpx held for "prot" .*: any tokens and its client registration/,
  );
  assertMatch((await w.mcpx(["call", "prot.echo", '{"text":"hi"}'])).stderr, /mcpx auth prot/);
});

Deno.test("two processes racing a refresh spend the refresh token once", async () => {
  await using as = await authorizationServer();
  await using mcp = await protectedServer(as.issuer);
  await using w = await world();
  await w.writeConfig({ mcpServers: { prot: { url: mcp.url } } });
  await authorize(w, "prot", ["--client-id", "mcpx-test"]);
  const stateDir = `${w.dir}/.state/mcpx`;
  const key = { configPath: `${w.dir}/.mcp.json`, server: "prot", url: mcp.url };
  const path = await entryPath(stateDir, key);
  const entry = (await readEntry(path))!;
  assert(entry.tokens?.refresh_token, "the authorization server gave a refresh token");
  // Expired: both processes want a refresh at once.
  await writeEntry(path, { ...entry, expiresAt: Date.now() - 1000 });
  const barrier = await Deno.makeTempDir({ dir: w.dir });
  const race = () =>
    new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "-A",
        `${ROOT}tests/fixtures/oauth_refresh.ts`,
        stateDir,
        key.configPath,
        key.server,
        key.url,
        barrier,
      ],
      env: w.env,
      stdout: "piped",
      stderr: "piped",
    }).output();
  const runs = Promise.all([race(), race()]);
  assert(await eventually(async () => (await Array.fromAsync(Deno.readDir(barrier))).length === 2));
  await Deno.writeTextFile(`${barrier}/go`, "");
  const [a, b] = await runs;
  const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
  assertEquals(a.code, 0, decode(a.stderr));
  assertEquals(b.code, 0, decode(b.stderr));
  assertEquals(as.refreshes.length, 1, "one refresh grant");
  const tokenA = decode(a.stdout).trim();
  assertEquals(tokenA, decode(b.stdout).trim());
  // Refreshed and saved again (the mock may sign the same claims within one second into the same
  // JWT, so the token's string need not change).
  assertNotEquals((await readEntry(path))!.savedAt, entry.savedAt);
  // The daemon uses the refreshed token.
  const called = await w.mcpx(["call", "prot.echo", '{"text":"after"}']);
  assertEquals(called.code, 0, called.stderr);
  assertEquals(mcp.accepted.at(-1), tokenA);
});

Deno.test("an auth block's clientId and metadataUrl are used; a metadataUrl that is no metadata is named", async () => {
  await using as = await authorizationServer();
  await using mcp = await protectedServer(as.issuer);
  await using w = await world();
  const entry = (metadataUrl: string) => ({
    url: mcp.url,
    auth: { type: "oauth", clientId: "mcpx-test", metadataUrl },
  });
  await w.writeConfig({
    mcpServers: {
      prot: entry(`${as.issuer}/.well-known/openid-configuration`),
      broken: entry(`${as.issuer}/no-such-document`),
    },
  });
  // A client ID metadata document's URL must be HTTPS with a path.
  const plain = await w.mcpx([
    "auth",
    "prot",
    "--no-browser",
    "--oauth-client-metadata-url",
    "http://x.test/c.json",
  ]);
  assertEquals(plain.code, 2);
  assertMatch(
    plain.stderr,
    /oauth\.clientMetadataUrl must be an https:\/\/ URL with a path .*"http:\/\/x\.test\/c\.json"/,
  );
  const refused = await w.mcpx(["auth", "broken", "--no-browser", "--json"]);
  assertEquals(refused.code, 1);
  assertMatch(
    refused.stderr,
    /metadata at .*no-such-document \(mcpServers\.broken\.auth\.metadataUrl\) answered HTTP 404/,
  );
  await authorize(w, "prot");
  const called = await w.mcpx(["call", "prot.echo", '{"text":"configured"}']);
  assertEquals(called.code, 0, called.stderr);
  assertMatch(called.stdout, /configured/);
});

Deno.test("mcpx auth opens $BROWSER, catches its redirect on loopback, refuses a forged state, and the call works", async () => {
  await using as = await authorizationServer();
  await using mcp = await protectedServer(as.issuer);
  await using w = await world();
  await w.writeConfig({ mcpServers: { prot: { url: mcp.url } } });
  const report = `${w.dir}/browser.jsonl`;
  const browser = `${Deno.execPath()} run -A ${ROOT}tests/fixtures/play_browser.ts ${report}`;
  const authorized = await w.mcpx(["auth", "prot", "--client-id", "mcpx-test"], {
    env: { BROWSER: browser },
    timeoutMs: 120_000,
  });
  assertEquals(authorized.code, 0, authorized.stderr);
  assertMatch(authorized.stdout, /authorized: server "prot"/);
  const seen = JSON.parse(await Deno.readTextFile(report));
  assertEquals(seen.forged, 400, "a state mcpx did not send is refused");
  assertMatch(seen.forgedText, /not the authorization mcpx started/);
  assertMatch(seen.landed, /^http:\/\/127\.0\.0\.1:\d+\/callback$/);
  assertEquals(seen.status, 200);
  assertMatch(seen.text, /authorized/);
  const called = await w.mcpx(["call", "prot.echo", '{"text":"via browser"}']);
  assertEquals(called.code, 0, called.stderr);
  assertMatch(called.stdout, /via browser/);
});

Deno.test("mcpx auth with no browser and nobody to come back ends naming --no-browser", async () => {
  await using as = await authorizationServer();
  await using mcp = await protectedServer(as.issuer);
  await using w = await world();
  await w.writeConfig({ mcpServers: { prot: { url: mcp.url } } });
  // No browser can be started, and stdin is no terminal: it fails at once.
  const none = await w.mcpx(["--json", "auth", "prot", "--client-id", "mcpx-test"], {
    env: { BROWSER: `${w.dir}/no-such-browser` },
    timeoutMs: 60_000,
  });
  assertEquals(none.code, 1);
  const error = JSON.parse(none.stdout || none.stderr).error;
  assertEquals(error.code, "auth-no-browser");
  assertMatch(error.message, /no-such-browser was not found/);
  assertMatch(error.message, /`mcpx auth prot --no-browser`/);
  // A browser started but nothing came back: the wait ends at its bound.
  const silent = await w.mcpx(["auth", "prot", "--client-id", "mcpx-test", "--timeout", "1s"], {
    env: { BROWSER: "true" },
    timeoutMs: 60_000,
  });
  assertEquals(silent.code, 1);
  assertMatch(silent.stderr, /no redirect came back within 1s; `mcpx auth prot --no-browser`/);
});

Deno.test("mcpx auth takes the client secret from MCPX_OAUTH_CLIENT_SECRET or stdin, off the command line", async () => {
  await using as = await authorizationServer();
  await using mcp = await protectedServer(as.issuer);
  await using w = await world();
  // The mock advertises public clients only; this copy of its metadata takes a client secret too.
  const metadata = await (await fetch(`${as.issuer}/.well-known/openid-configuration`)).json();
  metadata.token_endpoint_auth_methods_supported = ["client_secret_basic", "none"];
  await using copy = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    () => Response.json(metadata),
  );
  const metadataUrl = `http://127.0.0.1:${copy.addr.port}/metadata`;
  await w.writeConfig({
    mcpServers: { prot: { url: mcp.url, auth: { type: "oauth", metadataUrl } } },
  });
  await authorize(w, "prot", ["--client-id", "mcpx-test"], {
    env: { MCPX_OAUTH_CLIENT_SECRET: "from-the-environment" },
  });
  assertEquals(as.exchangeSecrets, ["from-the-environment"]);
  const called = await w.mcpx(["call", "prot.echo", '{"text":"with a secret"}']);
  assertEquals(called.code, 0, called.stderr);
  // `--client-secret -` reads stdin; an empty stdin is refused, naming both ways.
  const piped = await w.mcpx(
    ["--json", "auth", "prot", "--no-browser", "--client-id", "mcpx-test", "--client-secret", "-"],
    { stdin: "from-stdin\n" },
  );
  assertEquals(piped.code, 0, piped.stderr);
  const empty = await w.mcpx(
    ["auth", "prot", "--no-browser", "--client-id", "mcpx-test", "--client-secret", "-"],
    { stdin: "" },
  );
  assertEquals(empty.code, 2);
  assertMatch(
    empty.stderr,
    /reads the secret from stdin, which held none.*MCPX_OAUTH_CLIENT_SECRET/,
  );
});

Deno.test("mcpx auth on a URL where nothing answers, or that offers no OAuth, says so (never 'a bug in mcpx')", async () => {
  await using w = await world();
  const dead = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const deadPort = (dead.addr as Deno.NetAddr).port;
  dead.close();
  const nothing = await w.mcpx(["auth", `http://127.0.0.1:${deadPort}/mcp`, "--no-browser"]);
  assertEquals(nothing.code, 1, nothing.stderr);
  assertMatch(nothing.stderr, /nothing answered at http:\/\/127\.0\.0\.1:\d+\/mcp/);
  const plain = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    () => new Response("<html>not here</html>", { status: 501 }),
  );
  try {
    const refused = await w.mcpx([
      "auth",
      `http://127.0.0.1:${plain.addr.port}/mcp`,
      "--no-browser",
    ]);
    assertEquals(refused.code, 1, refused.stderr);
    assertMatch(refused.stderr, /could not start authorizing .*offers OAuth/);
    for (const r of [nothing, refused]) assert(!/bug in mcpx|html/.test(r.stderr), r.stderr);
  } finally {
    await plain.shutdown();
  }
});
