/**
 * cli/auth/auth.ts in process: `ls` and `logout` answered from a temporary state
 * directory and a configuration with one remote server, and the text of
 * each document (no browser, no authorization server).
 */

import assert from "node:assert/strict";
import * as auth from "./auth.ts";
import { runHandler } from "../outcome_render.ts";
import { memoryIo } from "../../core/io.ts";
import type { CliContext } from "../context.ts";

const SERVER = {
  name: "docs",
  namespace: "docs",
  transport: "http",
  url: "https://docs.test/mcp",
  headers: {},
};

function authContext(stateDir: string) {
  const io = memoryIo("");
  const ctx = {
    cwd: "/",
    env: {},
    io,
    paths: () => ({ stateDir }),
    config: () => Promise.resolve({ path: "/p/.mcp.json", servers: [SERVER] }),
    json: () => Promise.resolve(false),
  };
  return { ctx: ctx as unknown as CliContext, io };
}

const view = (words: string[]) => ({ input: { words }, columns: 120, kind: "ok" as const });

Deno.test("auth handle() lists a remote server without tokens; its text is a table", async () => {
  const stateDir = await Deno.makeTempDir();
  try {
    const { ctx, io } = authContext(stateDir);
    const outcome = await auth.handle(ctx, { words: ["ls"] });
    assert.deepEqual(outcome.value, {
      servers: [{
        server: "docs",
        url: "https://docs.test/mcp",
        configPath: "/p/.mcp.json",
        tokens: false,
        refreshable: false,
        pending: false,
      }],
    });
    assert.equal(await runHandler(ctx, auth, { words: ["ls"] }, false), 0);
    assert.match(
      io.stdout,
      /^SERVER +URL +TOKENS +EXPIRES +REFRESH\ndocs +https:\/\/docs\.test\/mcp +no +no\n$/,
    );
  } finally {
    await Deno.remove(stateDir, { recursive: true });
  }
});

Deno.test("auth logout of a server mcpx holds nothing for says so", async () => {
  const stateDir = await Deno.makeTempDir();
  try {
    const { ctx, io } = authContext(stateDir);
    const input = { words: ["logout", "docs"] };
    const outcome = await auth.handle(ctx, input);
    assert.deepEqual(outcome.value, {
      server: "docs",
      url: "https://docs.test/mcp",
      removed: false,
    });
    assert.equal(await runHandler(ctx, auth, input, true), 0);
    assert.equal(io.stdout, JSON.stringify(outcome.value, null, 2) + "\n");
    assert.equal(
      auth.text(outcome.value, { ...view(input.words), extra: outcome.extra }),
      'mcpx held no tokens for "docs" (https://docs.test/mcp)\n',
    );
    assert.equal(
      auth.text({ ...outcome.value, removed: true }, {
        ...view(input.words),
        extra: outcome.extra,
      }),
      'forgot what mcpx held for "docs" (https://docs.test/mcp): any tokens and its client ' +
        "registration; `mcpx auth docs` authorizes it again\n",
    );
  } finally {
    await Deno.remove(stateDir, { recursive: true });
  }
});

Deno.test("auth text of an authorization: what to open, or what was authorized", () => {
  assert.equal(
    auth.text({
      server: "docs",
      url: "https://docs.test/mcp",
      authorizationUrl: "https://as.test/authorize?x=1",
      callbackUrl: "http://127.0.0.1:9/callback",
      state: "s1",
    }, { ...view(["docs"]), extra: { command: "mcpx auth docs" } }),
    "open this URL in a browser and authorize mcpx:\n  https://as.test/authorize?x=1\n" +
      "it sends the browser back to http://127.0.0.1:9/callback?code=…&state=…; then run:\n" +
      "  mcpx auth docs --code CODE --state s1\n",
  );
  assert.deepEqual(
    auth.text(
      { server: "docs", url: "https://docs.test/mcp", authorized: true, listError: "boom" },
      view(["docs"]),
    ),
    {
      out: 'authorized: server "docs" (https://docs.test/mcp)\n',
      err: "warning: listing it again failed: boom\n",
    },
  );
  assert.deepEqual(
    auth.text(
      { server: "docs", url: "https://docs.test/mcp", authorized: true, tools: 3 },
      view(["docs"]),
    ),
    { out: 'authorized: server "docs" (https://docs.test/mcp), 3 tools listed with it\n', err: "" },
  );
});
