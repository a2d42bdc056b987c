import { equal } from "node:assert/strict";
import type { ServerSpec } from "../config/types.ts";
import { bearerChallenged, oauthApplies } from "./oauth_session.ts";
import { authCommandOf } from "./oauth_target.ts";
import { expiresSoon, REFRESH_MARGIN_MS } from "./oauth_refresh.ts";

const remote = (extra: Partial<ServerSpec> = {}) =>
  ({ name: "gh", transport: "http", url: "https://x/mcp", headers: {}, ...extra }) as ServerSpec;

Deno.test("oauthApplies() offers OAuth only to a remote with no credential of another kind", () => {
  equal(oauthApplies(remote()), true);
  equal(oauthApplies(remote({ auth: { type: "oauth", clientId: "c" } })), true);
  equal(oauthApplies(remote({ headers: { authorization: "Bearer t" } })), false);
  equal(oauthApplies(remote({ url: "https://me:pw-123456@x/mcp" })), false);
  equal(oauthApplies(remote({ auth: { type: "bearer", token: "t" } })), false);
  equal(oauthApplies(remote({ transport: "stdio", url: undefined })), false);
});

Deno.test("expiresSoon() refreshes within the margin, never without an expiry", () => {
  equal(expiresSoon({}, 0), false);
  equal(expiresSoon({ expiresAt: REFRESH_MARGIN_MS + 1 }, 0), false);
  equal(expiresSoon({ expiresAt: REFRESH_MARGIN_MS - 1 }, 0), true);
  // A token that lives less than four margins is refreshed in its last quarter,
  // not the moment it is issued (issue 24: a 60 s token was refreshed by every request).
  const minute = { savedAt: 0, expiresAt: 60_000 };
  equal(expiresSoon(minute, 0), false);
  equal(expiresSoon(minute, 44_000), false);
  equal(expiresSoon(minute, 46_000), true);
  equal(expiresSoon({ savedAt: 0, expiresAt: 0 }, 0), true);
});

Deno.test("authCommandOf() names a direct target by its URL", () => {
  equal(authCommandOf("/s", "/p/.mcp.json", { name: "gh", url: "https://x/mcp" }), "mcpx auth gh");
  equal(
    authCommandOf("/s", "/s/direct/url-ab.json", { name: "x", url: "https://x/mcp" }),
    "mcpx auth https://x/mcp",
  );
});

Deno.test("bearerChallenged() finds the Bearer scheme among a 401's challenges", () => {
  const with_ = (h?: string) =>
    new Response(null, { status: 401, headers: h ? { "www-authenticate": h } : {} });
  equal(bearerChallenged(with_('Bearer resource_metadata="https://x/.well-known/r"')), true);
  equal(bearerChallenged(with_('Basic realm="x", Bearer')), true);
  equal(bearerChallenged(with_('Basic realm="x"')), false);
  equal(bearerChallenged(with_()), false);
});
