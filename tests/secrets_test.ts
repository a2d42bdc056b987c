/**
 * Secrets stay out of files and output (issue 9): servers that repeat the
 * credentials they were given — in stderr, in a tool description, in error
 * results, JSON-RPC errors, a failed start, a 401 body — and every command a
 * user or agent runs against them. No file under the state and cache
 * directories and no command's stdout or stderr holds a configured secret;
 * the reference it came from stands in its place (decision 0017).
 */
import assert from "node:assert/strict";
import {
  background,
  eventually,
  fixtureArgv,
  fixtureServer,
  type RunResult,
  world,
} from "./_helpers.ts";
import { filesUnder } from "./_files.ts";

/** Given as `${API_TOKEN}` to a stdio server's env, a remote's header and a flag. */
const TOKEN = "sk-test-0123456789-TOKEN";
/** Written literally in a stdio server's `env`. */
const LITERAL_ENV = "literal-env-secret-4242";
/** Written literally in a remote's `Authorization` header. */
const LITERAL_HEADER = "literal-header-secret-7777";
/** Written literally as a remote URL's `api_key`. */
const LITERAL_QUERY = "literal-query-secret-9999";
/** The password of a remote URL that also configures an `Authorization` header. */
const URL_PASSWORD = "url-password-5555";
/** The password of a remote URL with no `Authorization` header (sent as Basic). */
const BASIC_PASSWORD = "basic-password-6666";
/** Base64 of a text's UTF-8 bytes, as an HTTP Basic header carries `user:password`. */
const b64 = (text: string) => new TextEncoder().encode(text).toBase64();
const SECRETS = [
  TOKEN,
  LITERAL_ENV,
  LITERAL_HEADER,
  LITERAL_QUERY,
  URL_PASSWORD,
  BASIC_PASSWORD,
  b64(`user:${URL_PASSWORD}`),
  b64(`user:${BASIC_PASSWORD}`),
  b64(TOKEN),
];

function leaks(text: string): string[] {
  return SECRETS.filter((s) => text.includes(s));
}

Deno.test("no configured secret reaches a state or cache file or any command's output; its reference does", async (t) => {
  const [deno, ...args] = fixtureArgv("echo_secret", ["--http", "0"]);
  const http = background(deno, args, { env: Deno.env.toObject() });
  await using _http = http;
  await eventually(() => /"listening"/.test(http.output()) || http.exited(), 30_000);
  const port = JSON.parse(http.output().split("\n").find((l) => l.includes("listening"))!).port;

  await using w = await world();
  w.env.API_TOKEN = TOKEN;
  const echo = (env: Record<string, string>, extraArgs: string[] = []) =>
    fixtureServer({ fixture: "echo_secret", env, extraArgs });
  await w.writeConfig({
    mcpServers: {
      echo: echo({ SERVICE_TOKEN: "${API_TOKEN}" }, ["--token=${API_TOKEN}"]),
      broken: echo({ SERVICE_TOKEN: "${API_TOKEN}", ECHO_FAIL_START: "1" }),
      lit: echo({ SERVICE_TOKEN: LITERAL_ENV, ECHO_FAIL_START: "1" }),
      remote: {
        url: `http://127.0.0.1:${port}/mcp`,
        headers: { Authorization: "Bearer ${API_TOKEN}" },
      },
      denied: {
        url: `http://127.0.0.1:${port}/deny/mcp?api_key=${LITERAL_QUERY}`,
        headers: { Authorization: `Bearer ${LITERAL_HEADER}` },
      },
      // URL credentials: the configured header wins; without one they are sent as Basic.
      both: {
        url: `http://user:${URL_PASSWORD}@127.0.0.1:${port}/deny/mcp`,
        headers: { Authorization: "Bearer ${API_TOKEN}" },
      },
      basic: { url: `http://user:${BASIC_PASSWORD}@127.0.0.1:${port}/deny/mcp` },
      // A server that echoes the token base64-encoded.
      encoded: echo({ SERVICE_TOKEN: "${API_TOKEN}", ECHO_ENCODING: "base64" }),
    },
  });
  await Deno.writeTextFile(
    `${w.dir}/leak.ts`,
    [
      `try { await echo.whoami({}); } catch (e) { log.warn("whoami said {m}", { m: String(e) }); }`,
      `log.info("the token is {t}", { t: Deno.env.get("API_TOKEN") });`,
      `console.error("console says", Deno.env.get("API_TOKEN"));`,
      `await remote.explode({});`,
    ].join("\n"),
  );

  const ran: { args: string[]; result: RunResult }[] = [];
  const mcpx = async (...args: string[]) => {
    const result = await w.mcpx(args, { timeoutMs: 120_000 });
    ran.push({ args, result });
    return result;
  };
  const stateFiles = () => [
    ...filesUnder(`${w.dir}/.state`),
    ...filesUnder(`${w.dir}/.cache`),
  ];
  const assertNoFileLeaks = (when: string) => {
    const files = stateFiles();
    assert.ok(files.length > 5, `${when}: the state and cache directories hold files`);
    for (const file of files) {
      assert.deepEqual(leaks(file.text), [], `${when}: ${file.path} holds a secret`);
    }
  };

  await t.step("ls names each failure with the reference of the secret it echoed", async () => {
    await mcpx("ls");
    const ls = JSON.parse((await mcpx("ls", "--json")).stdout);
    const error = (ns: string) =>
      ls.namespaces.find((n: { namespace: string }) => n.namespace === ns)?.error ?? "";
    assert.match(error("broken"), /unauthorized: token \$\{API_TOKEN\} rejected/);
    assert.match(error("lit"), /token \$\{mcpServers\.lit\.env\.SERVICE_TOKEN\} rejected/);
    assert.match(error("denied"), /HTTP 401/);
    assert.ok(error("denied").includes("got ${mcpServers.denied.headers.Authorization}"));
    assert.ok(error("denied").includes("api_key=${mcpServers.denied.url.query.api_key}"));
    // The server saw the configured header alone, not fetch's Basic header from the URL.
    assert.match(error("both"), /unauthorized: got Bearer \$\{API_TOKEN\};/);
    assert.match(error("basic"), /unauthorized: got Basic \$\{mcpServers\.basic\.url\.userinfo\};/);
  });

  await t.step("search and types show a description's echo as the reference", async () => {
    await mcpx("search", "whoami");
    const types = await mcpx("types", "echo.whoami");
    assert.match(types.stdout, /told it is \(\$\{API_TOKEN\}\)/);
  });

  await t.step("status shows stderr tails and failures with references", async () => {
    await mcpx("call", "echo.ok", "{}");
    await mcpx("status");
    const status = JSON.parse((await mcpx("status", "--json")).stdout);
    const text = JSON.stringify(status);
    assert.ok(text.includes("starting with token ${API_TOKEN}"), text);
  });

  await t.step("failing calls print the server's echo as the reference", async () => {
    const whoami = await mcpx("call", "echo.whoami", "{}");
    assert.equal(whoami.code, 1);
    assert.match(whoami.stderr, /unauthorized: got \$\{API_TOKEN\}/);
    const remote = await mcpx("call", "remote.whoami", "{}");
    assert.match(remote.stderr, /unauthorized: got Bearer \$\{API_TOKEN\}/);
    const explode = await mcpx("call", "--json", "remote.explode", "{}");
    assert.match(explode.stdout, /upstream refused Bearer \$\{API_TOKEN\}/);
    await mcpx("call", "echo.explode", "{}");
    await mcpx("call", "broken.ok", "{}");
    await mcpx("call", "--json", "lit.ok", "{}");
    await mcpx("call", "denied.ok", "{}");
    const both = await mcpx("call", "both.ok", "{}");
    assert.match(both.stderr, /got Bearer \$\{API_TOKEN\}/);
    assert.doesNotMatch(both.stderr, /Basic/);
    const basic = await mcpx("call", "basic.ok", "{}");
    assert.match(basic.stderr, /got Basic \$\{mcpServers\.basic\.url\.userinfo\}/);
    const encoded = await mcpx("call", "encoded.whoami", "{}");
    assert.match(encoded.stderr, /unauthorized: got \$\{API_TOKEN\}/);
  });

  await t.step("refresh, a script run, log and stats", async () => {
    await mcpx("refresh");
    const run = await mcpx("run", "./leak.ts");
    assert.match(run.stderr, /\$\{API_TOKEN\}/);
    await mcpx("--json", "run", "./leak.ts");
    const log = await mcpx("log", "--json", "--since", "1h");
    assert.match(log.stdout, /\$\{API_TOKEN\}/);
    await mcpx("log", "--since", "1h");
    await mcpx("stats", "errors");
  });

  await t.step("no file under the state and cache directories holds a secret", () => {
    assertNoFileLeaks("with the daemon running");
  });

  await t.step(
    "after the daemon stopped: status and ls from the cache, and every file",
    async () => {
      await mcpx("stop");
      await mcpx("status", "--json");
      await mcpx("ls", "--json");
      assertNoFileLeaks("after stop");
    },
  );

  await t.step("no command printed a secret", () => {
    for (const { args, result } of ran) {
      assert.deepEqual(
        leaks(result.stdout + result.stderr),
        [],
        `mcpx ${args.join(" ")}:\n${result.stdout}${result.stderr}`,
      );
    }
  });
});
