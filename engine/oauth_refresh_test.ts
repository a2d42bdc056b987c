/**
 * A refresh token is spent at most once per access token, in one process
 * (engine/oauth_refresh.ts): requests that find it expired, and requests on
 * several connections answered 401, all end with the one replacement. The
 * authorization server rotates refresh tokens and revokes the grant on a
 * replay (tests/fixtures/servers/rotating_oauth.ts), so a second refresh
 * would fail every later request.
 */

import { deepEqual as assertEquals, ok as assert } from "node:assert/strict";
import { Client } from "@modelcontextprotocol/client";
import type { ServerSpec } from "../config/types.ts";
import { entryPath, readEntry, writeEntry } from "./oauth_store.ts";
import { currentAccessToken, refreshReplacing } from "./oauth_refresh.ts";
import type { OAuthTarget } from "./oauth_target.ts";
import { remoteTransport } from "./remote_transport.ts";
import {
  type RotatingOAuthServer,
  rotatingOAuthServer,
} from "../tests/fixtures/servers/rotating_oauth.ts";

const CALLS = 12;

function base64url(bytes: Uint8Array): string {
  return btoa(String.fromCharCode(...bytes)).replaceAll("+", "-").replaceAll("/", "_")
    .replace(/=+$/, "");
}

/** A token-store entry holding a grant of `as`, as `mcpx auth` leaves it; its target. */
async function authorized(as: RotatingOAuthServer, stateDir: string): Promise<OAuthTarget> {
  const verifier = base64url(crypto.getRandomValues(new Uint8Array(32)));
  const challenge = base64url(
    new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(verifier))),
  );
  const redirect = "http://127.0.0.1/callback";
  const authorize = new URL(`${as.issuer}/authorize`);
  for (
    const [k, v] of Object.entries({
      response_type: "code",
      client_id: "mcpx-test",
      redirect_uri: redirect,
      code_challenge: challenge,
      code_challenge_method: "S256",
      state: "s",
    })
  ) authorize.searchParams.set(k, v);
  const back = await fetch(authorize, { redirect: "manual" });
  const code = new URL(back.headers.get("location")!).searchParams.get("code")!;
  const tokens = await (await fetch(`${as.issuer}/token`, {
    method: "POST",
    body: new URLSearchParams({
      grant_type: "authorization_code",
      code,
      code_verifier: verifier,
      client_id: "mcpx-test",
      redirect_uri: redirect,
    }),
  })).json();
  const target: OAuthTarget = {
    stateDir,
    key: { configPath: `${stateDir}/.mcp.json`, server: "prot", url: as.url },
    command: "mcpx auth prot",
  };
  const savedAt = Date.now();
  await writeEntry(await entryPath(stateDir, target.key), {
    version: 1,
    ...target.key,
    clientInformation: { client_id: "mcpx-test", issuer: as.issuer },
    configuredClient: true,
    // As the SDK saves them: stamped with their issuer (SEP-2352).
    tokens: { ...tokens, issuer: as.issuer },
    savedAt,
    expiresAt: savedAt + tokens.expires_in * 1000,
  });
  return target;
}

Deno.test("requests that find the access token expired refresh it once, and a 60 s token is not refreshed as soon as issued", async () => {
  await using as = rotatingOAuthServer();
  const stateDir = await Deno.makeTempDir();
  try {
    const target = await authorized(as, stateDir);
    const path = await entryPath(stateDir, target.key);
    const entry = (await readEntry(path))!;
    await writeEntry(path, { ...entry, expiresAt: Date.now() - 1 });
    // What the server issues now lives a minute: within the 60 s margin for its whole life.
    as.lifetime = 60;
    const tokens = await Promise.all(
      Array.from({ length: CALLS }, () => currentAccessToken(target)),
    );
    assertEquals(as.refreshes, 1, "one refresh for every caller");
    assertEquals(new Set(tokens), new Set([as.current()!.accessToken]));
    const again = await Promise.all(
      Array.from({ length: CALLS }, () => currentAccessToken(target)),
    );
    assertEquals([as.refreshes, new Set(again).size], [1, 1], "the new token is used as is");
    // A caller replacing a token already replaced is given the replacement, refreshing nothing.
    const replaced = await refreshReplacing(target, entry.tokens!.access_token);
    assertEquals([replaced.access_token, as.refreshes], [as.current()!.accessToken, 1]);
    assertEquals(as.replays, 0);
  } finally {
    await Deno.remove(stateDir, { recursive: true });
  }
});

Deno.test("401s on two connections for a token the server ended refresh it once, and every request is retried with the new one", async () => {
  await using as = rotatingOAuthServer();
  const stateDir = await Deno.makeTempDir();
  const clients: Client[] = [];
  try {
    const target = await authorized(as, stateDir);
    const spec = { name: "prot", transport: "http", url: as.url, headers: {} } as ServerSpec;
    for (let i = 0; i < 2; i++) {
      const client = new Client({ name: "t", version: "1" });
      await client.connect(remoteTransport(spec, target));
      clients.push(client);
    }
    for (let round = 1; round <= 3; round++) {
      // Ended by the server, unknown to mcpx: every request is answered 401.
      as.expireNow();
      const before = as.refreshes;
      const results = await Promise.allSettled(
        Array.from(
          { length: CALLS },
          (_, i) =>
            clients[i % 2].callTool({ name: "echo", arguments: { text: `r${round}-${i}` } }),
        ),
      );
      const failed = results.filter((r) => r.status === "rejected");
      assertEquals(failed, [], `round ${round}`);
      assertEquals(as.refreshes - before, 1, `round ${round}: one refresh`);
    }
    assert(as.refused >= CALLS, "the requests were refused first");
    assertEquals(as.replays, 0);
  } finally {
    for (const client of clients) await client.close();
    await Deno.remove(stateDir, { recursive: true });
  }
});

Deno.test("refreshReplacing() takes an entry saved since it was read as the replacement, even when its token is the same string", async () => {
  await using as = rotatingOAuthServer();
  const stateDir = await Deno.makeTempDir();
  try {
    const target = await authorized(as, stateDir);
    const path = await entryPath(stateDir, target.key);
    const seen = (await readEntry(path))!;
    // Another process refreshed meanwhile, and the server issued the same string again (a JWT of
    // the same claims signed within one second): only the entry's savedAt tells them apart.
    await writeEntry(path, { ...seen, savedAt: seen.savedAt! + 1 });
    const tokens = await refreshReplacing(target, seen.tokens!.access_token, {
      savedAt: seen.savedAt!,
    });
    assertEquals([tokens.access_token, as.refreshes], [seen.tokens!.access_token, 0]);
  } finally {
    await Deno.remove(stateDir, { recursive: true });
  }
});
