/**
 * OAuth refreshes once (issue 24; decision 0042, "Refresh: once per token"):
 * at an authorization server that rotates refresh tokens, revokes the grant
 * when one is replayed and ends the old access token at each rotation
 * (tests/fixtures/servers/rotating_oauth.ts), a warm daemon serving twelve
 * concurrent `mcpx call` processes after the access token expired refreshes
 * it exactly once, and every call succeeds; five rounds over, whether mcpx
 * knew of the expiry (the stored `expires_in` passed) or learnt it from the
 * server's 401.
 */

import { deepEqual as assertEquals, match as assertMatch } from "node:assert/strict";
import { eventually, world } from "./_helpers.ts";
import { rotatingOAuthServer } from "./fixtures/servers/rotating_oauth.ts";
import { authorize } from "./_oauth_sign_in.ts";

const CALLS = 12;
const ROUNDS = 5;

Deno.test("a warm daemon refreshes an expired token once for 12 concurrent calls, 5 rounds over", async () => {
  await using as = rotatingOAuthServer();
  await using w = await world();
  await w.writeConfig({ mcpServers: { prot: { url: as.url } } });
  await authorize(w, "prot", ["--client-id", "mcpx-test"]);

  /** `CALLS` concurrent `mcpx call` processes; how many succeeded, and the refreshes they caused. */
  const batch = async (label: string) => {
    const before = as.refreshes;
    const runs = await Promise.all(
      Array.from(
        { length: CALLS },
        (_, i) =>
          w.mcpx(["call", "prot.echo", JSON.stringify({ text: `${label}-${i}` })], {
            timeoutMs: 120_000,
          }),
      ),
    );
    const failed = runs.filter((r, i) => r.code !== 0 || !r.stdout.includes(`${label}-${i}`));
    return { ok: CALLS - failed.length, refreshes: as.refreshes - before, failed };
  };
  const warm = await w.mcpx(["call", "prot.echo", '{"text":"warm"}']);
  assertEquals(warm.code, 0, warm.stderr);

  const rows: string[] = [];
  for (let round = 1; round <= ROUNDS; round++) {
    // A token that lives 1 s, fetched by one call whose stored token the server ended
    // (unknown to mcpx, so its 401 does it); the round's own refresh brings a long one.
    as.lifetime = 1;
    as.expireNow();
    const one = await w.mcpx(["call", "prot.echo", '{"text":"short"}']);
    assertEquals(one.code, 0, one.stderr);
    // A minute, all of it within the 60 s refresh margin: still refreshed once, not by each call.
    as.lifetime = 60;
    const short = as.current()!;
    assertEquals(
      await eventually(() => Date.now() > short.expiresAt, 5_000),
      true,
      "the 1 s token expires",
    );
    // Expired as the store says: each caller sees it and wants a refresh.
    const known = await batch(`known${round}`);
    // Ended by the server, unknown to mcpx: each caller is answered 401.
    as.expireNow();
    const told = await batch(`told${round}`);
    rows.push(
      `| ${round} | ${known.refreshes} | ${known.ok}/${CALLS} | ${told.refreshes} | ${told.ok}/${CALLS} |`,
    );
    const why = [...known.failed, ...told.failed].map((r) => r.stderr).join("\n");
    assertEquals(
      [known.refreshes, known.ok, told.refreshes, told.ok],
      [1, CALLS, 1, CALLS],
      `round ${round}:\n${rows.join("\n")}\n${why}`,
    );
  }
  assertEquals(as.replays, 0, "no refresh token was spent twice");
  console.log(
    "| round | refreshes (expiry known) | ok | refreshes (told by 401) | ok |\n" +
      "|---|---|---|---|---|\n" + rows.join("\n"),
  );
  // The grant is intact: a later call still works.
  const after = await w.mcpx(["call", "prot.echo", '{"text":"after"}']);
  assertMatch(after.stdout, /after/, after.stderr);
});

Deno.test("a 401 that a refresh did not mend names `mcpx auth`, not the headers the server has none of", async () => {
  await using as = rotatingOAuthServer();
  await using w = await world();
  await w.writeConfig({ mcpServers: { prot: { url: as.url } } });
  await authorize(w, "prot", ["--client-id", "mcpx-test"]);
  as.refuseAll = true;
  const refused = await w.mcpx(["--json", "call", "prot.echo", '{"text":"no"}']);
  assertEquals(refused.code, 1, refused.stderr);
  const error = JSON.parse(refused.stdout || refused.stderr).error;
  assertMatch(error.message, /`mcpx auth prot`/);
  assertEquals(
    [error.code, /headers/.test(error.message)],
    ["auth-required", false],
    error.message,
  );
});
