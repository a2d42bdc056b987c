/**
 * A server entry's `auth` block end to end (issue 13, "Credentials";
 * config/auth.ts): each static kind reaches a real server that refuses
 * requests without it (tests/fixtures/servers/guarded.ts, the SDK's server
 * behind `Deno.serve`); two entries differing only in their credentials are
 * two pools, so one's refusal is not the other's; an unset variable is named
 * before any request; the secret never shows in `mcpx config`, `status`,
 * `ls`, the log or a state or cache file, and its reference does.
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

const TOKEN = "guard-token-0123456789";
const WRONG = "wrong-token-9876543210";
const b64 = (text: string) => new TextEncoder().encode(text).toBase64();
const SECRETS = [TOKEN, WRONG, b64(`guard:${TOKEN}`), b64(TOKEN)];

async function sha256(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

const leaks = (text: string) => SECRETS.filter((s) => text.includes(s));

Deno.test("auth blocks reach the server, make pools of their own, and never show their secret", async (t) => {
  const [deno, ...args] = fixtureArgv("guarded", ["--http", "0"]);
  const http = background(deno, args, { env: { ...Deno.env.toObject(), GUARD_TOKEN: TOKEN } });
  await using _http = http;
  await eventually(() => /"listening"/.test(http.output()) || http.exited(), 30_000);
  const port = JSON.parse(http.output().split("\n").find((l) => l.includes("listening"))!).port;
  const at = (path: string) => `http://127.0.0.1:${port}/${path}/mcp`;

  await using w = await world();
  w.env.API_TOKEN = TOKEN;
  w.env.WRONG_TOKEN = WRONG;
  w.env.GUARD_TOKEN = TOKEN;
  delete w.env.UNSET_TOKEN;
  await w.writeConfig({
    mcpServers: {
      bearer: { url: at("bearer"), auth: { type: "bearer", token: "${API_TOKEN}" } },
      basic: {
        url: at("basic"),
        auth: { type: "basic", username: "guard", password: "${API_TOKEN}" },
      },
      header: {
        url: at("header"),
        auth: { type: "header", name: "X-Api-Key", value: "${API_TOKEN}" },
      },
      query: { url: at("query"), auth: { type: "query", name: "key", value: "${API_TOKEN}" } },
      // The same URL as `bearer`, another token: a pool of its own.
      wrong: { url: at("bearer"), auth: { type: "bearer", token: "${WRONG_TOKEN}" } },
      unset: {
        url: `http://127.0.0.1:${port}/unset/mcp`,
        auth: { type: "bearer", token: "${UNSET_TOKEN}" },
      },
      child: {
        ...fixtureServer({ fixture: "guarded" }),
        auth: { type: "env", name: "API_KEY", value: "${API_TOKEN}" },
      },
    },
  });

  const ran: { args: string[]; result: RunResult }[] = [];
  const mcpx = async (...args: string[]) => {
    const result = await w.mcpx(args, { timeoutMs: 120_000 });
    ran.push({ args, result });
    return result;
  };

  await t.step("each static kind is sent as its server wants it", async () => {
    for (const server of ["bearer", "basic", "header", "query"]) {
      const call = await mcpx("call", `${server}.echo`, '{"text":"hello"}');
      assert.equal(call.code, 0, `${server}: ${call.stderr}`);
      assert.match(call.stdout, /hello/);
    }
  });

  await t.step("the env kind is in the stdio server's environment", async () => {
    const call = await mcpx("call", "child.digest", '{"name":"API_KEY"}');
    assert.equal(call.code, 0, call.stderr);
    assert.equal(call.stdout.trim(), await sha256(TOKEN));
  });

  await t.step("a server differing only in its auth block is a pool of its own", async () => {
    const wrong = await mcpx("call", "wrong.echo", '{"text":"x"}');
    assert.equal(wrong.code, 1);
    assert.match(wrong.stderr, /HTTP 401/);
    assert.match(wrong.stderr, /got Bearer \$\{WRONG_TOKEN\}/);
    assert.match(wrong.stderr, /check mcpServers\.wrong\.auth/);
    // Its refusal is not `bearer`'s: that one still answers, from its own process.
    const bearer = await mcpx("call", "bearer.echo", '{"text":"again"}');
    assert.equal(bearer.code, 0, bearer.stderr);
  });

  await t.step("an unset variable is named before any request", async () => {
    const call = await mcpx("call", "unset.echo", '{"text":"x"}');
    assert.equal(call.code, 1);
    assert.match(
      call.stderr,
      /\$\{UNSET_TOKEN\} is not set \(server "unset", at mcpServers\.unset\.auth\.token\); export UNSET_TOKEN/,
    );
    assert.doesNotMatch(http.output(), /"path":"\/unset\/mcp"/, "no request was sent");
  });

  await t.step("config, status, ls and the log show references, never the value", async () => {
    const status = await mcpx("status", "--json");
    assert.ok(status.stdout.includes("started with API_KEY=${API_TOKEN}"), status.stdout);
    await mcpx("status");
    await mcpx("config");
    await mcpx("config", "--json");
    const ls = await mcpx("ls", "--json");
    assert.ok(ls.stdout.includes("${UNSET_TOKEN}"), ls.stdout);
    const log = await mcpx("log", "--json", "--since", "1h");
    assert.ok(log.stdout.includes("${WRONG_TOKEN}"), log.stdout.slice(0, 2000));
    await mcpx("log", "--since", "1h");
    // A project file not trusted yet shows what it would send, as references.
    const untrusted = await w.mcpx(["ls", "--json"], {
      env: { MCPX_SECURITY_TRUST_PROJECT_CONFIGS: "ask" },
    });
    ran.push({ args: ["ls", "--json", "(untrusted)"], result: untrusted });
    assert.ok(
      untrusted.stdout.includes("auth bearer token='${API_TOKEN}'") ||
        untrusted.stdout.includes("auth bearer token=${API_TOKEN}"),
      untrusted.stdout.split("\n").filter((l) => l.includes("runs")).join("\n"),
    );
    for (const { args, result } of ran) {
      assert.deepEqual(leaks(result.stdout + result.stderr), [], `mcpx ${args.join(" ")}`);
    }
  });

  await t.step("no state or cache file holds a secret", async () => {
    await mcpx("stop");
    const files = [...filesUnder(`${w.dir}/.state`), ...filesUnder(`${w.dir}/.cache`)];
    assert.ok(files.length > 3);
    for (const file of files) assert.deepEqual(leaks(file.text), [], file.path);
  });
});
