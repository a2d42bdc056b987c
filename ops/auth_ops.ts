/**
 * `mcpx auth`: OAuth 2.1 for remote servers (spec 002, "OAuth"; issue 13;
 * decision 0042). A person authorizes a server once, in a browser or with
 * `--no-browser` and `--code`/`--state`; the tokens are kept per
 * configuration file, server and exact URL, and calls use and refresh them.
 *
 * @module
 */

import * as z from "zod";
import { defineOp } from "./op.ts";

/** One server's row of `mcpx --json auth ls`: never a token's value. */
const AuthRow = z.strictObject({
  server: z.string(),
  url: z.string(),
  configPath: z.string(),
  tokens: z.boolean().describe("whether mcpx holds tokens for it"),
  expiresAt: z.string().optional().describe("when the access token expires (ISO 8601)"),
  refreshable: z.boolean().describe("whether a refresh token is held"),
  scope: z.string().optional(),
  pending: z.boolean().describe("an authorization was started and waits for its code"),
});

/** `mcpx --json auth …`. */
export const AuthOutput = z.union([
  z.strictObject({
    server: z.string(),
    url: z.string(),
    authorizationUrl: z.string(),
    callbackUrl: z.string(),
    state: z.string(),
  }).describe("--no-browser: what to open, where it comes back, the state to pass to --state"),
  z.strictObject({
    server: z.string(),
    url: z.string(),
    authorized: z.literal(true),
    tools: z.number().int().optional().describe("tools listed with the new tokens"),
    listError: z.string().optional().describe("why listing it again failed"),
  }),
  z.strictObject({ servers: z.array(AuthRow) }).describe("auth ls"),
  z.strictObject({ server: z.string(), url: z.string(), removed: z.boolean() }).describe("logout"),
]);

/** `mcpx auth`. */
export const auth = defineOp({
  name: "auth",
  description: "Authorize mcpx with a remote server's OAuth (a person, once): in a browser, or " +
    "--no-browser then --code/--state; `auth ls` lists, `auth logout` forgets.",
  where: "cli",
  hints: { readOnly: false, destructive: false, idempotent: false },
  input: z.object({
    words: z.array(z.string()).default([]).describe("<server> | ls | logout <server>"),
    noBrowser: z.boolean().optional().describe(
      "print the authorization URL, the callback URL and the state instead of opening a " +
        "browser; complete the sign-in with the code and state the redirect brings",
    ),
    code: z.string().optional().describe("the code the redirect brought (with --state)"),
    state: z.string().optional().describe("the state the redirect brought back"),
    iss: z.string().optional().describe("the iss the redirect brought, when it had one"),
    clientId: z.string().optional().describe(
      "a client id registered with the server already (else mcpx registers itself)",
    ),
    clientSecret: z.string().optional().describe(
      "that client's secret (else MCPX_OAUTH_CLIENT_SECRET); a value on the command line is " +
        "visible to other users in the process list, so prefer stdin or the variable",
    ),
    timeout: z.string().optional().describe(
      "how long to wait for the browser's redirect (default 5m)",
    ),
  }),
  output: AuthOutput,
  cli: {
    command: "auth",
    module: "./auth/auth.ts",
    usage: "mcpx auth <server|url> [--no-browser] | <server|url> --code CODE --state STATE | " +
      "ls | logout <server|url>",
    summary: "authorize a remote server's OAuth (a person, once); ls, logout",
    args: [{ field: "words", name: "server|ls|logout", variadic: true, complete: "namespace" }],
    flags: {
      "no-browser": {
        field: "noBrowser",
        type: "boolean",
      },
      code: { field: "code", type: "string" },
      state: { field: "state", type: "string" },
      iss: { field: "iss", type: "string" },
      "client-id": {
        field: "clientId",
        type: "string",
      },
      timeout: {
        field: "timeout",
        type: "string",
        syntax: "duration",
      },
      "client-secret": {
        field: "clientSecret",
        type: "string",
        syntax: "stdin",
      },
    },
  },
});
